/**
 * Two processes resume the same paused approval at the same instant: only
 * one executes the approved action; the other is told, with a
 * `STEP_CLAIMED` error (it reached the step while the first held it) or a
 * `NOT_PAUSED` one (it looked after the first had finished). The PostgreSQL
 * half skips with one printed line without a server (fails under
 * LANGGOAP_REQUIRE_POSTGRES=1).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore, StoreExecutionHistory } from "../../src/graph/index.js";
import type { ChildArgs } from "../support/durable-child.js";
import { buildChild, executionLog, startChild } from "../support/durable-children.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { requirePostgres } from "../support/requirements.js";

type SaverArgs = Pick<ChildArgs, "saver" | "conn" | "schema">;

const postgresHere = requirePostgres("two processes resuming one approval on PostgresSaver");

let removeChild: () => void = () => {};
beforeAll(async () => {
  removeChild = await buildChild();
}, 60_000);
afterAll(() => removeChild());

/**
 * Pauses `threads` at their approval in one process, then two processes
 * resume each of them at the same instant (a barrier per thread): three
 * races for the price of three processes.
 */
async function twoResumers(saver: SaverArgs, dir: string, threads: readonly string[]): Promise<void> {
  const paused = await startChild({ mode: "run", ...saver, threads, dir, domain: "release" }).done;
  expect(paused.results).toEqual(threads.map((thread) => ({ thread, status: "awaiting_human" })));
  for (const thread of threads) expect(executionLog(dir, thread).map((e) => e.action)).toEqual(["build"]);

  const resumers = [0, 1].map(() => startChild({ mode: "resume", ...saver, threads, dir, domain: "release", barrier: true }));
  for (let i = 1; i <= threads.length; i++) {
    await Promise.all(resumers.map((r) => r.printed("READY", i)));
    for (const r of resumers) r.process.stdin?.write("go\n");
  }
  const reports = await Promise.all(resumers.map((r) => r.done));

  for (const [i, thread] of threads.entries()) {
    const outcomes = reports.map((report) => report.results[i]);
    expect(outcomes.map((o) => o?.thread)).toEqual([thread, thread]);
    const winners = outcomes.filter((o) => o?.status === "goal_achieved");
    const losers = outcomes.filter((o) => o?.error);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    expect(["STEP_CLAIMED", "NOT_PAUSED"]).toContain(losers[0]?.error?.code);
    expect(losers[0]?.error?.message).toMatch(/this invocation did not run it|is not paused/);
    expect(executionLog(dir, thread).map((e) => e.action)).toEqual(["build", "deploy_prod"]);
    const records = await new StoreExecutionHistory(SqliteStore.open(join(dir, `${thread}.history.sqlite`))).list();
    expect(records.map((r) => r.status)).toEqual(["goal_achieved"]);
  }
}

const THREADS = ["approve-1", "approve-2", "approve-3"];

describe("two processes resuming one approval on SqliteSaver", () => {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-resume2-sqlite-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the approved action runs once; the other resumer gets a clear error", async () => {
    await twoResumers({ saver: "sqlite", conn: join(dir, "checkpoints.sqlite") }, dir, THREADS);
  }, 60_000);
});

describe.runIf(postgresHere.available)("two processes resuming one approval on PostgresSaver", () => {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-resume2-pg-"));
  const schema = uniqueSchema("langgoap_resume2");
  let server: PostgresServer | undefined;

  beforeAll(async () => {
    server = await usePostgres();
    const saver = PostgresSaver.fromConnString(server.url, { schema });
    await saver.setup();
    await saver.end();
  }, 120_000);

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (server) {
      await dropSchema(server.url, schema);
      await server.stop();
    }
  }, 60_000);

  it("the approved action runs once; the other resumer gets a clear error", async () => {
    await twoResumers({ saver: "postgres", conn: (server as PostgresServer).url, schema }, dir, THREADS);
  }, 60_000);
});
