import { INTERRUPT, isInterrupted, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { abortReasonText } from "../core/abort-reason.js";
import type { CompiledGoapGraph, GoapRunResult } from "./state-graph.js";

/**
 * @internal Runs the graph as `app.invoke` does (the same values and
 * interrupts), except that when `config.signal` aborts the run it resolves
 * with the last state the run reached, `status: "aborted"` and the reason in
 * `replanReason`, instead of rejecting with a bare `AbortError` that loses
 * the partial result (`initial` when the run had not reached any state).
 * Without a signal it is `app.invoke` itself.
 */
export async function invokeKeepingState(
  app: CompiledGoapGraph,
  input: unknown,
  config: LangGraphRunnableConfig | undefined,
  initial?: GoapRunResult,
): Promise<GoapRunResult> {
  const signal = config?.signal;
  if (!signal) return (await app.invoke(input as never, config)) as GoapRunResult;
  let latest: GoapRunResult | undefined;
  const interrupts: unknown[] = [];
  try {
    const stream = await app.stream(input as never, { ...config, streamMode: "values" });
    for await (const chunk of stream as AsyncIterable<unknown>) {
      if (isInterrupted(chunk)) interrupts.push(...(chunk[INTERRUPT] as unknown[]));
      else latest = chunk as GoapRunResult;
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    latest ??= (await savedState(app, config)) ?? initial;
    if (!latest) throw error;
    return { ...latest, status: "aborted", replanReason: `aborted: ${abortReasonText(signal, "signal aborted")}` };
  }
  if (interrupts.length > 0) return { ...(latest as GoapRunResult), [INTERRUPT]: interrupts } as GoapRunResult;
  return latest as GoapRunResult;
}

/** The thread's checkpointed state, when there is one (a resumed run that aborted before its first step). */
async function savedState(app: CompiledGoapGraph, config: LangGraphRunnableConfig): Promise<GoapRunResult | undefined> {
  if (!app.checkpointer || config.configurable?.thread_id === undefined) return undefined;
  try {
    const snapshot = await app.getState({ configurable: config.configurable });
    const values = snapshot.values as GoapRunResult | undefined;
    return values && typeof values === "object" && "worldState" in values ? values : undefined;
  } catch {
    return undefined;
  }
}
