import { availableParallelism } from "node:os";
import type { ResourceLimits } from "node:worker_threads";
import { Piscina } from "piscina";
import { type ActionSpec, describeValue, type GoalLike, GoalSpec, LangGoapError, toGoalSpec, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { type Plan, type PlanOptions, planDetailedAsync } from "../planner/index.js";
import { type DomainPayload, domainPayload, unserializableReason } from "./domain-payload.js";
import { abortedBeforeStart, type PooledPlanResult, rebuildResult } from "./pool-result.js";
import { FLAG, type WireOptions, type WireProblem, type WireReply, type WireResult, type WireTask } from "./wire.js";
import { workerEntry } from "./worker-entry.js";

/** Options of {@link PlannerPool}. */
export interface PlannerPoolOptions {
  /** Worker threads. @defaultValue the machine's available parallelism − 1, at least 1 */
  readonly size?: number;
  /** Problems accepted and not yet answered; one more is refused with `POOL_QUEUE_FULL`. @defaultValue 10000 */
  readonly maxQueue?: number;
  /**
   * Problems of one domain sent to a worker in one message. Calls made in
   * the same turn of the event loop are grouped by domain and spread over
   * the workers in batches of at most this many, so a crowd of small plans
   * pays one round trip per batch, not per plan.
   * @defaultValue 64
   */
  readonly maxBatch?: number;
  /**
   * What to do with a problem that cannot cross to a worker (an action with
   * an effect or cost function, a goal that decides its own satisfaction,
   * a `tracer` or `recordExpansions`): `refuse` rejects it with
   * `NOT_SERIALIZABLE`; `in-thread` plans it on the caller's thread with
   * `planDetailedAsync` (the result's `ranIn` is then `in-thread`).
   * @defaultValue "refuse"
   */
  readonly unserializable?: "refuse" | "in-thread";
  /** How long {@link PlannerPool.close} waits for started work before it stops the workers. @defaultValue 5000 */
  readonly closeTimeoutMs?: number;
  /** Memory limits of each worker; a worker that exceeds them dies and its problems fail with `WORKER_CRASHED`. @defaultValue Node's defaults */
  readonly resourceLimits?: ResourceLimits;
}

/** Counters of a {@link PlannerPool}. */
export interface PlannerPoolStats {
  readonly size: number;
  /** Problems accepted and not yet answered. */
  readonly outstanding: number;
  /** Messages sent to workers (a batch is one). */
  readonly tasks: number;
  /** Problems answered by a worker. */
  readonly planned: number;
  /** Problems planned on the caller's thread (`unserializable: "in-thread"`). */
  readonly inThread: number;
  /** Domains sent to a worker that did not hold them yet. */
  readonly domainsSent: number;
  /** Tasks that failed because their worker died. */
  readonly crashedTasks: number;
}

interface Pending {
  readonly problem: WireProblem;
  readonly start: Readonly<WorldState>;
  readonly goal: GoalSpec;
  readonly actions: readonly ActionSpec[];
  readonly signal: AbortSignal | undefined;
  readonly began: number;
  readonly resolve: (result: PooledPlanResult) => void;
  readonly reject: (error: unknown) => void;
  settled: boolean;
}

interface Group {
  readonly domain: DomainPayload;
  readonly problems: Pending[];
}

function positiveInteger(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new LangGoapError("INVALID_OPTION", `PlannerPool: ${field} must be an integer >= 1, got ${describeValue(value)}`, {
      field,
      value,
    });
  }
  return value;
}

/** Why these plan options cannot cross to a worker, or null. */
function optionsReason(options: PlanOptions): string | null {
  if (options.tracer !== undefined) return "the tracer option is an object with functions";
  if (options.recordExpansions) return "recordExpansions reports search hooks to a tracer on the caller's thread";
  return null;
}

function wireOptions(options: PlanOptions): WireOptions {
  return {
    ...(options.heuristic !== undefined ? { heuristic: options.heuristic } : {}),
    ...(options.weight !== undefined ? { weight: options.weight } : {}),
    ...(options.maxExpansions !== undefined ? { maxExpansions: options.maxExpansions } : {}),
    ...(options.maxNodes !== undefined ? { maxNodes: options.maxNodes } : {}),
    ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}),
    ...(options.blacklisted !== undefined ? { blacklisted: [...options.blacklisted] } : {}),
    ...(options.blacklistFallback !== undefined ? { blacklistFallback: options.blacklistFallback } : {}),
    ...(options.prune !== undefined ? { prune: options.prune } : {}),
    ...(options.relevance !== undefined ? { relevance: options.relevance } : {}),
  };
}

const PLANNER_POOL_OPTIONS_KEYS = {
  size: true,
  maxQueue: true,
  maxBatch: true,
  unserializable: true,
  closeTimeoutMs: true,
  resourceLimits: true,
} as const satisfies OptionKeys<PlannerPoolOptions>;

/**
 * A pool of worker threads (on piscina) that plans with A* off the caller's
 * thread: the same calls, options, statuses and plans as
 * `planDetailedAsync`, for domains whose actions are data (from
 * `loadDomain`, `loadDomainFile`, PDDL, or `ActionSpec`s without effect or
 * cost functions). Each worker compiles a domain once and keeps it under a
 * content key. Budgets count from when a worker starts the problem; an
 * `AbortSignal` cancels a queued problem at once and stops a running one
 * within one search slice (5 ms). Errors come back as `LangGoapError` with
 * their code; a worker that dies fails its problems with `WORKER_CRASHED`
 * and is replaced. Node only (`langgoap/node`).
 *
 * @example
 * ```ts
 * import { PlannerPool } from "langgoap/node";
 * const pool = new PlannerPool({ size: 2 });
 * const { plan, status } = await pool.planDetailed({ wood: 0 }, { wood: { gte: 3 } }, actions, { signal: AbortSignal.timeout(200) });
 * const plans = await Promise.all(npcs.map((npc) => pool.plan(npc.state, npc.goal, actions)));
 * await pool.close();
 * ```
 */
export class PlannerPool {
  /** @defaultValue see {@link PlannerPoolOptions} */
  readonly size: number;
  readonly maxQueue: number;
  readonly maxBatch: number;
  readonly unserializable: "refuse" | "in-thread";
  readonly #closeTimeoutMs: number;
  readonly #resourceLimits: ResourceLimits | undefined;
  #piscina: Piscina | null = null;
  #closed = false;
  #destroyed = false;
  #outstanding = 0;
  #groups = new Map<string, Group>();
  /** Tasks sent with each domain attached: the first `size` carry it, so most workers never have to ask. */
  #sentWith = new Map<string, number>();
  #flushScheduled = false;
  #tasks = 0;
  #planned = 0;
  #inThread = 0;
  #domainsSent = 0;
  #crashedTasks = 0;

  constructor(options: PlannerPoolOptions = {}) {
    checkOptionKeys(options, PLANNER_POOL_OPTIONS_KEYS, "new PlannerPool()");
    if (typeof options !== "object" || options === null) {
      throw new LangGoapError("INVALID_OPTION", `PlannerPool: expected an options object, got ${describeValue(options)}`);
    }
    this.size = positiveInteger(options.size, "size", Math.max(1, availableParallelism() - 1));
    this.maxQueue = positiveInteger(options.maxQueue, "maxQueue", 10_000);
    this.maxBatch = positiveInteger(options.maxBatch, "maxBatch", 64);
    const unserializable = options.unserializable ?? "refuse";
    if (unserializable !== "refuse" && unserializable !== "in-thread") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `PlannerPool: unserializable must be "refuse" or "in-thread", got ${describeValue(unserializable)}`,
      );
    }
    this.unserializable = unserializable;
    this.#closeTimeoutMs = positiveInteger(options.closeTimeoutMs, "closeTimeoutMs", 5000);
    this.#resourceLimits = options.resourceLimits;
  }

  get stats(): PlannerPoolStats {
    return {
      size: this.size,
      outstanding: this.#outstanding,
      tasks: this.#tasks,
      planned: this.#planned,
      inThread: this.#inThread,
      domainsSent: this.#domainsSent,
      crashedTasks: this.#crashedTasks,
    };
  }

  /** True after {@link PlannerPool.close} or {@link PlannerPool.destroy}: new problems are refused with `POOL_CLOSED`. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Plans one problem in a worker: the result `planDetailedAsync` gives for
   * the same arguments (plans with the caller's specs, statuses, counters,
   * budget figures, the explanation of "no plan" computed when read), plus
   * `ranIn`.
   *
   * @example
   * ```ts
   * const result = await pool.planDetailed(start, goal, actions, { timeBudgetMs: 50 });
   * if (result.status === "budget_exhausted") console.log(result.budget?.message);
   * ```
   */
  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalLike,
    actions: readonly ActionSpec[],
    options: PlanOptions = {},
  ): Promise<PooledPlanResult> {
    const began = performance.now();
    if (this.#closed) throw new LangGoapError("POOL_CLOSED", "PlannerPool: the pool is closed; create a new one to plan again");
    if (typeof options !== "object" || options === null) {
      throw new LangGoapError("INVALID_OPTION", `plan options: expected an object, got ${describeValue(options)}`);
    }
    const signal = options.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      throw new LangGoapError("INVALID_OPTION", `plan options: signal must be an AbortSignal, got ${describeValue(signal)}`, {
        field: "signal",
      });
    }
    const goalSpec = toGoalSpec(goal);
    const reason = this.#unserializableReason(goalSpec, actions, options);
    if (reason !== null) {
      if (this.unserializable === "refuse") {
        throw new LangGoapError(
          "NOT_SERIALIZABLE",
          `PlannerPool: ${reason}; functions cannot cross to a worker thread. Plan it in-thread (planDetailedAsync), or create the pool with { unserializable: "in-thread" }`,
        );
      }
      this.#inThread++;
      // Marked in place: a spread would read the lazy "no plan" explanation, which costs a compile.
      const result = await planDetailedAsync(start, goalSpec, actions, options);
      return Object.defineProperty(result, "ranIn", { value: "in-thread", enumerable: true }) as PooledPlanResult;
    }
    const domain = domainPayload(actions);
    if (signal?.aborted) return abortedBeforeStart(signal, began);
    if (this.#outstanding >= this.maxQueue) {
      throw new LangGoapError(
        "POOL_QUEUE_FULL",
        `PlannerPool: ${this.#outstanding} problems are waiting (maxQueue ${this.maxQueue}); wait for answers or raise maxQueue`,
        { maxQueue: this.maxQueue },
      );
    }
    return new Promise<PooledPlanResult>((resolve, reject) => {
      const problem: WireProblem = { start, goal: goalSpec.conditions, options: wireOptions(options) };
      const pending: Pending = { problem, start, goal: goalSpec, actions, signal, began, resolve, reject, settled: false };
      let group = this.#groups.get(domain.key);
      if (!group) {
        group = { domain, problems: [] };
        this.#groups.set(domain.key, group);
      }
      group.problems.push(pending);
      this.#outstanding++;
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        queueMicrotask(() => this.#flush());
      }
    });
  }

  /**
   * {@link PlannerPool.planDetailed}'s plan: `null` when there is none or a budget ran out.
   *
   * @example
   * ```ts
   * const plan = await pool.plan({ wood: 0 }, { wood: { gte: 3 } }, actions);
   * ```
   */
  async plan(start: Readonly<WorldState>, goal: GoalLike, actions: readonly ActionSpec[], options: PlanOptions = {}): Promise<Plan | null> {
    return (await this.planDetailed(start, goal, actions, options)).plan;
  }

  /**
   * Stops taking problems, lets the ones accepted finish (at most
   * `closeTimeoutMs`), then stops the workers. Problems still unanswered
   * then fail with `POOL_CLOSED`. Never waits longer than the timeout.
   *
   * @example
   * ```ts
   * await pool.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return this.destroy();
    this.#closed = true;
    this.#flush();
    const piscina = this.#piscina;
    if (piscina && this.#outstanding > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const drained = new Promise<void>((resolve) => {
        const check = (): void => {
          if (this.#outstanding === 0) resolve();
          else timer = setTimeout(check, 5);
        };
        check();
      });
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, this.#closeTimeoutMs).unref());
      await Promise.race([drained, timeout]);
      clearTimeout(timer);
    }
    await this.destroy();
  }

  /**
   * Stops the workers now; problems not yet answered fail with `POOL_CLOSED`.
   *
   * @example
   * ```ts
   * process.on("SIGTERM", () => void pool.destroy());
   * ```
   */
  async destroy(): Promise<void> {
    this.#closed = true;
    this.#destroyed = true;
    for (const group of this.#groups.values()) for (const p of group.problems) this.#fail(p, this.#closedError());
    this.#groups.clear();
    const piscina = this.#piscina;
    this.#piscina = null;
    if (piscina) await piscina.destroy();
  }

  /** @internal Test hook: stops one worker thread from outside, as a crash would; its problems fail with `WORKER_CRASHED`. */
  async crashOneWorker(): Promise<void> {
    const worker = this.#piscina?.threads[0];
    if (worker) await worker.terminate();
  }

  #unserializableReason(goal: GoalSpec, actions: readonly ActionSpec[], options: PlanOptions): string | null {
    if (Object.getPrototypeOf(goal).isSatisfied !== GoalSpec.prototype.isSatisfied) {
      return `goal "${goal.label}" decides its own satisfaction (isSatisfied is overridden)`;
    }
    const fromOptions = optionsReason(options);
    if (fromOptions !== null) return fromOptions;
    if (!Array.isArray(actions)) return null; // domainPayload names the error
    for (const action of actions) {
      if (typeof action?.hasDynamicEffects !== "boolean") return null;
      const reason = unserializableReason(action);
      if (reason !== null) return reason;
    }
    return null;
  }

  #pool(): Piscina {
    if (this.#piscina) return this.#piscina;
    const entry = workerEntry();
    const piscina = new Piscina({
      filename: entry.filename,
      ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
      minThreads: this.size,
      maxThreads: this.size,
      maxQueue: Number.POSITIVE_INFINITY,
      closeTimeout: this.#closeTimeoutMs,
      ...(this.#resourceLimits ? { resourceLimits: this.#resourceLimits } : {}),
    });
    // A worker that dies between tasks: piscina replaces it; without a listener the event would end the process.
    piscina.on("error", () => undefined);
    this.#piscina = piscina;
    return piscina;
  }

  #closedError(): LangGoapError {
    return new LangGoapError("POOL_CLOSED", "PlannerPool: the pool was closed before this problem was answered");
  }

  #settle(p: Pending, result: PooledPlanResult): void {
    if (p.settled) return;
    p.settled = true;
    this.#outstanding--;
    p.resolve(result);
  }

  #fail(p: Pending, error: unknown): void {
    if (p.settled) return;
    p.settled = true;
    this.#outstanding--;
    p.reject(error);
  }

  #flush(): void {
    this.#flushScheduled = false;
    const groups = [...this.#groups.values()];
    this.#groups.clear();
    for (const { domain, problems } of groups) {
      const live = problems.filter((p) => {
        if (!p.signal?.aborted) return true;
        this.#settle(p, abortedBeforeStart(p.signal, p.began));
        return false;
      });
      // Spread over the workers, in batches no larger than maxBatch.
      const per = Math.min(this.maxBatch, Math.ceil(live.length / this.size));
      for (let i = 0; i < live.length; i += per) void this.#runBatch(domain, live.slice(i, i + per));
    }
  }

  async #runBatch(domain: DomainPayload, batch: readonly Pending[]): Promise<void> {
    const flags = batch.some((p) => p.signal) ? new Int32Array(new SharedArrayBuffer(4 * batch.length)) : null;
    const listeners: Array<() => void> = [];
    if (flags) {
      batch.forEach((p, slot) => {
        if (!p.signal) return;
        const onAbort = () => {
          const was = Atomics.compareExchange(flags, slot, FLAG.QUEUED, FLAG.CANCELLED);
          if (was === FLAG.QUEUED) this.#settle(p, abortedBeforeStart(p.signal, p.began));
          else if (Atomics.compareExchange(flags, slot, FLAG.RUNNING, FLAG.ABORT_REQUESTED) === FLAG.RUNNING) Atomics.notify(flags, slot);
        };
        p.signal.addEventListener("abort", onAbort, { once: true });
        listeners.push(() => p.signal?.removeEventListener("abort", onAbort));
      });
    }
    const sent = this.#sentWith.get(domain.key) ?? 0;
    const eager = sent < this.size;
    if (eager) {
      this.#sentWith.set(domain.key, sent + 1);
      this.#domainsSent++;
      if (this.#sentWith.size > 1024) this.#sentWith.delete(this.#sentWith.keys().next().value as string);
    }
    const task: WireTask = { domainKey: domain.key, domain: eager ? domain.data : null, problems: batch.map((p) => p.problem), flags };
    try {
      let reply = await this.#send(task);
      if (reply.kind === "need_domain") {
        this.#domainsSent++;
        reply = await this.#send({ ...task, domain: domain.data });
      }
      if (reply.kind !== "results") throw new LangGoapError("WORKER_CRASHED", "PlannerPool: a worker did not keep the domain it was sent");
      this.#planned += reply.results.filter((r) => r.kind !== "cancelled").length;
      for (const [slot, p] of batch.entries()) this.#answer(p, reply.results[slot] as WireResult, domain);
    } catch (error) {
      for (const p of batch) this.#fail(p, this.#taskError(error));
    } finally {
      for (const remove of listeners) remove();
    }
  }

  #answer(p: Pending, answer: WireResult, domain: DomainPayload): void {
    if (p.settled) return;
    try {
      this.#settle(p, rebuildResult(answer, p.start, p.goal, domain, p.actions, p.signal));
    } catch (error) {
      this.#fail(p, error);
    }
  }

  #send(task: WireTask): Promise<WireReply> {
    if (this.#destroyed) return Promise.reject(this.#closedError());
    this.#tasks++;
    return this.#pool().run(task) as Promise<WireReply>;
  }

  #taskError(error: unknown): unknown {
    if (error instanceof LangGoapError) return error;
    if (this.#destroyed) return this.#closedError();
    if ((error as Error)?.name === "DataCloneError") {
      return new LangGoapError(
        "NOT_SERIALIZABLE",
        `PlannerPool: a start state or option could not be copied to a worker (${(error as Error).message}); facts must be plain data`,
      );
    }
    this.#crashedTasks++;
    return new LangGoapError(
      "WORKER_CRASHED",
      `PlannerPool: the worker planning this problem stopped (${(error as Error)?.message ?? String(error)}); it has been replaced, plan again`,
      {},
      { cause: error },
    );
  }
}
