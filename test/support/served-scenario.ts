/**
 * What a client does with a served publishing graph (the repository's
 * `langgoap_publishing`, or the starter domain of `langgoap deploy-init`),
 * through `@langchain/langgraph-sdk` against a running LangGraph API server.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { expect } from "vitest";

interface RunValues {
  status: string;
  worldState: Record<string, unknown>;
  plan: { actions: string[] } | null;
  executionHistory: { actionName: string; success: boolean }[];
  __interrupt__?: { value: { type: string; action: string } }[];
}

interface JsonSchemaObject {
  properties: Record<string, unknown>;
}

const history = (values: RunValues) => values.executionHistory.map((r) => `${r.actionName}:${r.success}`);

/**
 * The schema endpoint: the declared input and output, with no source paths.
 * Declared schemas are what the server reads from the compiled graph; its
 * fallback, parsing the TypeScript sources, took over 30 s (past the test's
 * time limit), so no timing is asserted here.
 */
export async function checkSchemas(client: Client, graphId: string, sourceRoot: string): Promise<void> {
  const schemas = await client.assistants.getSchemas(graphId);
  expect(Object.keys((schemas.input_schema as JsonSchemaObject).properties)).toEqual(["goal", "worldState"]);
  expect(Object.keys((schemas.output_schema as JsonSchemaObject).properties)).toEqual(["status", "worldState", "plan", "executionHistory"]);
  const text = JSON.stringify(schemas);
  expect(text).not.toContain("$ref");
  expect(text).not.toContain(sourceRoot);
  expect(text).not.toMatch(/\.ts\b/);
}

/** A run to goal_achieved, and the execution record it leaves in the server's store. */
export async function checkGoalAchieved(client: Client, graphId: string): Promise<void> {
  const thread = await client.threads.create();
  const result = (await client.runs.wait(thread.thread_id, graphId, {
    input: { goal: { published: true }, worldState: { topic: "GOAP" } },
  })) as unknown as RunValues;
  expect(result.status).toBe("goal_achieved");
  expect(result.plan?.actions).toEqual(["research", "write_fast", "publish"]);
  expect(history(result)).toEqual(["research:true", "write_fast:true", "publish:true"]);
  expect(result.worldState.article).toBe("GOAP, briefly. Notes on GOAP: goals, actions, preconditions, effects.");

  const [run] = await client.runs.list(thread.thread_id);
  expect(run?.status).toBe("success");
  const { items } = await client.store.searchItems(["langgoap", "executions"], { filter: { threadId: thread.thread_id } });
  expect(items.map((i) => i.value)).toMatchObject([
    { status: "goal_achieved", outcome: "success", planActions: ["research", "write_fast", "publish"], runId: run?.run_id },
  ]);
}

/** A failing writer, watched step by step in `updates`: the graph replans to the premium writer. */
export async function checkReplanStream(client: Client, graphId: string): Promise<void> {
  const thread = await client.threads.create();
  const steps: string[] = [];
  for await (const chunk of client.runs.stream(thread.thread_id, graphId, {
    input: { goal: { published: true }, worldState: { topic: "LangGraph", fast_writer_down: true } },
    streamMode: "updates",
  })) {
    if (chunk.event === "error") throw new Error(`run failed: ${JSON.stringify(chunk.data)}`);
    if (chunk.event === "updates") steps.push(...Object.keys(chunk.data as object));
  }
  expect(steps).toEqual([
    "planner",
    "executor",
    "observer",
    "executor",
    "observer",
    "planner",
    "executor",
    "observer",
    "executor",
    "observer",
  ]);
  const state = await client.threads.getState<RunValues & { replanCount: number }>(thread.thread_id);
  expect(state.values.status).toBe("goal_achieved");
  expect(state.values.replanCount).toBe(1);
  expect(history(state.values)).toEqual(["research:true", "write_fast:false", "write_premium:true", "publish:true"]);
}

/** A human approval: the run pauses before the newsletter, a later request resumes it, and the checkpoints tell the story. */
export async function checkApprovalAndHistory(client: Client, graphId: string): Promise<void> {
  const thread = await client.threads.create();
  const paused = (await client.runs.wait(thread.thread_id, graphId, {
    input: { goal: { newsletter_sent: true }, worldState: { topic: "GOAP" } },
  })) as unknown as RunValues;
  expect(paused.__interrupt__?.map((i) => i.value)).toMatchObject([{ type: "goap_action_approval", action: "send_newsletter" }]);
  const waiting = await client.threads.getState<RunValues & { awaitingHuman: unknown }>(thread.thread_id);
  expect(waiting.next).toEqual(["executor"]);
  expect(waiting.values.status).toBe("awaiting_human");
  expect(waiting.values.awaitingHuman).toEqual({ action: "send_newsletter", kind: "goap_action_approval" });
  expect(waiting.values.worldState.published).toBe(true);
  expect(waiting.values.worldState.newsletter_sent).toBeUndefined();

  const finished = (await client.runs.wait(thread.thread_id, graphId, { command: { resume: true } })) as unknown as RunValues;
  expect(finished.status).toBe("goal_achieved");
  expect(history(finished)).toEqual(["research:true", "write_fast:true", "publish:true", "send_newsletter:true"]);
  expect(finished.worldState.newsletter_sent).toBe(true);

  const checkpoints = await client.threads.getHistory<RunValues>(thread.thread_id, { limit: 100 });
  expect(checkpoints[0]?.values.status).toBe("goal_achieved");
  expect(checkpoints[0]?.next).toEqual([]);
  // Newest first: the input, then planner, then executor/observer pairs for the four actions and the one announcing the question.
  expect(checkpoints.map((c) => c.next.join("|")).reverse()).toEqual([
    "__start__",
    "planner",
    "executor",
    "observer",
    "executor",
    "observer",
    "executor",
    "observer",
    "executor",
    "observer",
    "executor",
    "observer",
    "",
  ]);
  expect(await client.runs.list(thread.thread_id)).toHaveLength(2); // the paused run and the one that resumed it
}

interface ThreadValues extends RunValues {
  replanCount: number;
  blacklistedActions: string[];
  runId: string;
}

/**
 * Runs on one thread: the second starts fresh (the first run's blacklist,
 * counters and history stay with it), both are recorded, a run without a
 * world starts from the one the thread's last run left, and a new input on
 * a thread paused for a human is refused while the pause stays resumable.
 */
export async function checkRunsOnOneThread(client: Client, graphId: string): Promise<void> {
  const thread = await client.threads.create();
  const run = async (input: Record<string, unknown>) =>
    (await client.runs.wait(thread.thread_id, graphId, { input })) as unknown as RunValues;
  const first = await run({ goal: { published: true }, worldState: { topic: "GOAP", fast_writer_down: true } });
  expect(history(first)).toEqual(["research:true", "write_fast:false", "write_premium:true", "publish:true"]);
  const second = await run({ goal: { published: true }, worldState: { topic: "GOAP", fast_writer_down: false } });
  expect(second.status).toBe("goal_achieved");
  expect(history(second)).toEqual(["research:true", "write_fast:true", "publish:true"]);
  const state = await client.threads.getState<ThreadValues>(thread.thread_id);
  expect(state.values.replanCount).toBe(0);
  expect(state.values.blacklistedActions).toEqual([]);
  const runs = await client.runs.list(thread.thread_id);
  expect(runs).toHaveLength(2);
  expect(runs.map((r) => r.run_id)).toContain(state.values.runId);
  const { items } = await client.store.searchItems(["langgoap", "executions"], { filter: { threadId: thread.thread_id } });
  expect(items.map((i) => (i.value as { runId: string }).runId).sort()).toEqual(runs.map((r) => r.run_id).sort());
  expect(items.map((i) => (i.value as { replanCount: number }).replanCount).sort()).toEqual([0, 1]);

  const third = await run({ goal: { drafted: true } });
  expect(third.status).toBe("goal_achieved");
  expect(history(third)).toEqual([]);
  expect(third.worldState).toEqual(second.worldState);

  const paused = await client.threads.create();
  await client.runs.wait(paused.thread_id, graphId, { input: { goal: { newsletter_sent: true }, worldState: { topic: "GOAP" } } });
  const before = await client.threads.getState<RunValues>(paused.thread_id);
  expect(before.values.status).toBe("awaiting_human");
  // The run is refused before anything is written: the server reports the LangGoapError.
  await expect(client.runs.wait(paused.thread_id, graphId, { input: { goal: { published: true } } })).rejects.toThrow(
    /LangGoapError.*send_newsletter.* waits for a human \(goap_action_approval\)/,
  );
  const after = await client.threads.getState<RunValues>(paused.thread_id);
  expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
  const finished = (await client.runs.wait(paused.thread_id, graphId, { command: { resume: true } })) as unknown as RunValues;
  expect(finished.status).toBe("goal_achieved");
  expect(history(finished)).toEqual(["research:true", "write_fast:true", "publish:true", "send_newsletter:true"]);
}
