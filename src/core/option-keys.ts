import { LangGoapError } from "./errors.js";

/**
 * @internal The keys an options object may have, as an object literal
 * checked against its interface (`satisfies OptionKeys<PlanOptions>`), so
 * adding a field to the interface without listing it here, or listing one
 * it lacks, fails type-checking.
 */
export type OptionKeys<T> = { readonly [K in keyof Required<T>]: true };

/**
 * Options that users put in the wrong place, by where they belong. Each
 * is named when given where it is unknown, e.g. "checkpointer is an
 * option of compile(), not of new GoapGraph()".
 */
const MISPLACED: Readonly<Record<string, string>> = {
  checkpointer: "compile() (graph.compile({ checkpointer }))",
  store: "compile() (graph.compile({ store }))",
  interruptBefore: "compile()",
  interruptAfter: "compile()",
  thread_id: "the run config's configurable ({ configurable: { thread_id } })",
  checkpoint_id: "the run config's configurable ({ configurable: { checkpoint_id } })",
  checkpoint_ns: "the run config's configurable ({ configurable: { checkpoint_ns } })",
  run_id: "the run config's configurable ({ configurable: { run_id } })",
  configurable: "the run config (graph.invoke(goal, world, { configurable }))",
  callbacks: "the run config (graph.invoke(goal, world, { callbacks }))",
  streamMode: "the stream config (graph.stream(goal, world, { streamMode }))",
  heuristic: "plan() and the strategies (new GoapGraph(actions, { strategy: new AStarStrategy({ heuristic }) }))",
  maxExpansions: "plan() and the strategies (new GoapGraph(actions, { strategy: new AStarStrategy({ maxExpansions }) }))",
  timeBudgetMs: "plan() and the strategies (new GoapGraph(actions, { strategy: new AStarStrategy({ timeBudgetMs }) }))",
  sensors: "new GoapGraph()",
  guards: "new GoapGraph()",
  strategy: "new GoapGraph()",
  history: "new GoapGraph()",
  llm: "graph.invokeNl(request, world, { llm })",
};

/** Edit distance with transpositions, stopping early past `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] as number) + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return previous[b.length] as number;
}

/** The known key closest to `key` (case ignored), when it is close enough to be a typo. */
function nearest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const limit = Math.max(1, Math.floor(key.length / 4));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const d = distance(lower, candidate.toLowerCase(), limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * @internal Refuses an options object with a key its receiver does not
 * know: a coded `UNKNOWN_OPTION` error naming the key and where it
 * belongs (an option of another call: "checkpointer is an option of
 * compile(), not of new GoapGraph()"), or the known option it is a typo of,
 * or the known options. Keys whose value is `undefined` are let through
 * (they change nothing). Only own keys count.
 *
 * @param options - the options given (anything but a plain object is left to the receiver's other checks).
 * @param known - the receiver's keys (an {@link OptionKeys} literal).
 * @param where - the receiver as a user writes it, e.g. `"new GoapGraph()"`.
 * @param hint - added to the message of an unknown key that is no typo or known misplacement.
 *
 * @example
 * ```ts
 * checkOptionKeys(options, PLAN_OPTION_KEYS, "plan()");
 * ```
 */
export function checkOptionKeys(options: unknown, known: Readonly<Record<string, true>>, where: string, hint?: string): void {
  if (typeof options !== "object" || options === null) return;
  for (const key in options) {
    if (Object.hasOwn(known, key) || !Object.hasOwn(options, key)) continue;
    if ((options as Record<string, unknown>)[key] === undefined) continue;
    throw unknownOption(key, Object.keys(known), where, hint, false) as LangGoapError;
  }
}

/**
 * @internal {@link checkOptionKeys} for a LangChain run config, which
 * LangChain, LangGraph and tools extend with keys of their own (a tool's
 * `toolCall`, say) that a caller may pass on: an unknown key is refused
 * only when it is a known misplacement (`thread_id` outside
 * `configurable`, a `checkpointer`) or a typo of a config key.
 *
 * @example
 * ```ts
 * checkRunConfigKeys(config, RUN_CONFIG_KEYS, "graph.invoke() config");
 * ```
 */
export function checkRunConfigKeys(config: unknown, known: Readonly<Record<string, true>>, where: string): void {
  if (typeof config !== "object" || config === null) return;
  for (const key in config) {
    if (Object.hasOwn(known, key) || !Object.hasOwn(config, key)) continue;
    if ((config as Record<string, unknown>)[key] === undefined) continue;
    const error = unknownOption(key, Object.keys(known), where, undefined, true);
    if (error) throw error;
  }
}

/** The error for `key`, or (`lenient`) none when it is neither a known misplacement nor a typo. */
function unknownOption(
  key: string,
  known: readonly string[],
  where: string,
  hint: string | undefined,
  lenient: boolean,
): LangGoapError | undefined {
  const shown = JSON.stringify(key);
  const home = Object.hasOwn(MISPLACED, key) ? MISPLACED[key] : undefined;
  if (home !== undefined) {
    return new LangGoapError("UNKNOWN_OPTION", `${shown} is an option of ${home}, not of ${where}`, {
      option: key,
      where,
      belongsTo: home,
    });
  }
  const typo = nearest(key, known) ?? nearest(key, Object.keys(MISPLACED));
  if (typo !== undefined) {
    const elsewhere = known.includes(typo) ? "" : ` (an option of ${MISPLACED[typo]})`;
    return new LangGoapError("UNKNOWN_OPTION", `${where}: unknown option ${shown}; did you mean ${JSON.stringify(typo)}${elsewhere}?`, {
      option: key,
      where,
      suggestion: typo,
    });
  }
  if (lenient) return undefined;
  const list = known.length > 0 ? `; its options are ${known.join(", ")}` : "; it takes no options";
  return new LangGoapError("UNKNOWN_OPTION", `${where}: unknown option ${shown}${list}${hint ? `. ${hint}` : ""}`, { option: key, where });
}
