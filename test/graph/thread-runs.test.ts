/**
 * A thread is a conversation of runs: a new input on a thread whose run has
 * ended starts a new run (run-scoped fields fresh, the world carried over
 * unless the input gives one, each run's history kept), on every saver; a
 * new input on a thread paused for a human is refused with THREAD_PAUSED.
 * The PostgreSQL half skips without a server (fails under
 * LANGGOAP_REQUIRE_POSTGRES=1).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseCheckpointSaver, InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { GoapGraph, type GoapState, StoreExecutionHistory } from "../../src/graph/index.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { requirePostgres } from "../support/requirements.js";
import { flakyWriterActions } from "../support/writer.js";
import { quietLogger } from "./support.js";

const postgresHere = requirePostgres("two runs on one thread on PostgresSaver");
const names = (state: Pick<GoapState, "executionHistory">) => state.executionHistory.map((r) => `${r.actionName}:${r.success}`);

/** The repro: the same thread, first with the fast writer down, then up; raw inputs as a client sends them. */
async function twoRunsOnOneThread(checkpointer: BaseCheckpointSaver, thread: string): Promise<void> {
  const store = new InMemoryStore();
  const graph = new GoapGraph(flakyWriterActions({ whileDown: true }), { logger: quietLogger() });
  const app = graph.compile({ checkpointer, store });
  const config = { configurable: { thread_id: thread } };

  const first = (await app.invoke(
    { goal: { published: true }, worldState: { topic: "GOAP", fast_writer_down: true } },
    config,
  )) as GoapState;
  expect(first.status).toBe("goal_achieved");
  expect(names(first)).toEqual(["research:true", "write_fast:false", "write_premium:true", "publish:true"]);
  expect(first.replanCount).toBe(1);
  expect(first.blacklistedActions).toEqual(["write_fast"]);

  const second = (await app.invoke(
    { goal: { published: true }, worldState: { topic: "GOAP", fast_writer_down: false } },
    config,
  )) as GoapState;
  expect(second.status).toBe("goal_achieved");
  // Nothing of run 1 leaks: write_fast is planned again, the counters start at 0, the history is run 2's alone.
  expect(second.plan?.actions).toEqual(["research", "write_fast", "publish"]);
  expect(names(second)).toEqual(["research:true", "write_fast:true", "publish:true"]);
  expect(second.replanCount).toBe(0);
  expect(second.blacklistedActions).toEqual([]);
  expect(second.actionFailureCounts).toEqual({});
  expect(second.readmittedActions).toEqual([]);
  expect(second.replanReason).toBeNull();
  expect(second.runId).toEqual(expect.any(String));
  expect(second.runId).not.toBe(first.runId);
  // The given world replaced the thread's: run 1's facts are gone.
  expect(second.worldState).toEqual({ topic: "GOAP", fast_writer_down: false, researched: true, drafted: true, published: true });

  const runs = await graph.threadHistory(config);
  expect(runs.map((r) => [r.runId, r.status, names(r).length])).toEqual([
    [first.runId, "goal_achieved", 4],
    [second.runId, "goal_achieved", 3],
  ]);
  const records = await new StoreExecutionHistory(store).queryByThread(thread);
  expect(records.map((r) => r.runId).sort()).toEqual([first.runId, second.runId].sort());
  expect(records.map((r) => r.replanCount).sort()).toEqual([0, 1]);

  // A third run without a world starts from the world run 2 left.
  const third = await graph.invoke({ drafted: true }, undefined, config);
  expect(third.status).toBe("goal_achieved");
  expect(names(third)).toEqual([]);
  expect(third.worldState).toEqual(second.worldState);
  expect((await graph.threadHistory(config)).map((r) => r.runId)).toEqual([first.runId, second.runId, third.runId]);
}

describe("two runs on one thread", () => {
  it("MemorySaver: the second run starts fresh, the first stays readable", async () => {
    await twoRunsOnOneThread(new MemorySaver(), "mem");
  });

  it("SqliteSaver: the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), "langgoap-runs-"));
    try {
      await twoRunsOnOneThread(SqliteSaver.fromConnString(join(dir, "c.sqlite")), "sqlite");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("graph.invoke: a given world replaces the thread's, an omitted one carries over", async () => {
    const graph = new GoapGraph(flakyWriterActions({ whileDown: true }), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "carry" } };
    const first = await graph.invoke({ researched: true }, { topic: "GOAP" }, config);
    expect(names(first)).toEqual(["research:true"]);
    const second = await graph.invoke({ published: true }, undefined, config);
    expect(second.plan?.actions).toEqual(["write_fast", "publish"]);
    expect(names(second)).toEqual(["write_fast:true", "publish:true"]);
    const third = await graph.invoke({ published: true }, { topic: "again" }, config);
    expect(names(third)).toEqual(["research:true", "write_fast:true", "publish:true"]);
  });
});

describe.runIf(postgresHere.available)("two runs on one thread on PostgresSaver", () => {
  const schema = uniqueSchema("langgoap_runs");
  let server: PostgresServer | undefined;
  let saver: PostgresSaver | undefined;
  beforeAll(async () => {
    server = await usePostgres();
    saver = PostgresSaver.fromConnString(server.url, { schema });
    await saver.setup();
  }, 120_000);
  afterAll(async () => {
    await saver?.end();
    if (server) {
      await dropSchema(server.url, schema);
      await server.stop();
    }
  }, 60_000);

  it("the second run starts fresh, the first stays readable", async () => {
    await twoRunsOnOneThread(saver as PostgresSaver, "pg");
  }, 60_000);
});

describe("a run paused for a human", () => {
  const domain = () => [
    new ActionSpec({ name: "gather", effects: { wood: true } }),
    new ActionSpec({ name: "build", preconditions: { wood: true }, effects: { house: true }, requireHumanApproval: true }),
  ];

  it("says awaiting_human with what it waits for, and resuming moves it on", async () => {
    const graph = new GoapGraph(domain(), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "ask" } };
    const paused = await graph.invoke({ house: true }, {}, config);
    expect(paused.status).toBe("awaiting_human");
    expect(paused.awaitingHuman).toEqual({ action: "build", kind: "goap_action_approval" });
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ type: "goap_action_approval", action: "build" });
    expect(((await app.getState(config)).values as GoapState).status).toBe("awaiting_human");
    const done = await graph.resume(true, config);
    expect(done.status).toBe("goal_achieved");
    expect(done.awaitingHuman).toBeNull();
    expect(names(done)).toEqual(["gather:true", "build:true"]);
  });

  it("refuses a new input with THREAD_PAUSED and stays resumable (graph.invoke and raw input)", async () => {
    const graph = new GoapGraph(domain(), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "busy" } };
    await graph.invoke({ house: true }, {}, config);
    const before = await app.getState(config);
    for (const attempt of [() => graph.invoke({ wood: true }, {}, config), () => app.invoke({ goal: { wood: true } }, config)]) {
      const error = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LangGoapError);
      expect((error as LangGoapError).code).toBe("THREAD_PAUSED");
      expect((error as LangGoapError).message).toContain('action "build" waits for a human');
    }
    const after = await app.getState(config);
    expect(after.config.configurable?.checkpoint_id).toBe(before.config.configurable?.checkpoint_id);
    const done = await graph.resume(true, config);
    expect(done.status).toBe("goal_achieved");
    expect(names(done)).toEqual(["gather:true", "build:true"]);
    // Once ended, the thread takes a new run again.
    const next = await graph.invoke({ wood: true }, undefined, config);
    expect(next.status).toBe("goal_achieved");
    expect(names(next)).toEqual([]);
  });
});
