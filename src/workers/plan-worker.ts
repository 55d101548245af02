/**
 * @internal The task function each {@link PlannerPool} worker thread runs
 * (loaded by piscina). A domain arrives once per worker, is turned back into
 * frozen `ActionSpec`s and kept under its content key, so the planner's own
 * compiled-problem cache (keyed by those specs) serves every later problem
 * of that domain. Problems of a batch are planned one after the other.
 */
import { ActionSpec, LangGoapError, type WorldState } from "../core/index.js";
import { type PlanDetailedResult, planDetailed, planDetailedAsync } from "../planner/index.js";
import { type ActionData, FLAG, type WirePlan, type WireProblem, type WireReply, type WireResult, type WireTask } from "./wire.js";

/** Domains a worker keeps; the least recently used goes first (with its compiled problems, which hang off its specs). */
const MAX_DOMAINS = 32;

/** `Atomics.waitAsync` (Node 16+; not in the ES2022 typings this package compiles against). */
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { readonly async: false; readonly value: string } | { readonly async: true; readonly value: Promise<string> };
const waitAsync: WaitAsync = (Atomics as unknown as { readonly waitAsync: WaitAsync }).waitAsync.bind(Atomics);
const domains = new Map<string, readonly ActionSpec[]>();

function domainOf(task: WireTask): readonly ActionSpec[] | null {
  const known = domains.get(task.domainKey);
  if (known) {
    domains.delete(task.domainKey);
    domains.set(task.domainKey, known);
    return known;
  }
  if (task.domain === null) return null;
  const specs = Object.freeze(task.domain.map((a: ActionData) => new ActionSpec(a)));
  domains.set(task.domainKey, specs);
  if (domains.size > MAX_DOMAINS) domains.delete(domains.keys().next().value as string);
  return specs;
}

/** Per-step changes of a found plan: what the caller needs to rebuild its expected states. */
function changesOf(result: PlanDetailedResult): WirePlan | null {
  const plan = result.plan;
  if (!plan) return null;
  const changes: WorldState[] = [];
  let before: Readonly<WorldState> = plan.startState ?? {};
  for (const state of plan.expectedStates) {
    const change: WorldState = {};
    for (const key of Object.keys(state)) {
      if (!Object.is(state[key], before[key]) || !Object.hasOwn(before, key)) change[key] = state[key] as WorldState[string];
    }
    changes.push(change);
    before = state;
  }
  return { actionNames: plan.actionNames, changes, totalCost: plan.totalCost, metadata: { ...plan.metadata } };
}

function encode(result: PlanDetailedResult): WireResult {
  return {
    kind: "ok",
    status: result.status,
    stats: result.stats,
    usedBlacklistFallback: result.usedBlacklistFallback,
    plan: changesOf(result),
    ...(result.budget ? { budget: result.budget } : {}),
  };
}

function encodeError(error: unknown): WireResult {
  if (error instanceof LangGoapError) return { kind: "error", code: error.code, message: error.message, details: { ...error.details } };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: "error", code: null, message, details: {} };
}

/** Plans one problem; with a flag slot, an abort asked for by the caller stops the search within one slice. */
async function planOne(actions: readonly ActionSpec[], problem: WireProblem, flags: Int32Array | null, slot: number): Promise<WireResult> {
  if (flags === null) return encode(planDetailed(problem.start, problem.goal, actions, problem.options));
  if (Atomics.compareExchange(flags, slot, FLAG.QUEUED, FLAG.RUNNING) === FLAG.CANCELLED) return { kind: "cancelled" };
  const controller = new AbortController();
  const waiting = waitAsync(flags, slot, FLAG.RUNNING);
  const onChange = () => {
    if (Atomics.load(flags, slot) === FLAG.ABORT_REQUESTED) controller.abort();
  };
  if (waiting.async) void waiting.value.then(onChange);
  else onChange();
  try {
    return encode(await planDetailedAsync(problem.start, problem.goal, actions, { ...problem.options, signal: controller.signal }));
  } finally {
    // Releases the waiter above; a late abort request finds the search over.
    Atomics.store(flags, slot, FLAG.DONE);
    Atomics.notify(flags, slot);
  }
}

/** Piscina's entry point: one batch of problems over one domain. */
export default async function planTask(task: WireTask): Promise<WireReply> {
  const actions = domainOf(task);
  if (actions === null) return { kind: "need_domain" };
  const results: WireResult[] = [];
  for (let i = 0; i < task.problems.length; i++) {
    try {
      results.push(await planOne(actions, task.problems[i] as WireProblem, task.flags, i));
    } catch (error) {
      results.push(encodeError(error));
    }
  }
  return { kind: "results", results };
}
