import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { callWithin, checkTimeout } from "../core/index.js";

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

/**
 * @internal `saver` with a time limit on each call a run waits on: a call
 * that has not settled after `ms` rejects with a `TIMEOUT` error naming
 * the method and the thread, so the run fails with a coded error instead
 * of hanging (the write itself cannot be called back; a step it left
 * claimed is continued with `GoapGraph.recover`). Everything else is the
 * saver's own (the same prototype, so `instanceof` holds); other methods
 * run bound to the saver, so savers with private fields work.
 * `Infinity` returns `saver` itself.
 */
export function limitCheckpointer<T extends BaseCheckpointSaver>(saver: T, ms: number): T {
  checkTimeout(ms, "checkpointerTimeoutMs");
  if (ms === Number.POSITIVE_INFINITY) return saver;
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(saver, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      let fn = bound.get(property);
      if (fn === undefined || (fn as { original?: unknown }).original !== value) {
        const method = value as (...args: unknown[]) => unknown;
        const name = String(property);
        fn = LIMITED.has(property)
          ? (...args: unknown[]) => {
              const thread = threadOf(args[0]);
              return callWithin(() => method.apply(target, args), {
                ms,
                what: `checkpointer.${name}${thread === undefined ? "" : ` (thread "${thread}")`}`,
                details: { method: name, ...(thread === undefined ? {} : { threadId: thread }) },
              });
            }
          : method.bind(target);
        (fn as { original?: unknown }).original = value;
        bound.set(property, fn);
      }
      return fn;
    },
  });
}
