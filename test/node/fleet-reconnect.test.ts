/**
 * How a fleet worker tells a database outage from a failed statement, and
 * how it reconnects, without a database: the backoff schedule, the errors
 * that mean "connection lost", a watched pool reporting them (and keeping
 * a broken checked-out connection from ending the process), and one
 * outage however many statements fail in it, on a fake clock.
 */
import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { isConnectionError } from "../../src/node/fleet/connection-errors.js";
import { DatabaseLink } from "../../src/node/fleet/database-link.js";
import type { FleetPool, FleetPoolClient } from "../../src/node/fleet/fleet-pool.js";
import { reconnectDelay } from "../../src/node/fleet/reconnect-backoff.js";
import { WatchedPool } from "../../src/node/fleet/watched-pool.js";

function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

/** A pg.Pool stand-in: clients are EventEmitters; `down` makes every connect and query fail as a stopped server would. */
class FakePgPool extends EventEmitter implements FleetPool {
  down = false;
  /** Whether `down` also fails the statements of connections opened before (a stopped server), or only new connections. */
  cutsOpenConnections = true;
  queries: string[] = [];
  readonly clients: FakeClient[] = [];

  async connect(): Promise<FleetPoolClient> {
    if (this.down) throw pgError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED");
    const client = new FakeClient(this);
    this.clients.push(client);
    this.emit("connect", client);
    return client;
  }

  async query<R>(): Promise<{ rows: R[]; rowCount: number }> {
    throw new Error("the watched pool queries through connect()");
  }

  async end(): Promise<void> {}
}

class FakeClient extends EventEmitter implements FleetPoolClient {
  released: unknown[] = [];
  readonly #pool: FakePgPool;
  constructor(pool: FakePgPool) {
    super();
    this.#pool = pool;
  }
  async query<R>(sql: string): Promise<{ rows: R[]; rowCount: number }> {
    this.#pool.queries.push(sql);
    if (this.#pool.down && this.#pool.cutsOpenConnections) throw pgError("Connection terminated unexpectedly");
    return { rows: [], rowCount: 0 };
  }
  release(error?: Error | boolean): void {
    this.released.push(error);
  }
}

describe("fleet reconnection backoff", () => {
  it("doubles from reconnectDelayMs up to maxReconnectDelayMs, the same schedule every time", () => {
    const timing = { reconnectDelayMs: 100, maxReconnectDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5, 6, 50].map((n) => reconnectDelay(n, timing))).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000]);
    expect([1, 2, 3, 7, 8].map((n) => reconnectDelay(n, { reconnectDelayMs: 250, maxReconnectDelayMs: 10_000 }))).toEqual([
      250, 500, 1_000, 10_000, 10_000,
    ]);
  });
});

describe("connection errors", () => {
  it("are a lost or refused connection, a server going away, a time limit of pg; never a statement's own error", () => {
    const lost = [
      pgError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      pgError("read ECONNRESET", "ECONNRESET"),
      pgError("terminating connection due to administrator command", "57P01"),
      pgError("the database system is starting up", "57P03"),
      pgError("connection failure", "08006"),
      pgError("Connection terminated unexpectedly"),
      pgError("Connection terminated due to connection timeout"),
      pgError("timeout exceeded when trying to connect"),
      pgError("Query read timeout"),
      pgError("Client has encountered a connection error and is not queryable"),
      new LangGoapError("STORE_ERROR", "run queue: claim failed", {}, { cause: pgError("read ECONNRESET", "ECONNRESET") }),
      new AggregateError([pgError("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")], "connect failed"),
    ];
    const own = [
      pgError('duplicate key value violates unique constraint "ledger_pkey"', "23505"),
      pgError('relation "x" does not exist', "42P01"),
      new LangGoapError("INVALID_GOAL", "bad goal"),
      new Error("boom"),
      "a string",
      null,
    ];
    expect(lost.filter((e) => !isConnectionError(e))).toEqual([]);
    expect(own.filter((e) => isConnectionError(e))).toEqual([]);
  });
});

describe("a watched pool", () => {
  it("reports each connection error with when its connection was opened, and only those", async () => {
    const raw = new FakePgPool();
    const pool = new WatchedPool(raw);
    const seen: Array<[string, boolean]> = [];
    pool.watch((error, openedAt) => seen.push([(error as Error).message, Number.isFinite(openedAt)]));
    await pool.query("SELECT 1");
    raw.down = true;
    await expect(pool.query("SELECT 2")).rejects.toThrow("ECONNREFUSED");
    raw.down = false;
    const client = await pool.connect();
    raw.down = true;
    await expect(client.query("SELECT 3")).rejects.toThrow("Connection terminated unexpectedly");
    client.release();
    expect(seen).toEqual([
      ["connect ECONNREFUSED 127.0.0.1:5432", true],
      ["Connection terminated unexpectedly", true],
    ]);
  });

  it("keeps a connection that breaks while checked out, between two statements, from ending the process", async () => {
    const raw = new FakePgPool();
    const pool = new WatchedPool(raw);
    const seen: string[] = [];
    pool.watch((error) => seen.push((error as Error).message));
    const client = await pool.connect();
    const fake = raw.clients[0] as FakeClient;
    // An EventEmitter's "error" with no listener throws: pg raises it on a checked-out client whose socket dies.
    expect(() => fake.emit("error", pgError("Connection terminated unexpectedly"))).not.toThrow();
    // Once given back, the pool's own idle listener is pg's business; ours is gone.
    client.release();
    expect(fake.listenerCount("error")).toBe(0);
    // A broken idle connection reaches the pool as its "error" event: watched too.
    raw.emit("error", pgError("terminating connection due to administrator command", "57P01"), fake);
    expect(seen).toEqual(["Connection terminated unexpectedly", "terminating connection due to administrator command"]);
  });
});

describe("a worker's database link", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const timing = { reconnectDelayMs: 100, maxReconnectDelayMs: 1_000, probeTimeoutMs: 500 };

  it("makes one outage of many failed statements, and reconnects on the schedule once the database answers", async () => {
    const raw = new FakePgPool();
    const pool = new WatchedPool(raw);
    const lost: string[] = [];
    const link = new DatabaseLink(pool, timing, (cause) => lost.push(cause));
    raw.down = true;
    const failures = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => pool.query(`SELECT ${i}`)));
    expect(failures.every((f) => f.status === "rejected")).toBe(true);
    expect(lost).toEqual(["connect ECONNREFUSED 127.0.0.1:5432"]);
    expect([link.down, link.up.aborted, link.outages]).toEqual([true, true, 1]);

    const probesAt: number[] = [];
    const start = performance.now();
    const probe = raw.connect.bind(raw);
    raw.connect = async () => {
      probesAt.push(performance.now() - start);
      // The server is back from the fifth attempt on.
      if (probesAt.length === 5) raw.down = false;
      return probe();
    };
    const reconnecting = link.reconnect(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(10_000);
    const outage = await reconnecting;
    // Waits of 100, 200, 400, 800, then 1000 ms: attempts at 100, 300, 700, 1500 and 2500 ms.
    expect(probesAt).toEqual([100, 300, 700, 1_500, 2_500]);
    expect(outage).toMatchObject({ attempts: 5, failedStatements: 14, cause: "connect ECONNREFUSED 127.0.0.1:5432" });
    expect([link.down, link.up.aborted, link.outages]).toEqual([false, false, 1]);
    link.close();
  });

  it("leaves the breaks of connections opened before it reconnected to the old outage, and counts a new one", async () => {
    const raw = new FakePgPool();
    const pool = new WatchedPool(raw);
    const lost: string[] = [];
    const link = new DatabaseLink(pool, timing, (cause) => lost.push(cause));
    const old = await pool.connect();
    raw.down = true;
    await expect(pool.query("SELECT 1")).rejects.toThrow();
    raw.down = false;
    const reconnecting = link.reconnect(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(100);
    await reconnecting;
    // A connection from before the outage is noticed broken only now: not a new outage.
    raw.down = true;
    await expect(old.query("SELECT 2")).rejects.toThrow();
    expect([lost.length, link.down]).toEqual([1, false]);
    // A fresh one failing is.
    await vi.advanceTimersByTimeAsync(1);
    await expect(pool.query("SELECT 3")).rejects.toThrow();
    expect([lost.length, link.down, link.outages]).toEqual([2, true, 2]);
    link.close();
  });

  it("stops reconnecting as soon as the worker stops, mid-wait", async () => {
    const raw = new FakePgPool();
    const pool = new WatchedPool(raw);
    const link = new DatabaseLink(pool, timing, () => {});
    link.lost(new Error("no lease renewal succeeded for 5000 ms"));
    raw.down = true;
    let probes = 0;
    const probe = raw.connect.bind(raw);
    raw.connect = () => {
      probes++;
      return probe();
    };
    const stop = new AbortController();
    const reconnecting = link.reconnect(stop.signal);
    // Attempts at 100, 300, 700 and 1500 ms; the next would be at 2500.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(probes).toBe(4);
    stop.abort();
    expect(await reconnecting).toBe(null);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probes).toBe(4);
    expect(link.down).toBe(true);
    link.close();
  });
});

describe("a fleet worker whose database goes away", () => {
  /** A database that answers every statement with no rows (an empty queue), until `down`; counts the attempts made while down. */
  class EmptyDatabase extends FakePgPool {
    // Refuses new connections only: the outage always begins with a claim's connection refused, the same every run.
    override cutsOpenConnections = false;
    attemptsWhileDown = 0;
    #onAttempt: ((n: number) => void) | undefined;
    /** Calls `hook` with the number of each connection attempt made while down (from 1). */
    whileDown(hook: (n: number) => void): void {
      this.attemptsWhileDown = 0;
      this.#onAttempt = hook;
      this.down = true;
    }
    override async connect(): Promise<FleetPoolClient> {
      if (this.down) this.#onAttempt?.(++this.attemptsWhileDown);
      return super.connect();
    }
  }

  it("logs one line when it loses the database and one when it is back, however many statements failed, and never stops", async () => {
    const { GoapGraph } = await import("../../src/graph/index.js");
    const { FleetWorker } = await import("../../src/node/index.js");
    const { MemorySaver } = await import("@langchain/langgraph");
    const db = new EmptyDatabase();
    const warned: string[] = [];
    const reconnected: string[] = [];
    let onReconnected: () => void = () => {};
    const worker = new FleetWorker({
      graph: new GoapGraph([]),
      pool: db,
      checkpointer: new MemorySaver(),
      name: "w",
      pollMs: 5,
      reconnectDelayMs: 5,
      maxReconnectDelayMs: 20,
      logger: {
        warn: (message) => warned.push(message),
        info: (message) => {
          reconnected.push(message);
          onReconnected();
        },
      },
    });
    await worker.start();
    for (const outage of [1, 2]) {
      const back = new Promise<void>((resolve) => {
        onReconnected = resolve;
      });
      // The database answers again at the twelfth attempt made while it is away (claims, then reconnection attempts).
      db.whileDown((n) => {
        if (n === 12) db.down = false;
      });
      await back;
      expect([warned.length, reconnected.length, worker.stats.outages]).toEqual([outage, outage, outage]);
    }
    const stats = await worker.stop();
    expect(await worker.stop()).toBe(stats);
    expect(stats).toMatchObject({ claimed: 0, outages: 2 });
    expect(warned).toEqual([
      "fleet worker w: lost its database (connect ECONNREFUSED 127.0.0.1:5432); stopped 0 runs, reconnecting in 5 ms, the wait doubling up to 20 ms",
      "fleet worker w: lost its database (connect ECONNREFUSED 127.0.0.1:5432); stopped 0 runs, reconnecting in 5 ms, the wait doubling up to 20 ms",
    ]);
    // The first failed statement (a claim's, attempt 1) began the outage; reconnection attempts 2 to 11 failed too, the twelfth answered.
    expect(reconnected.map((line) => line.replace(/after [\d.]+ s/, "after … s"))).toEqual([
      "fleet worker w: reconnected to its database after … s (11 attempts; 11 statements failed in the outage); 0 stopped runs given back to the queue",
      "fleet worker w: reconnected to its database after … s (11 attempts; 11 statements failed in the outage); 0 stopped runs given back to the queue",
    ]);
  });

  it("stops when its signal aborts, also while reconnecting", async () => {
    const { GoapGraph } = await import("../../src/graph/index.js");
    const { FleetWorker } = await import("../../src/node/index.js");
    const { MemorySaver } = await import("@langchain/langgraph");
    const db = new EmptyDatabase();
    const controller = new AbortController();
    let lost: () => void = () => {};
    const outage = new Promise<void>((resolve) => {
      lost = resolve;
    });
    const worker = new FleetWorker({
      graph: new GoapGraph([]),
      pool: db,
      checkpointer: new MemorySaver(),
      pollMs: 5,
      reconnectDelayMs: 5,
      maxReconnectDelayMs: 10,
      signal: controller.signal,
      logger: { warn: () => lost() },
    });
    await worker.start();
    db.whileDown(() => {});
    await outage;
    controller.abort();
    const stats = await worker.stop();
    expect(stats.outages).toBe(1);
    const attempts = db.attemptsWhileDown;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(db.attemptsWhileDown).toBe(attempts);
    await expect(
      new FleetWorker({ graph: new GoapGraph([]), pool: db, checkpointer: new MemorySaver(), signal: controller.signal }).start(),
    ).rejects.toThrow();
  });
});
