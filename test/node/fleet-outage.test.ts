/**
 * The fleet survives its database. Each test runs 3 fleet processes on a
 * private PostgreSQL of its own (never the shared PG_URL one: these stop
 * it), over the ledger domain, whose actions write to a ledger keyed by
 * idempotency key:
 * - the server is stopped as a crash would (`pg_ctl stop -m immediate`)
 *   and started again 5 s later, twice, while the processes run 300 runs;
 * - one process's network is cut (a proxy in this process stops
 *   forwarding its connections, silently) for longer than its lease,
 *   while the processes run 120 runs.
 * Every run must end once with every action once in the ledger; no
 * process may die; each process that lost the database logs one line per
 * outage, reconnects and logs one line when it did; and a run is taken
 * over only after the process that held it stopped executing it (the
 * events all the processes append to one file, in the order they
 * happened) and after its lease's expiry plus the grace (the database's
 * log of takeovers). The tests wait on events (the ledger's count, a
 * process's outage and reconnection lines, the server's pid file); only
 * the 5 s before a restart is a timer, and no assertion depends on how
 * long anything took.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FleetPool, openFleetPool, RunQueue } from "../../src/node/index.js";
import type { FleetChildArgs } from "../support/fleet-child.js";
import { buildFleetChild, type FleetChild, startFleetChild } from "../support/fleet-children.js";
import { prepareFleetSchema, readFleetEvents, takeoversBeforeStop, takeoversOf } from "../support/fleet-faults.js";
import { ledgerCounts } from "../support/fleet-ledger.js";
import { dropSchema, type PrivatePostgresServer, uniqueSchema, usePrivatePostgres } from "../support/postgres.js";
import { requirePostgresServer } from "../support/requirements.js";
import { TcpProxy } from "../support/tcp-proxy.js";

const postgres = requirePostgresServer("fleet database outages");
// A lease long enough that a live process starved of CPU on a busy machine still renews in time (a process whose renewals fail for
// leaseMs − heartbeatMs stops its runs and logs an outage: that would be an outage these tests did not cause).
const TIMING = { leaseMs: 15_000, heartbeatMs: 1_000, takeoverGraceMs: 1_000, reconnectDelayMs: 100, maxReconnectDelayMs: 1_000 };

describe.runIf(postgres.available)("the fleet survives its database", () => {
  let server: PrivatePostgresServer | undefined;
  let removeChild: () => void = () => {};
  let pool: FleetPool | undefined;
  const children: FleetChild[] = [];
  const schemas: string[] = [];
  const tmp = join(process.cwd(), ".tmp", `fleet-outage-${process.pid}`);

  beforeAll(async () => {
    removeChild = await buildFleetChild();
    // Durable commits: the server is crashed on purpose, and a finish the worker was told was written must survive it
    // (with synchronous_commit=off one was lost at load 5: the run stayed running, was taken over and finished twice,
    // 301 finishes for 300 runs).
    server = await usePrivatePostgres({ durableCommits: true });
    pool = openFleetPool(server.url, { maxConnections: 3, applicationName: "langgoap-fleet-observer" });
    mkdirSync(tmp, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    for (const c of children) c.process.kill("SIGKILL");
    removeChild();
    await pool?.end().catch(() => undefined);
    if (server) {
      for (const schema of schemas) await dropSchema(server.url, schema).catch(() => undefined);
      await server.stop();
    }
    rmSync(tmp, { recursive: true, force: true });
  }, 120_000);

  /** Polls `check` (a read of the database) until it holds; a read that fails while the server is away counts as not yet. */
  async function until(what: string, check: () => Promise<boolean>, ms = 400_000): Promise<void> {
    const deadline = performance.now() + ms;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function count(sql: string, values: unknown[] = []): Promise<number> {
    const { rows } = await (pool as FleetPool).query<{ n: number }>(sql, values);
    return Number(rows[0]?.n);
  }

  /** Starts the fleet's processes; `died` collects those that exit before `stopAll`. */
  function startFleet(args: readonly FleetChildArgs[]): { died: string[]; stopAll: () => Promise<string[]> } {
    const died: string[] = [];
    let stopping = false;
    const started = args.map((a) => startFleetChild(a));
    children.push(...started);
    for (const c of started) void c.exited.then(({ code, signal }) => !stopping && died.push(`${c.name} (${signal ?? code})`));
    return {
      died,
      stopAll: async () => {
        stopping = true;
        for (const c of started) c.process.kill("SIGTERM");
        const exits = await Promise.all(started.map((c) => c.exited));
        children.splice(0, children.length, ...children.filter((c) => !started.includes(c)));
        return exits.map((e, i) => (e.code === 0 ? e.last : `${started[i]?.name} exited ${e.signal ?? e.code}: ${e.stderr.slice(0, 400)}`));
      },
    };
  }

  function childArgs(schema: string, url: string, name: string, eventsFile?: string): FleetChildArgs {
    return {
      url,
      schema,
      name,
      concurrency: 8,
      maxConnections: 4,
      pollMs: 100,
      delayMs: 20,
      ...TIMING,
      ...(eventsFile ? { eventsFile } : {}),
    };
  }

  it("3 processes run 300 runs while the server is stopped (immediate) and started 5 s later, twice: every run ends once, nobody dies", async () => {
    const began = performance.now();
    const srv = server as PrivatePostgresServer;
    const schema = uniqueSchema("langgoap_fleet_outage");
    schemas.push(schema);
    const runIds = await prepareFleetSchema(pool as FleetPool, schema, 300);
    const names = ["outage-p0", "outage-p1", "outage-p2"];
    const fleet = startFleet(names.map((name) => childArgs(schema, srv.url, name)));
    const started = children.slice(-3);
    await Promise.all(started.map((c) => c.printed("STARTED")));
    const ledger = () => count(`SELECT count(*)::int AS n FROM "${schema}".ledger`);

    for (const outage of [1, 2]) {
      // A third of the ledger more each time; before the second outage, every run the first one stopped has ended (a step
      // stopped twice is not started a third time: that guard is for steps that kill their processes).
      await until(`${outage * 400} ledger entries`, async () => {
        if ((await ledger()) < outage * 400) return false;
        return (
          outage === 1 ||
          (await count(
            `SELECT count(*)::int AS n FROM "${schema}".langgoap_fleet_runs WHERE (attempts > 1 AND state <> 'done') OR (state = 'queued' AND attempts > 0)`,
          )) === 0
        );
      });
      await srv.kill();
      expect(existsSync(srv.pidFile)).toBe(false);
      // Down for 5 s at least, and until every process has noticed.
      await Promise.all([new Promise((resolve) => setTimeout(resolve, 5_000)), ...started.map((c) => c.printedTimes("OUTAGE", outage))]);
      await srv.restart();
      expect(existsSync(srv.pidFile)).toBe(true);
      await Promise.all(started.map((c) => c.printedTimes("RECONNECTED", outage)));
    }
    const queue = new RunQueue(pool as FleetPool, { schema });
    await until("every run final", async () => {
      const c = await queue.counts();
      return c.done + c.error === runIds.length;
    });
    const stops = await fleet.stopAll();

    const { rows } = await (pool as FleetPool).query<{ state: string; run_status: string; n: number }>(
      `SELECT state, run_status, count(*)::int AS n FROM "${schema}".langgoap_fleet_runs GROUP BY 1, 2`,
    );
    const counts = await ledgerCounts(pool as FleetPool, schema, runIds);
    const stats = stops.map((s) => (s.startsWith("{") ? (JSON.parse(s) as Record<string, number>) : s));
    const outages = started.map((c) => c.lines("OUTAGE").length);
    const reconnections = started.map((c) => c.lines("RECONNECTED").map((l) => JSON.parse(l.slice("RECONNECTED ".length))));
    const takeovers = await takeoversOf(pool as FleetPool, schema, TIMING.takeoverGraceMs);
    console.log(
      `fleet outages (load ${loadavg()[0]?.toFixed(1)}): ${JSON.stringify({
        seconds: Math.round((performance.now() - began) / 1000),
        runs: rows,
        ledger: counts,
        outagesLogged: outages,
        reconnections: reconnections.map((r) =>
          r.map((x) => ({ ms: x.ms, attempts: x.attempts, failed: x.failedStatements, released: x.released })),
        ),
        takeovers: takeovers.all,
        stats,
      })}`,
    );
    expect(rows).toEqual([{ state: "done", run_status: "goal_achieved", n: 300 }]);
    expect(counts).toMatchObject({ once: 1_200, duplicated: 0, missing: 0, reExecutionsWrong: 0 });
    expect(fleet.died).toEqual([]);
    expect(stats.filter((s) => typeof s === "string")).toEqual([]);
    // One outage line and one reconnection line per process per outage, however many statements failed in it.
    expect(outages).toEqual([2, 2, 2]);
    expect(reconnections.map((r) => r.length)).toEqual([2, 2, 2]);
    expect(stats.map((s) => (s as Record<string, number>).outages)).toEqual([2, 2, 2]);
    // Each run finished by exactly one claim, and no takeover before the old lease's expiry plus the grace.
    expect(stats.reduce((n, s) => n + (s as Record<string, number>).finished, 0)).toBe(300);
    expect(takeovers.early).toEqual([]);
  }, 600_000);

  it("one process cut off (silently) for longer than its lease stops its runs before the others take them over", async () => {
    const began = performance.now();
    const srv = server as PrivatePostgresServer;
    const schema = uniqueSchema("langgoap_fleet_cut");
    schemas.push(schema);
    const runIds = await prepareFleetSchema(pool as FleetPool, schema, 120);
    const eventsFile = join(tmp, `${schema}.events`);
    const proxy = await TcpProxy.start(srv.socket === undefined ? { port: Number(new URL(srv.url).port) } : { path: srv.socket });
    try {
      const names = ["cut-p0", "cut-p1", "cut-p2"];
      // The process to cut off holds every action it executes at a gate until after the cut: at the cut it surely
      // executes leased runs, whose renewals then fail. Without the gate, its runs could all have finished executing
      // (leases no longer renewed) with their last writes committed while the cut held the replies: it would learn of
      // the outage from a statement's timeout, not from its own clock.
      const fleet = startFleet(
        names.map((name, i) =>
          i === 0
            ? { ...childArgs(schema, proxy.urlThrough(srv.url), name, eventsFile), gated: true }
            : childArgs(schema, srv.url, name, eventsFile),
        ),
      );
      const [cut, ...others] = children.slice(-3) as [FleetChild, FleetChild, FleetChild];
      await Promise.all([cut, ...others].map((c) => c.printed("STARTED")));
      const leasesOfCut = () =>
        count(`SELECT count(*)::int AS n FROM "${schema}".langgoap_fleet_runs WHERE lease_owner = $1 AND state = 'running'`, [names[0]]);
      await until("120 ledger entries, with runs on the process to cut off", async () => {
        return (await count(`SELECT count(*)::int AS n FROM "${schema}".ledger`)) >= 120 && (await leasesOfCut()) > 0;
      });
      await cut.printed("GATED");
      proxy.cut();
      // It hears nothing: no error, every statement hangs. Its own clock tells it its leases may be lost.
      const outage = JSON.parse((await cut.printedTimes("OUTAGE", 1)).slice("OUTAGE ".length)) as { cause: string; runs: number };
      // The others take its runs over once the leases expired plus the grace; then its network comes back.
      await until("the cut-off process's runs taken over", async () => (await leasesOfCut()) === 0);
      cut.process.kill("SIGUSR2");
      proxy.restore();
      await cut.printedTimes("RECONNECTED", 1);
      const queue = new RunQueue(pool as FleetPool, { schema });
      await until("every run final", async () => {
        const c = await queue.counts();
        return c.done + c.error === runIds.length;
      });
      const stops = await fleet.stopAll();

      const { rows } = await (pool as FleetPool).query<{ state: string; run_status: string; n: number }>(
        `SELECT state, run_status, count(*)::int AS n FROM "${schema}".langgoap_fleet_runs GROUP BY 1, 2`,
      );
      const counts = await ledgerCounts(pool as FleetPool, schema, runIds);
      const stats = stops.map((s) => (s.startsWith("{") ? (JSON.parse(s) as Record<string, number>) : s));
      const takeovers = await takeoversOf(pool as FleetPool, schema, TIMING.takeoverGraceMs);
      const events = readFleetEvents(eventsFile);
      const order = takeoversBeforeStop(events, takeovers.rows);
      const stoppedByCut = events.filter((e) => e.worker === names[0] && e.event === "stopping").length;
      console.log(
        `fleet network cut (load ${loadavg()[0]?.toFixed(1)}): ${JSON.stringify({
          seconds: Math.round((performance.now() - began) / 1000),
          runs: rows,
          ledger: counts,
          outages: [cut, ...others].map((c) => c.lines("OUTAGE").map((l) => JSON.parse(l.slice("OUTAGE ".length)).cause)),
          stoppedByCut,
          takeovers: { all: takeovers.all, from: Object.fromEntries(takeovers.from) },
          takeoversChecked: order.checked,
          takeoversUnheard: order.unheard,
          stats,
        })}`,
      );
      expect(rows).toEqual([{ state: "done", run_status: "goal_achieved", n: 120 }]);
      expect(counts).toMatchObject({ once: 480, duplicated: 0, missing: 0, reExecutionsWrong: 0 });
      expect(fleet.died).toEqual([]);
      expect(stats.filter((s) => typeof s === "string")).toEqual([]);
      // The cut-off process learned it from its own clock (no statement failed), and logged the outage once.
      expect(outage.cause).toBe(`no lease renewal succeeded for ${TIMING.leaseMs - TIMING.heartbeatMs} ms`);
      expect([cut, ...others].map((c) => [c.lines("OUTAGE").length, c.lines("RECONNECTED").length])).toEqual([
        [1, 1],
        [0, 0],
        [0, 0],
      ]);
      // It stopped runs, the others took them over, each only after it had stopped executing it and after the expiry plus grace.
      expect(stoppedByCut).toBeGreaterThan(0);
      expect(takeovers.from.get(names[0] as string) ?? 0).toBeGreaterThan(0);
      // A claim the database committed while the cut held its reply was never heard of by the cut-off process: it never ran it.
      expect(order.broken).toEqual([]);
      expect(order.unmatched).toEqual([]);
      expect(order.unheard.filter((u) => !u.endsWith(`(${names[0]})`))).toEqual([]);
      expect(order.checked + order.unheard.length).toBe(takeovers.all);
      expect(order.checked).toBeGreaterThan(0);
      expect(takeovers.early).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 600_000);
});
