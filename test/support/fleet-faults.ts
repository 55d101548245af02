/**
 * What the fleet's fault tests (test/node/fleet-outage.test.ts) share: a
 * schema with the queue, the ledger, the checkpointer's tables and a log
 * of every takeover the database saw (the lease it ended and when); the
 * check that each takeover waited for the old lease's expiry plus the
 * grace; and the check, over the events all the processes appended to one
 * file, that the process that held a run had stopped executing it before
 * the process that took it over claimed it.
 */
import { readFileSync } from "node:fs";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { type FleetPool, RunQueue } from "../../src/node/index.js";
import type { FleetEvent } from "./fleet-child.js";
import { LEDGER_GOAL, setupLedger } from "./fleet-ledger.js";

/** Creates the schema's tables and the takeover log, and enqueues `runs` runs (`order-0000`, ...). */
export async function prepareFleetSchema(pool: FleetPool, schema: string, runs: number): Promise<string[]> {
  const queue = new RunQueue(pool, { schema });
  await queue.setup();
  await setupLedger(pool, schema);
  await new PostgresSaver(pool as never, undefined, { schema }).setup();
  await pool.query(`CREATE TABLE "${schema}".takeovers (
    run_id text NOT NULL, old_owner text, old_attempts integer NOT NULL, old_expires_at timestamptz,
    new_owner text, claimed_at timestamptz NOT NULL)`);
  await pool.query(`CREATE FUNCTION "${schema}".log_takeover() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.state = 'running' AND NEW.attempts > OLD.attempts THEN
        INSERT INTO "${schema}".takeovers VALUES (OLD.run_id, OLD.lease_owner, OLD.attempts, OLD.lease_expires_at, NEW.lease_owner, now());
      END IF;
      RETURN NEW;
    END $$`);
  await pool.query(
    `CREATE TRIGGER log_takeover BEFORE UPDATE ON "${schema}".langgoap_fleet_runs FOR EACH ROW EXECUTE FUNCTION "${schema}".log_takeover()`,
  );
  const runIds = Array.from({ length: runs }, (_, i) => `order-${String(i).padStart(4, "0")}`);
  for (let i = 0; i < runIds.length; i += 50) {
    await Promise.all(runIds.slice(i, i + 50).map((runId) => queue.enqueue({ runId, goal: LEDGER_GOAL, worldState: { order: runId } })));
  }
  return runIds;
}

/** The takeovers the database logged, and those that claimed a run before its old lease's expiry plus `graceMs`. */
export async function takeoversOf(
  pool: FleetPool,
  schema: string,
  graceMs: number,
): Promise<{ all: number; early: Array<Record<string, unknown>>; from: Map<string, number> }> {
  const { rows } = await pool.query<{ run_id: string; old_owner: string; new_owner: string; early_ms: number | null }>(
    `SELECT run_id, old_owner, new_owner,
       extract(epoch FROM (old_expires_at + make_interval(secs => $1::double precision / 1000)) - claimed_at) * 1000 AS early_ms
     FROM "${schema}".takeovers`,
    [graceMs],
  );
  const from = new Map<string, number>();
  for (const r of rows) from.set(r.old_owner, (from.get(r.old_owner) ?? 0) + 1);
  return { all: rows.length, early: rows.filter((r) => r.early_ms === null || Number(r.early_ms) > 0), from };
}

/** The events file's lines, in the order the processes appended them. */
export function readFleetEvents(file: string): FleetEvent[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as FleetEvent);
}

/**
 * For each takeover in the events (a `claimed` event with `takenOver`):
 * the process that claimed the run before must have logged `stopping` (it
 * aborted the run) or `executed` (its execution was over) for that run
 * between its claim and the takeover. Returns the takeovers that break
 * this, and how many were checked.
 */
export function takeoversBeforeStop(events: readonly FleetEvent[]): { checked: number; broken: string[] } {
  const holder = new Map<string, { worker: string; stopped: boolean }>();
  const broken: string[] = [];
  let checked = 0;
  for (const e of events) {
    if (!e.runId) continue;
    if (e.event === "claimed") {
      const before = holder.get(e.runId);
      if (e.takenOver && before) {
        checked++;
        if (!before.stopped) broken.push(`${e.runId}: ${e.worker} claimed it while ${before.worker} had not stopped it`);
      }
      holder.set(e.runId, { worker: e.worker, stopped: false });
    } else if (e.event === "stopping" || e.event === "executed") {
      const h = holder.get(e.runId);
      if (h && h.worker === e.worker) h.stopped = true;
    }
  }
  return { checked, broken };
}
