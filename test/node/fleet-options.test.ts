import { describe, expect, it } from "vitest";
import { GoalSpec, LangGoapError } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { DEFAULT_HEARTBEAT_MS, DEFAULT_LEASE_MS, type FleetPool, FleetWorker, RunQueue } from "../../src/node/index.js";

/** A pool that must never be reached: every check here happens before a query. */
const pool: FleetPool = {
  query: () => Promise.reject(new Error("no database in this test")),
  connect: () => Promise.reject(new Error("no database in this test")),
  end: async () => {},
};
const graph = new GoapGraph([]);

function codeOf(fn: () => unknown): [string, string] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(LangGoapError);
    return [(error as LangGoapError).code, (error as LangGoapError).message];
  }
  throw new Error("expected a LangGoapError");
}

async function rejectionOf(promise: Promise<unknown>): Promise<[string, string]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LangGoapError);
  return [(error as LangGoapError).code, (error as LangGoapError).message];
}

describe("fleet options", () => {
  it("defaults leave a lease three heartbeats long", () => {
    expect(DEFAULT_LEASE_MS).toBeGreaterThanOrEqual(3 * DEFAULT_HEARTBEAT_MS);
    expect(new FleetWorker({ graph, pool }).name).toMatch(/:\d+:[0-9a-f]{8}$/);
  });

  it("refuses a lease shorter than three heartbeats, naming both", () => {
    const [code, message] = codeOf(() => new FleetWorker({ graph, pool, leaseMs: 2_000, heartbeatMs: 1_000 }));
    expect(code).toBe("INVALID_OPTION");
    expect(message).toContain("leaseMs (2000) must be at least 3 × heartbeatMs (1000)");
  });

  it("needs exactly one of pool and connectionString, a GoapGraph, and integer limits", () => {
    expect(codeOf(() => new FleetWorker({ graph })).join(" ")).toContain("exactly one of pool");
    expect(codeOf(() => new FleetWorker({ graph, pool, connectionString: "postgresql://x" })).join(" ")).toContain("exactly one of pool");
    expect(codeOf(() => new FleetWorker({ graph: {} as never, pool })).join(" ")).toContain("option graph must be a GoapGraph");
    expect(codeOf(() => new FleetWorker({ graph, pool, concurrency: 0 })).join(" ")).toContain(
      "concurrency must be an integer >= 1, got 0",
    );
    expect(codeOf(() => new FleetWorker({ graph, pool, pollMs: 1.5 })).join(" ")).toContain("pollMs must be an integer >= 1, got 1.5");
    expect(codeOf(() => new FleetWorker({ graph, connectionString: "postgresql://x", maxConnections: 1 })).join(" ")).toContain(
      "maxConnections must be an integer >= 2, got 1",
    );
  });

  it("checks the takeover grace, the reconnection backoff and the signal, naming each", () => {
    expect(codeOf(() => new FleetWorker({ graph, pool, takeoverGraceMs: -1 })).join(" ")).toContain(
      "takeoverGraceMs must be an integer >= 0, got -1",
    );
    expect(codeOf(() => new FleetWorker({ graph, pool, reconnectDelayMs: 0 })).join(" ")).toContain(
      "reconnectDelayMs must be an integer >= 1, got 0",
    );
    expect(codeOf(() => new FleetWorker({ graph, pool, reconnectDelayMs: 500, maxReconnectDelayMs: 100 })).join(" ")).toContain(
      "maxReconnectDelayMs must be an integer >= 500, got 100",
    );
    expect(codeOf(() => new FleetWorker({ graph, pool, signal: {} as never })).join(" ")).toContain("option signal must be an AbortSignal");
    // A first wait longer than the default cap raises the cap with it.
    expect(() => new FleetWorker({ graph, pool, reconnectDelayMs: 20_000 })).not.toThrow();
  });

  it("takes a schema only when it is a PostgreSQL identifier", () => {
    const [code, message] = codeOf(() => new RunQueue(pool, { schema: 'x"; DROP TABLE y; --' }));
    expect(code).toBe("INVALID_OPTION");
    expect(message).toContain("schema must be a PostgreSQL identifier");
  });

  it("enqueues JSON goals and worlds only, checked before the database is asked", async () => {
    const queue = new RunQueue(pool);
    const [goalCode, goalMessage] = await rejectionOf(queue.enqueue({ goal: new GoalSpec({ conditions: { done: true } }) as never }));
    expect(goalCode).toBe("INVALID_GOAL");
    expect(goalMessage).toContain("plain JSON object");
    const [stateCode] = await rejectionOf(queue.enqueue({ goal: { done: true }, worldState: { at: () => 1 } as never }));
    expect(stateCode).toBe("INVALID_STATE");
    const [idCode, idMessage] = await rejectionOf(queue.enqueue({ goal: { done: true }, runId: "" }));
    expect(idCode).toBe("INVALID_OPTION");
    expect(idMessage).toContain("runId must be a non-empty string");
  });
});
