/**
 * The load-and-fault scenario of the fleet (test/node/fleet-load.test.ts
 * and `npx tsx bench/run.ts fleet`): PROCESSES fleet processes on one
 * PostgreSQL run RUNS runs of the ledger domain; once a third of them
 * are done, one process is killed (SIGKILL) and started again. It waits
 * (bounded) until every run is final and reports counts, throughput,
 * latencies, the time to take over the dead process's runs and the peak
 * PostgreSQL connections of each process.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { type FleetPool, openFleetPool, RunQueue } from "../../src/node/index.js";
import type { FleetChildArgs } from "./fleet-child.js";
import { type FleetChild, startFleetChild } from "./fleet-children.js";
import { LEDGER_GOAL, type LedgerCounts, ledgerCounts, setupLedger } from "./fleet-ledger.js";
import { dropSchema, uniqueSchema } from "./postgres.js";

export interface FleetScenarioOptions {
  readonly url: string;
  readonly runs: number;
  readonly processes: number;
  readonly concurrency: number;
  readonly maxConnections: number;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  readonly pollMs: number;
  /** Milliseconds each action takes. */
  readonly delayMs: number;
  /** Give up waiting for final runs after this long (the scenario then reports what it has). */
  readonly deadlineMs: number;
  readonly log?: (line: string) => void;
}

export interface FleetFigures {
  readonly runs: number;
  readonly final: number;
  readonly goalAchieved: number;
  readonly errors: number;
  readonly lost: number;
  readonly ledger: LedgerCounts;
  /** Runs the killed process held when it was killed. */
  readonly killedHeld: number;
  /** Of those, runs another claim took over (after the lease expired). */
  readonly takenOver: number;
  /** Kill → the last of the dead process's runs claimed again, ms (database clock). */
  readonly takeoverMs: number | null;
  /** Claims in all (runs + takeovers + retries). */
  readonly claims: number;
  readonly runsPerSecond: number;
  /** First claim to final status, ms. */
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** Enqueue → final status, ms (includes waiting in the queue behind the others). */
  readonly endToEndP50Ms: number;
  readonly endToEndP99Ms: number;
  /** The most connections one fleet process held at any sample, and all of them together. */
  readonly peakConnectionsPerProcess: number;
  readonly peakConnectionsTotal: number;
  /** Connections a process may hold (its pool's max). */
  readonly maxConnections: number;
  /** Leases still held after the graceful stop of every process. */
  readonly leasesHeldAfterStop: number;
  /** Exit of the gracefully stopped processes: stats lines, or what went wrong. */
  readonly stops: readonly string[];
  readonly seconds: number;
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function fleetScenario(options: FleetScenarioOptions): Promise<FleetFigures> {
  const log = options.log ?? (() => {});
  const schema = uniqueSchema("langgoap_fleet_load");
  const pool: FleetPool = openFleetPool(options.url, { maxConnections: 3, applicationName: "langgoap-fleet-observer" });
  const began = performance.now();
  const children: FleetChild[] = [];
  try {
    const queue = new RunQueue(pool, { schema });
    await queue.setup();
    await setupLedger(pool, schema);
    const saver = new PostgresSaver(pool as never, undefined, { schema });
    await saver.setup();
    const runIds = Array.from({ length: options.runs }, (_, i) => `order-${String(i).padStart(4, "0")}`);
    for (let i = 0; i < runIds.length; i += 50) {
      await Promise.all(runIds.slice(i, i + 50).map((runId) => queue.enqueue({ runId, goal: LEDGER_GOAL, worldState: { order: runId } })));
    }
    const childArgs = (name: string): FleetChildArgs => ({
      url: options.url,
      schema,
      name,
      concurrency: options.concurrency,
      maxConnections: options.maxConnections,
      leaseMs: options.leaseMs,
      heartbeatMs: options.heartbeatMs,
      pollMs: options.pollMs,
      delayMs: options.delayMs,
    });
    const names = Array.from({ length: options.processes }, (_, i) => `langgoap-fleet-p${i}`);
    for (const name of names) children.push(startFleetChild(childArgs(name)));
    await Promise.all(children.map((c) => c.printed("STARTED")));
    log(`fleet: ${options.processes} processes started, ${options.runs} runs queued`);

    const peaks = new Map<string, number>();
    let peakTotal = 0;
    let killedHeld: string[] = [];
    let killAt: number | null = null;
    const deadline = performance.now() + options.deadlineMs;
    for (;;) {
      const { rows } = await pool.query<{ application_name: string; n: number }>(
        "SELECT application_name, count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'langgoap-fleet-p%' GROUP BY 1",
      );
      let total = 0;
      for (const row of rows) {
        peaks.set(row.application_name, Math.max(peaks.get(row.application_name) ?? 0, Number(row.n)));
        total += Number(row.n);
      }
      peakTotal = Math.max(peakTotal, total);
      const counts = await queue.counts();
      const final = counts.done + counts.error;
      if (final >= options.runs) break;
      if (killAt === null && counts.done >= Math.floor(options.runs / 3)) {
        // Kill the second process mid-way, read the runs it held, and start it again.
        const victim = children[1] as FleetChild;
        victim.process.kill("SIGKILL");
        await victim.exited;
        // Its backends finish the statement they were running (a finish, a claim) before they notice the client is gone: the runs
        // it held are read once none of them is left, or a finish landing after the read would make a held run look never taken over.
        for (let left = Number.POSITIVE_INFINITY; left > 0; ) {
          const { rows: backends } = await pool.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
            [victim.name],
          );
          left = Number(backends[0]?.n);
          if (left > 0) await sleep(50);
        }
        const { rows: at } = await pool.query<{ t: number }>("SELECT extract(epoch FROM clock_timestamp()) * 1000 AS t");
        killAt = Number(at[0]?.t);
        const owner = (await victim.printed("OWNER ")).slice("OWNER ".length);
        const { rows: held } = await pool.query<{ run_id: string }>(
          `SELECT run_id FROM "${schema}".langgoap_fleet_runs WHERE lease_owner = $1 AND state = 'running'`,
          [owner],
        );
        killedHeld = held.map((r) => r.run_id);
        log(`fleet: killed ${victim.name} at ${counts.done} done, holding ${killedHeld.length} runs; restarting it`);
        const restarted = startFleetChild(childArgs(`${victim.name}r`));
        children[1] = restarted;
        await restarted.printed("STARTED");
      }
      if (performance.now() > deadline) {
        log(`fleet: deadline passed with ${JSON.stringify(counts)}`);
        break;
      }
      await sleep(200);
    }
    const stops = await Promise.all(
      children.map(async (c) => {
        c.process.kill("SIGTERM");
        const { code, signal, last, stderr } = await c.exited;
        return code === 0 ? last : `${c.name} exited ${signal ?? code}: ${stderr.slice(0, 300)}`;
      }),
    );
    children.length = 0;

    const { rows } = await pool.query<{
      run_id: string;
      state: string;
      run_status: string | null;
      attempts: number;
      takeovers: number;
      lease_owner: string | null;
      enq: number;
      started: number | null;
      claimed: number | null;
      finished: number | null;
    }>(`SELECT run_id, state, run_status, attempts, takeovers, lease_owner,
          extract(epoch FROM enqueued_at) * 1000 AS enq, extract(epoch FROM started_at) * 1000 AS started,
          extract(epoch FROM claimed_at) * 1000 AS claimed, extract(epoch FROM finished_at) * 1000 AS finished
        FROM "${schema}".langgoap_fleet_runs`);
    const done = rows.filter((r) => r.state === "done");
    const finals = rows.filter((r) => r.state === "done" || r.state === "error");
    const latencies = done.map((r) => Number(r.finished) - Number(r.started));
    const endToEnd = done.map((r) => Number(r.finished) - Number(r.enq));
    const firstStart = Math.min(...done.map((r) => Number(r.started)));
    const lastFinish = Math.max(...done.map((r) => Number(r.finished)));
    const killedRows = rows.filter((r) => killedHeld.includes(r.run_id));
    const takenOver = killedRows.filter((r) => Number(r.takeovers) > 0);
    const takeoverMs = killAt !== null && takenOver.length > 0 ? Math.max(...takenOver.map((r) => Number(r.claimed))) - killAt : null;
    const perProcess = [...peaks.values()];
    return {
      runs: options.runs,
      final: finals.length,
      goalAchieved: done.filter((r) => r.run_status === "goal_achieved").length,
      errors: rows.filter((r) => r.state === "error").length,
      lost: options.runs - finals.length,
      ledger: await ledgerCounts(pool, schema, runIds),
      killedHeld: killedHeld.length,
      takenOver: takenOver.length,
      takeoverMs: takeoverMs === null ? null : Math.round(takeoverMs),
      claims: rows.reduce((n, r) => n + Number(r.attempts), 0),
      runsPerSecond: Math.round((done.length / ((lastFinish - firstStart) / 1000)) * 10) / 10,
      latencyP50Ms: Math.round(percentile(latencies, 50)),
      latencyP99Ms: Math.round(percentile(latencies, 99)),
      endToEndP50Ms: Math.round(percentile(endToEnd, 50)),
      endToEndP99Ms: Math.round(percentile(endToEnd, 99)),
      peakConnectionsPerProcess: Math.max(0, ...perProcess),
      peakConnectionsTotal: peakTotal,
      maxConnections: options.maxConnections,
      leasesHeldAfterStop: rows.filter((r) => r.lease_owner !== null).length,
      stops,
      seconds: Math.round((performance.now() - began) / 100) / 10,
    };
  } finally {
    for (const c of children) c.process.kill("SIGKILL");
    await pool.end().catch(() => undefined);
    await dropSchema(options.url, schema).catch(() => undefined);
  }
}

/** The scenario's settings from the environment (LANGGOAP_FLEET_*), with the CI defaults. */
export function fleetSettingsFromEnv(url: string, log?: (line: string) => void): FleetScenarioOptions {
  const num = (name: string, fallback: number) => {
    const value = Number(process.env[name] ?? fallback);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    url,
    runs: num("LANGGOAP_FLEET_RUNS", 300),
    processes: num("LANGGOAP_FLEET_PROCESSES", 3),
    concurrency: num("LANGGOAP_FLEET_CONCURRENCY", 8),
    maxConnections: num("LANGGOAP_FLEET_CONNECTIONS", 4),
    leaseMs: num("LANGGOAP_FLEET_LEASE_MS", 6_000),
    heartbeatMs: num("LANGGOAP_FLEET_HEARTBEAT_MS", 1_000),
    pollMs: 100,
    delayMs: num("LANGGOAP_FLEET_ACTION_MS", 20),
    deadlineMs: num("LANGGOAP_FLEET_DEADLINE_MS", 420_000),
    ...(log ? { log } : {}),
  };
}
