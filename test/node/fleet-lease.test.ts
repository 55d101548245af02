/**
 * The leases of the fleet, one property a test, each on its own schema of
 * one private PostgreSQL: a stopping worker releases the leases of the
 * runs it gives up (another process continues them at once, with no
 * expiry to wait for); a run taken over after its process died never
 * runs a finished step again, even when the process it takes over from
 * was itself recovering the run on another host; and workers racing for
 * runs never take the same one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GoapGraph } from "../../src/graph/index.js";
import { type FleetPool, FleetWorker, openFleetPool, RunQueue } from "../../src/node/index.js";
import type { FleetChildArgs } from "../support/fleet-child.js";
import { buildFleetChild, type FleetChild, startFleetChild } from "../support/fleet-children.js";
import { LEDGER_GOAL, ledgerActions, ledgerCounts, setupLedger } from "../support/fleet-ledger.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { requirePostgres } from "../support/requirements.js";

const postgres = requirePostgres("fleet leases");
const quiet = { warn: () => {} };

describe.runIf(postgres.available)("fleet leases on PostgreSQL", () => {
  let server: PostgresServer | undefined;
  let removeChild: () => void = () => {};
  const pools: FleetPool[] = [];
  const schemas: string[] = [];

  beforeAll(async () => {
    removeChild = await buildFleetChild();
    server = await usePostgres();
    // A bound, not a measure: bundling the child and an initdb take minutes on a machine shared by many test runs.
  }, 300_000);

  afterAll(async () => {
    removeChild();
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    if (server) {
      for (const schema of schemas) await dropSchema(server.url, schema);
      await server.stop();
    }
  }, 120_000);

  async function fresh(tag: string): Promise<{ schema: string; pool: FleetPool; queue: RunQueue }> {
    const schema = uniqueSchema(`langgoap_lease_${tag}`);
    schemas.push(schema);
    const pool = openFleetPool((server as PostgresServer).url, { maxConnections: 4 });
    pools.push(pool);
    const queue = new RunQueue(pool, { schema });
    await queue.setup();
    await setupLedger(pool, schema);
    return { schema, pool, queue };
  }

  async function until(what: string, check: () => Promise<boolean>, ms = 480_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function executions(pool: FleetPool, schema: string, runId: string): Promise<string[]> {
    const { rows } = await pool.query<{ action: string; step_attempt: number; idempotency_key: string }>(
      `SELECT action, step_attempt, idempotency_key FROM "${schema}".executions WHERE run_id = $1 ORDER BY id`,
      [runId],
    );
    return rows.map((r) => `${r.action}#${r.step_attempt}`);
  }

  async function leaseRows(pool: FleetPool, schema: string) {
    const { rows } = await pool.query<{ run_id: string; state: string; lease_owner: string | null }>(
      `SELECT run_id, state, lease_owner FROM "${schema}".langgoap_fleet_runs ORDER BY seq`,
    );
    return rows;
  }

  it("stop() releases the leases of the runs it aborts: another worker continues them at once, not after the lease", async () => {
    const { schema, pool, queue } = await fresh("stop");
    const runIds = ["o-1", "o-2", "o-3"];
    for (const runId of runIds) await queue.enqueue({ runId, goal: LEDGER_GOAL, worldState: { order: runId } });
    // Packing never ends on its own here, and the lease would last ten minutes: only a release lets another worker in.
    const stuck = new FleetWorker({
      graph: new GoapGraph(ledgerActions(pool, schema, "stuck", { delayMs: (a) => (a === "pack" ? 600_000 : 0) }), { logger: quiet }),
      pool,
      schema,
      name: "stuck",
      concurrency: 3,
      leaseMs: 600_000,
      heartbeatMs: 1_000,
      pollMs: 50,
      logger: quiet,
    });
    await stuck.start();
    await until("three runs packing", async () => (await packing()) === 3);
    async function packing(): Promise<number> {
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".executions WHERE action = 'pack'`);
      return Number(rows[0]?.n);
    }
    const stats = await stuck.stop({ drainTimeoutMs: 100 });
    expect(await leaseRows(pool, schema)).toEqual(runIds.map((run_id) => ({ run_id, state: "queued", lease_owner: null })));
    expect(stats).toMatchObject({ claimed: 3, released: 3, finished: 0, leasesLost: 0 });

    const next = new FleetWorker({
      graph: new GoapGraph(ledgerActions(pool, schema, "next", { delayMs: 0 }), { logger: quiet }),
      pool,
      schema,
      name: "next",
      leaseMs: 600_000,
      heartbeatMs: 1_000,
      pollMs: 50,
      logger: quiet,
    });
    await next.start();
    const ended = await Promise.all(runIds.map((runId) => queue.waitFor(runId, { signal: AbortSignal.timeout(480_000), pollMs: 50 })));
    const nextStats = await next.stop();
    expect(ended.map((r) => [r.state, r.runStatus, r.attempts, r.takeovers])).toEqual(runIds.map(() => ["done", "goal_achieved", 2, 0]));
    expect(nextStats).toMatchObject({ claimed: 3, takenOver: 0, finished: 3 });
    expect(await leaseRows(pool, schema)).toEqual(runIds.map((run_id) => ({ run_id, state: "done", lease_owner: null })));
    expect(await ledgerCounts(pool, schema, runIds)).toMatchObject({ once: 12, duplicated: 0, missing: 0 });
  }, 600_000);

  it("a run taken over from dead processes never runs a finished step again, even from a recovery on another host", async () => {
    const { schema, pool, queue } = await fresh("takeover");
    const runId = "o-killed";
    await queue.enqueue({ runId, goal: LEDGER_GOAL, worldState: { order: runId } });
    const child = (name: string, host: string, action: string): FleetChildArgs => ({
      url: (server as PostgresServer).url,
      schema,
      name,
      host,
      concurrency: 1,
      maxConnections: 3,
      // Long leases: a live process that is slow to renew on a busy machine never loses its run here. A killed one's lease is
      // expired below, by the database's clock, in one statement (nothing renews it any more, and no renewal could revive it).
      leaseMs: 600_000,
      heartbeatMs: 500,
      pollMs: 50,
      delayMs: 0,
      killAt: { action, runId },
    });
    // Host A starts the run and dies packing; host B takes it over (a recovery) and dies shipping.
    for (const [name, host, action] of [
      ["host-a", "fleet-host-a", "pack"],
      ["host-b", "fleet-host-b", "ship"],
    ] as const) {
      const c: FleetChild = startFleetChild(child(name, host, action));
      await c.printed("KILLPOINT");
      c.process.kill("SIGKILL");
      await c.exited;
      await pool.query(`UPDATE "${schema}".langgoap_fleet_runs SET lease_expires_at = now() - interval '1 day' WHERE run_id = $1`, [runId]);
    }
    // Here, on a third host: host B's recovery never wrote its end and its process cannot be seen from here; its lease's expiry says it
    // stopped.
    const worker = new FleetWorker({
      graph: new GoapGraph(ledgerActions(pool, schema, "here", { delayMs: 0 }), { logger: quiet }),
      pool,
      schema,
      name: "here",
      leaseMs: 600_000,
      heartbeatMs: 500,
      pollMs: 50,
      maxAttempts: 5,
      logger: quiet,
    });
    await worker.start();
    const run = await queue.waitFor(runId, { signal: AbortSignal.timeout(480_000), pollMs: 50 });
    const stats = await worker.stop();
    expect([run.state, run.runStatus, run.attempts, run.takeovers]).toEqual(["done", "goal_achieved", 3, 2]);
    expect(stats).toMatchObject({ claimed: 1, takenOver: 1, finished: 1, released: 0, failed: 0 });
    // Each step killed while running ran once more, told so (stepAttempt 2); no finished step ran again.
    expect(await executions(pool, schema, runId)).toEqual(["reserve#1", "charge#1", "pack#1", "pack#2", "ship#1", "ship#2"]);
    expect(await ledgerCounts(pool, schema, [runId])).toEqual({
      once: 4,
      duplicated: 0,
      missing: 0,
      executions: 6,
      reExecutions: 2,
      reExecutionsWrong: 0,
    });
  }, 600_000);

  it("a live worker whose lease expired stops the run at its next heartbeat, whenever the taker claims it, and runs nothing more of it", async () => {
    const { schema, pool, queue } = await fresh("fence");
    const runId = "o-fenced";
    await queue.enqueue({ runId, goal: LEDGER_GOAL, worldState: { order: runId } });
    const aborted: string[] = [];
    const stopping: string[] = [];
    const slow = new FleetWorker({
      graph: new GoapGraph(
        ledgerActions(pool, schema, "slow", {
          delayMs: (a) => (a === "pack" ? 600_000 : 0),
          onExecute: (action, _run, ctx) => ctx.signal?.addEventListener("abort", () => aborted.push(action), { once: true }),
        }),
        { logger: quiet },
      ),
      pool,
      schema,
      name: "slow",
      concurrency: 1,
      leaseMs: 600_000,
      heartbeatMs: 500,
      pollMs: 50,
      logger: { debug: (message, details) => details?.event === "stopping" && stopping.push(message) },
    });
    await slow.start();
    await until("the slow worker packing", async () => (await executions(pool, schema, runId)).includes("pack#1"));
    // The slow worker stops claiming (it would otherwise take the expired run back itself) but goes on executing and renewing. With
    // its one slot taken it has no claim in flight that could land after the expiry.
    const slowStopped = slow.stop({ drainTimeoutMs: 600_000 });
    // As if the slow worker's renewals had been late past its lease: the lease expires by the database's clock, in one statement.
    // No renewal can undo it (an expired lease is never renewed), so the slow worker's next heartbeat learns it lost the run,
    // whether or not the taker has claimed it yet; a day back is past any takeover grace.
    await pool.query(`UPDATE "${schema}".langgoap_fleet_runs SET lease_expires_at = now() - interval '1 day' WHERE run_id = $1`, [runId]);
    const taker = new FleetWorker({
      graph: new GoapGraph(ledgerActions(pool, schema, "taker", { delayMs: 0 }), { logger: quiet }),
      pool,
      schema,
      name: "taker",
      leaseMs: 600_000,
      heartbeatMs: 500,
      pollMs: 50,
      logger: quiet,
    });
    await taker.start();
    const run = await queue.waitFor(runId, { signal: AbortSignal.timeout(480_000), pollMs: 50 });
    const [slowStats, takerStats] = [await slowStopped, await taker.stop()];
    expect([run.state, run.runStatus, run.attempts, run.takeovers]).toEqual(["done", "goal_achieved", 2, 1]);
    expect(aborted).toEqual(["pack"]);
    // Stopped by the database's answer to its heartbeat, not by its own fence (600 s away) nor by the stop() that only ended claiming.
    expect(stopping).toEqual([
      "fleet worker slow: stopping run o-fenced: the database no longer holds its lease (it expired, or another process took the run over)",
    ]);
    expect(slowStats).toMatchObject({ claimed: 1, finished: 0, released: 0, leasesLost: 1 });
    expect(takerStats).toMatchObject({ claimed: 1, takenOver: 1, finished: 1 });
    const { rows } = await pool.query<{ worker: string; action: string; step_attempt: number }>(
      `SELECT worker, action, step_attempt FROM "${schema}".executions WHERE run_id = $1 ORDER BY id`,
      [runId],
    );
    expect(rows.map((r) => `${r.worker}:${r.action}#${r.step_attempt}`)).toEqual([
      "slow:reserve#1",
      "slow:charge#1",
      "slow:pack#1",
      "taker:pack#2",
      "taker:ship#1",
    ]);
    expect(await ledgerCounts(pool, schema, [runId])).toMatchObject({ once: 4, duplicated: 0, missing: 0 });
  }, 600_000);

  it("an expired lease is never renewed, and is taken over only the takeover grace after its expiry (database clock)", async () => {
    const { schema, pool, queue } = await fresh("grace");
    await queue.enqueue({ runId: "g-1", goal: LEDGER_GOAL, worldState: { order: "g-1" } });
    const [held] = await queue.claim(1, "holder", 60_000);
    expect(held).toMatchObject({ runId: "g-1", attempts: 1, takenOver: false });
    const expire = (ago: string) =>
      pool.query(`UPDATE "${schema}".langgoap_fleet_runs SET lease_expires_at = now() - $1::interval WHERE run_id = 'g-1'`, [ago]);
    // Expired 30 s ago, with a grace of 60 s: the holder may still be stopping it; nobody takes it, and the holder cannot renew it.
    await expire("30 seconds");
    expect(await queue.claim(1, "taker", 60_000, 60_000)).toEqual([]);
    expect([...(await queue.renew([held as never], "holder", 60_000))]).toEqual([]);
    // Past expiry and grace: taken over, and the holder's end no longer lands.
    await expire("61 seconds");
    const [taken] = await queue.claim(1, "taker", 60_000, 60_000);
    expect(taken).toMatchObject({ runId: "g-1", attempts: 2, takenOver: true });
    expect(await queue.finish(held as never, "holder", "goal_achieved")).toBe(false);
    expect(await queue.endedAs(held as never)).toBe(null);
    expect(await queue.finish(taken as never, "taker", "goal_achieved")).toBe(true);
    expect(await queue.endedAs(taken as never)).toBe("done");
  }, 120_000);

  it("claims made at the same instant from many connections never return one run twice", async () => {
    const { queue } = await fresh("claims");
    const runIds = Array.from({ length: 60 }, (_, i) => `c-${i}`);
    await Promise.all(runIds.map((runId) => queue.enqueue({ runId, goal: LEDGER_GOAL, worldState: { order: runId } })));
    const claimers = Array.from({ length: 6 }, (_, i) => {
      const own = openFleetPool((server as PostgresServer).url, { maxConnections: 5 });
      pools.push(own);
      return { name: `claimer-${i}`, queue: new RunQueue(own, { schema: queue.schema }) };
    });
    // 30 claims of up to 4 runs each, 5 at a time on each of 6 pools: together they ask for twice the runs there are.
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const claimer = claimers[i % claimers.length] as (typeof claimers)[number];
        return claimer.queue.claim(4, claimer.name, 60_000);
      }),
    );
    const taken = claims.flat().map((run) => run.runId);
    expect(taken.length).toBe(60);
    expect(new Set(taken).size).toBe(60);
    expect((await queue.counts()).running).toBe(60);
  }, 600_000);

  it("workers racing for runs never take the same run", async () => {
    const { schema, pool, queue } = await fresh("race");
    const runIds = Array.from({ length: 60 }, (_, i) => `o-${i}`);
    for (const runId of runIds) await queue.enqueue({ runId, goal: LEDGER_GOAL, worldState: { order: runId } });
    const workers = ["w0", "w1", "w2"].map((name) => {
      // Each worker on its own pool, as in its own process: the claims race in the database.
      const own = openFleetPool((server as PostgresServer).url, { maxConnections: 3 });
      pools.push(own);
      return new FleetWorker({
        graph: new GoapGraph(ledgerActions(own, schema, name, { delayMs: 0 }), { logger: quiet }),
        pool: own,
        schema,
        name,
        concurrency: 4,
        leaseMs: 60_000,
        heartbeatMs: 1_000,
        pollMs: 5,
        logger: quiet,
      });
    });
    await Promise.all(workers.map((w) => w.start()));
    const ended = await Promise.all(runIds.map((runId) => queue.waitFor(runId, { signal: AbortSignal.timeout(480_000), pollMs: 100 })));
    const stats = await Promise.all(workers.map((w) => w.stop()));
    expect(ended.filter((r) => r.state === "done" && r.runStatus === "goal_achieved" && r.attempts === 1).length).toBe(60);
    expect(stats.reduce((n, s) => n + s.claimed, 0)).toBe(60);
    const { rows } = await pool.query<{ run_id: string; workers: number; n: number }>(
      `SELECT run_id, count(DISTINCT worker)::int AS workers, count(*)::int AS n FROM "${schema}".executions GROUP BY run_id`,
    );
    expect(rows.filter((r) => Number(r.workers) !== 1 || Number(r.n) !== 4)).toEqual([]);
    expect(await ledgerCounts(pool, schema, runIds)).toMatchObject({ once: 240, duplicated: 0, missing: 0, reExecutions: 0 });
  }, 600_000);
});
