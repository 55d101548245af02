import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { callWithin, checkTimeout, settleWithin, timeoutError } from "../core/index.js";

/**
 * Time limit of one checkpointer call (`getTuple`, `put`, `putWrites`,
 * `deleteThread`) unless configured otherwise: 30 seconds. A database
 * that answers slower than this is not keeping up with a run anyway.
 */
export const DEFAULT_CHECKPOINTER_TIMEOUT_MS = 30_000;

/** The calls a run waits on: LangGraph's reads and writes of each step, the step claims, recovery's reads. */
const LIMITED = new Set<PropertyKey>(["getTuple", "put", "putWrites", "deleteThread"]);

function threadOf(config: unknown): string | undefined {
  const id = (config as { configurable?: { thread_id?: unknown } } | undefined)?.configurable?.thread_id;
  return typeof id === "string" ? id : undefined;
}

/** Savers already limited (a saver assigned twice is not wrapped twice). */
const limitedSavers = new WeakSet<object>();

/**
 * `list`'s async iterator with a time limit on each item: a saver whose
 * listing stops answering fails the read with a `TIMEOUT` error instead of
 * hanging it (`getStateHistory`, `threadHistory`).
 */
function limitedListing(
  listing: AsyncIterator<unknown>,
  ms: number,
  what: string,
  details: Record<string, unknown>,
): AsyncIterableIterator<unknown> {
  const iterator: AsyncIterableIterator<unknown> = {
    [Symbol.asyncIterator]: () => iterator,
    next: () => callWithin(() => listing.next(), { ms, what, details }),
    return: (value?: unknown) =>
      listing.return
        ? callWithin(() => (listing.return as (v?: unknown) => Promise<IteratorResult<unknown>>)(value), { ms, what, details })
        : Promise.resolve({ done: true as const, value }),
  };
  return iterator;
}

/**
 * `call()` settled within `ms`, or a `TIMEOUT` error naming the call. The
 * saver gets no signal, so unlike `callWithin` no abort controller is made,
 * and the error's text is only built when time runs out: these calls are
 * made several times a step.
 */
function limitedCall(call: () => unknown, ms: number, named: () => { what: string; details: Record<string, unknown> }): Promise<unknown> {
  let work: unknown;
  try {
    work = call();
  } catch (error) {
    return Promise.reject(error);
  }
  return settleWithin(work, {
    ms,
    onTimeout: () => {
      const { what, details } = named();
      return timeoutError(what, ms, details);
    },
  });
}

/**
 * @internal `saver` with a time limit on each call a run waits on: a call
 * that has not settled after `ms` rejects with a `TIMEOUT` error naming
 * the method and the thread, so the run fails with a coded error instead
 * of hanging (the write itself cannot be called back; a step it left
 * claimed is continued with `GoapGraph.recover`); each item `list` yields
 * gets the same limit. Everything else is the
 * saver's own (the same prototype, so `instanceof` holds); other methods
 * run bound to the saver, so savers with private fields work.
 * `Infinity` returns `saver` itself.
 */
export function limitCheckpointer<T extends BaseCheckpointSaver>(saver: T, ms: number): T {
  checkTimeout(ms, "checkpointerTimeoutMs");
  if (ms === Number.POSITIVE_INFINITY || limitedSavers.has(saver)) return saver;
  const bound = new Map<PropertyKey, unknown>();
  const limited = new Proxy(saver, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      let fn = bound.get(property);
      if (fn === undefined || (fn as { original?: unknown }).original !== value) {
        const method = value as (...args: unknown[]) => unknown;
        const name = String(property);
        const what = (args: unknown[]) => {
          const thread = threadOf(args[0]);
          return {
            what: `checkpointer.${name}${thread === undefined ? "" : ` (thread "${thread}")`}`,
            details: { method: name, ...(thread === undefined ? {} : { threadId: thread }) },
          };
        };
        fn = LIMITED.has(property)
          ? (...args: unknown[]) =>
              limitedCall(
                () => method.apply(target, args),
                ms,
                () => what(args),
              )
          : property === "list"
            ? (...args: unknown[]) => {
                const named = what(args);
                return limitedListing(method.apply(target, args) as AsyncIterator<unknown>, ms, named.what, named.details);
              }
            : method.bind(target);
        (fn as { original?: unknown }).original = value;
        bound.set(property, fn);
      }
      return fn;
    },
  });
  limitedSavers.add(limited);
  return limited;
}

/**
 * @internal Limits the compiled graph's saver, and makes a saver assigned to it later
 * (`app.checkpointer = saver`, as the LangGraph API server does with the
 * graphs it serves) get the same limits as one given to `compile`, on the
 * graph and on the copies `withConfig` makes of it.
 */
export function limitAssignedCheckpointers<T extends object>(compiled: T, ms: number): T {
  const graph = compiled as T & { checkpointer?: unknown; withConfig?: (config: unknown) => unknown };
  const limit = (value: unknown) =>
    typeof value === "object" && value !== null ? limitCheckpointer(value as BaseCheckpointSaver, ms) : value;
  let saver = limit(graph.checkpointer);
  Object.defineProperty(graph, "checkpointer", {
    configurable: true,
    enumerable: true,
    get: () => saver,
    set: (value: unknown) => {
      saver = limit(value);
    },
  });
  const withConfig = graph.withConfig;
  if (typeof withConfig === "function") {
    Object.defineProperty(graph, "withConfig", {
      value(this: T, config: unknown) {
        return limitAssignedCheckpointers(withConfig.call(this, config) as object, ms);
      },
      writable: true,
      configurable: true,
    });
  }
  return compiled;
}
