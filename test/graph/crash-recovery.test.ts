/**
 * Crash and resume with real processes: a child runs a 6-step graph and is
 * killed with SIGKILL at a named instant (right after a step's claim was
 * written, before, during, just after and after the save of several steps,
 * during the first planning round, and right after the history record); a
 * fresh process recovers every thread, each with its first recover() call.
 * Finished actions never run again; the action in flight runs at most
 * twice, the second time with the same idempotency key and stepAttempt 2.
 * The PostgreSQL half skips with one printed line without a server (fails
 * under LANGGOAP_REQUIRE_POSTGRES=1).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore, StoreExecutionHistory } from "../../src/graph/index.js";
import type { ChildArgs } from "../support/durable-child.js";
import { buildChild, executionLog, inParallel, runUntilKilled, startChild } from "../support/durable-children.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { CHAIN_ACTIONS, expectedExecutions } from "../support/recover-race.js";
import { requirePostgres } from "../support/requirements.js";

/**
 * Where the first process dies. `sK:saved` is in the observer after step
 * K's checkpoint was saved; `sK:claimed` right after step K's claim was
 * written (for s1, before the claims' own checkpoint was saved).
 */
const KILL_POINTS = [
  "plan",
  "s1:claimed",
  "s1:before",
  "s1:during",
  "s1:after",
  "s1:saved",
  "s2:claimed",
  "s3:during",
  "s3:after",
  "s3:saved",
  "s6:before",
  "s6:during",
  "s6:after",
  "history",
] as const;

/**
 * Where the first process dies when the graph has no termination policy:
 * between steps the run goes straight on from one executor superstep to
 * the next (no observer in between), so the kills fall between executor
 * supersteps.
 */
const STRAIGHT_ON_KILL_POINTS = [
  "plan",
  "s1:claimed",
  "s2:claimed",
  "s2:during",
  "s3:before",
  "s3:after",
  "s6:during",
  "s6:after",
  "history",
] as const;

const ACTIONS = CHAIN_ACTIONS;

type SaverArgs = Pick<ChildArgs, "saver" | "conn" | "schema">;

const postgresHere = requirePostgres("crash and resume on PostgresSaver");

let removeChild: () => void = () => {};
beforeAll(async () => {
  removeChild = await buildChild();
}, 60_000);
afterAll(() => removeChild());

async function crashEverywhereThenRecover(
  saver: SaverArgs,
  dir: string,
  points: readonly string[] = KILL_POINTS,
  straightOn = false,
): Promise<void> {
  const threads = points.map((p) => `${saver.saver}-${straightOn ? "straight-" : ""}${p.replace(":", "-")}`);
  await inParallel(
    points.map(
      (killAt, i) => () =>
        runUntilKilled({ mode: "run", ...saver, threads: [threads[i] as string], dir, killAt, domain: "chain", straightOn }),
    ),
    3,
  );
  const report = await startChild({ mode: "recover", ...saver, threads, dir, domain: "chain", straightOn }).done;

  for (const [i, point] of points.entries()) {
    const thread = threads[i] as string;
    expect(report.results[i], point).toEqual({ thread, status: "goal_achieved" });
    const log = executionLog(dir, thread);
    expect(
      log.map((e) => `${e.action}#${e.stepAttempt}`),
      point,
    ).toEqual(expectedExecutions(point));
    // Every execution of one step carries the same key; different steps, different keys.
    const keys = new Map<string, Set<string>>();
    for (const e of log) keys.set(e.action, (keys.get(e.action) ?? new Set()).add(e.key));
    expect(
      [...keys.values()].map((k) => k.size),
      point,
    ).toEqual([1, 1, 1, 1, 1, 1]);
    expect(new Set(log.map((e) => e.key)).size, point).toBe(6);
    // A re-run happened in the recovering process, never in the killed one.
    const reruns = log.filter((e) => e.stepAttempt === 2);
    expect(new Set(reruns.map((e) => e.pid)).size, point).toBeLessThanOrEqual(1);
    if (reruns.length) expect(log.filter((e) => e.action === reruns[0]?.action)[0]?.pid).not.toBe(undefined);

    const records = await new StoreExecutionHistory(SqliteStore.open(join(dir, `${thread}.history.sqlite`))).list();
    expect(
      records.map((r) => [r.status, r.metadata?.executedActions]),
      point,
    ).toEqual([["goal_achieved", ACTIONS]]);
  }
}

describe("crash and resume on SqliteSaver", () => {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-crash-sqlite-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("killed at 14 instants, every thread recovers in a fresh process: finished steps once, the step in flight at most twice", async () => {
    await crashEverywhereThenRecover({ saver: "sqlite", conn: join(dir, "checkpoints.sqlite") }, dir);
    // Process start-up dominates: generous for a loaded machine (each of the 15 processes starts in about 1 s when idle).
  }, 600_000);

  it("with steps going straight on (no observer between them), killed at 9 instants, every thread recovers the same way", async () => {
    await crashEverywhereThenRecover({ saver: "sqlite", conn: join(dir, "straight.sqlite") }, dir, STRAIGHT_ON_KILL_POINTS, true);
  }, 600_000);
});

describe.runIf(postgresHere.available)("crash and resume on PostgresSaver", () => {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-crash-pg-"));
  const schema = uniqueSchema("langgoap_crash");
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

  it("killed at 14 instants, every thread recovers in a fresh process: finished steps once, the step in flight at most twice", async () => {
    await crashEverywhereThenRecover({ saver: "postgres", conn: (server as PostgresServer).url, schema }, dir);
    // Process start-up dominates: generous for a loaded machine (each of the 15 processes starts in about 1 s when idle).
  }, 600_000);
});
