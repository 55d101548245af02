/**
 * The multi-step domain of the fleet tests: an order is reserved, charged,
 * packed and shipped. Every action writes to two tables: `executions`
 * (one row per execution, no key: what really ran) and `ledger` (one row
 * per idempotency key, `ON CONFLICT DO NOTHING`: what an idempotent
 * downstream system keeps). A run's order id is its world's `order`.
 */
import { type ActionContext, ActionSpec } from "../../src/core/index.js";
import type { FleetPool } from "../../src/node/index.js";

export const LEDGER_ACTIONS = ["reserve", "charge", "pack", "ship"] as const;
export const LEDGER_GOAL = { shipped: true } as const;

const EFFECT: Record<(typeof LEDGER_ACTIONS)[number], string> = { reserve: "reserved", charge: "charged", pack: "packed", ship: "shipped" };

export async function setupLedger(pool: FleetPool, schema: string): Promise<void> {
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await pool.query(`CREATE TABLE IF NOT EXISTS "${schema}".executions (
    id bigserial PRIMARY KEY, run_id text NOT NULL, action text NOT NULL, idempotency_key text NOT NULL,
    step_attempt integer NOT NULL, worker text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  await pool.query(`CREATE TABLE IF NOT EXISTS "${schema}".ledger (
    idempotency_key text PRIMARY KEY, run_id text NOT NULL, action text NOT NULL, worker text NOT NULL)`);
}

export interface LedgerOptions {
  /** Milliseconds each action takes (a wait that honours the run's signal), or per action. */
  readonly delayMs: number | ((action: string) => number);
  /** Called after an execution was logged, before its wait: a child freezes there to be killed. */
  readonly onExecute?: (action: string, runId: string, ctx: ActionContext) => void | Promise<void>;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    function stop(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/** The four actions, logging as `worker`. */
export function ledgerActions(pool: FleetPool, schema: string, worker: string, options: LedgerOptions): ActionSpec[] {
  return LEDGER_ACTIONS.map((name, i) => {
    const before = i === 0 ? {} : { [EFFECT[LEDGER_ACTIONS[i - 1] as (typeof LEDGER_ACTIONS)[number]]]: true };
    return new ActionSpec({
      name,
      preconditions: before,
      effects: { [EFFECT[name]]: true },
      cost: 1,
      execute: async (state, ctx) => {
        const runId = String(state.order);
        await pool.query(
          `INSERT INTO "${schema}".executions (run_id, action, idempotency_key, step_attempt, worker) VALUES ($1, $2, $3, $4, $5)`,
          [runId, name, ctx.idempotencyKey, ctx.stepAttempt, worker],
        );
        await options.onExecute?.(name, runId, ctx);
        await wait(typeof options.delayMs === "number" ? options.delayMs : options.delayMs(name), ctx.signal);
        await pool.query(
          `INSERT INTO "${schema}".ledger (idempotency_key, run_id, action, worker) VALUES ($1, $2, $3, $4) ON CONFLICT (idempotency_key) DO NOTHING`,
          [ctx.idempotencyKey, runId, name, worker],
        );
      },
    });
  });
}

/** What the two tables say about a set of runs. */
export interface LedgerCounts {
  /** (run, action) pairs with exactly one ledger row. */
  readonly once: number;
  /** (run, action) pairs with more than one ledger row (an action done twice under different keys). */
  readonly duplicated: number;
  /** (run, action) pairs with no ledger row. */
  readonly missing: number;
  /** Executions in all. */
  readonly executions: number;
  /** Executions after the first of a (run, action) pair. */
  readonly reExecutions: number;
  /** Of those, re-executions under another key than the first, or not told `stepAttempt` 2. */
  readonly reExecutionsWrong: number;
}

export async function ledgerCounts(pool: FleetPool, schema: string, runIds: readonly string[]): Promise<LedgerCounts> {
  const { rows: ledger } = await pool.query<{ run_id: string; action: string; n: number }>(
    `SELECT run_id, action, count(*)::int AS n FROM "${schema}".ledger GROUP BY run_id, action`,
  );
  const byPair = new Map(ledger.map((r) => [`${r.run_id}/${r.action}`, Number(r.n)]));
  let once = 0;
  let duplicated = 0;
  let missing = 0;
  for (const run of runIds) {
    for (const action of LEDGER_ACTIONS) {
      const n = byPair.get(`${run}/${action}`) ?? 0;
      if (n === 1) once++;
      else if (n > 1) duplicated++;
      else missing++;
    }
  }
  const { rows: executions } = await pool.query<{ run_id: string; action: string; idempotency_key: string; step_attempt: number }>(
    `SELECT run_id, action, idempotency_key, step_attempt FROM "${schema}".executions ORDER BY id`,
  );
  const first = new Map<string, string>();
  let reExecutions = 0;
  let reExecutionsWrong = 0;
  for (const e of executions) {
    const pair = `${e.run_id}/${e.action}`;
    const key = first.get(pair);
    if (key === undefined) first.set(pair, e.idempotency_key);
    else {
      reExecutions++;
      if (key !== e.idempotency_key || Number(e.step_attempt) !== 2) reExecutionsWrong++;
    }
  }
  return { once, duplicated, missing, executions: executions.length, reExecutions, reExecutionsWrong };
}
