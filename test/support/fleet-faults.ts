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

/** One takeover as the database logged it: the run, the lease it ended (owner and claim number) and who took it. */
export interface LoggedTakeover {
  readonly runId: string;
  readonly oldOwner: string;
  readonly oldAttempts: number;
  readonly newOwner: string;
}

/** The takeovers the database logged, and those that claimed a run before its old lease's expiry plus `graceMs`. */
export async function takeoversOf(
  pool: FleetPool,
  schema: string,
  graceMs: number,
): Promise<{ all: number; rows: LoggedTakeover[]; early: Array<Record<string, unknown>>; from: Map<string, number> }> {
  const { rows } = await pool.query<{
    run_id: string;
    old_owner: string;
    old_attempts: number;
    new_owner: string;
    early_ms: number | null;
  }>(
    `SELECT run_id, old_owner, old_attempts, new_owner,
       extract(epoch FROM (old_expires_at + make_interval(secs => $1::double precision / 1000)) - claimed_at) * 1000 AS early_ms
     FROM "${schema}".takeovers ORDER BY claimed_at, run_id`,
    [graceMs],
  );
  const from = new Map<string, number>();
  for (const r of rows) from.set(r.old_owner, (from.get(r.old_owner) ?? 0) + 1);
  return {
    all: rows.length,
    rows: rows.map((r) => ({ runId: r.run_id, oldOwner: r.old_owner, oldAttempts: Number(r.old_attempts), newOwner: r.new_owner })),
    early: rows.filter((r) => r.early_ms === null || Number(r.early_ms) > 0),
    from,
  };
}

/** The events file's lines, in the order the processes appended them. */
export function readFleetEvents(file: string): FleetEvent[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as FleetEvent);
}

/**
 * For each takeover the database logged, whether the process whose lease
 * it ended had stopped executing the run first, by the events file (all
 * processes append to it, so its order is the order things happened):
 * - `checked`: the old owner logged its claim (same claim number), then
 *   `stopping` (it aborted the run) or `executed` (its execution was
 *   over), all before the new owner logged its claim; `broken` lists the
 *   takeovers that came before the old owner stopped.
 * - `unheard`: the old owner never logged that claim: the database
 *   committed it but the reply never reached the process (a network cut
 *   while the claim was in flight drops it), so it never knew it held the
 *   run and never executed it. Only a process whose network was cut may
 *   have these; each is listed `run (owner)`.
 * Every logged takeover is in exactly one of `checked`, `broken`,
 * `unheard` (or `unmatched`: the new owner's claim is not in the file,
 * which no run should show).
 */
export function takeoversBeforeStop(
  events: readonly FleetEvent[],
  takeovers: readonly LoggedTakeover[],
): { checked: number; broken: string[]; unheard: string[]; unmatched: string[] } {
  const at = new Map<string, number>();
  const key = (worker: string, runId: string, attempts: number, what: string) => `${what}\u0000${worker}\u0000${runId}\u0000${attempts}`;
  // Per run and worker, the claim in force when each event came: events carry the claim number only on `claimed`.
  const claimOf = new Map<string, number>();
  events.forEach((e, i) => {
    if (!e.runId) return;
    if (e.event === "claimed" && typeof e.attempts === "number") {
      claimOf.set(`${e.worker}\u0000${e.runId}`, e.attempts);
      if (!at.has(key(e.worker, e.runId, e.attempts, "claimed"))) at.set(key(e.worker, e.runId, e.attempts, "claimed"), i);
    } else if (e.event === "stopping" || e.event === "executed") {
      const attempts = claimOf.get(`${e.worker}\u0000${e.runId}`);
      if (attempts !== undefined && !at.has(key(e.worker, e.runId, attempts, "stopped")))
        at.set(key(e.worker, e.runId, attempts, "stopped"), i);
    }
  });
  let checked = 0;
  const broken: string[] = [];
  const unheard: string[] = [];
  const unmatched: string[] = [];
  for (const t of takeovers) {
    const takenAt = at.get(key(t.newOwner, t.runId, t.oldAttempts + 1, "claimed"));
    const claimedAt = at.get(key(t.oldOwner, t.runId, t.oldAttempts, "claimed"));
    const stoppedAt = at.get(key(t.oldOwner, t.runId, t.oldAttempts, "stopped"));
    if (takenAt === undefined) unmatched.push(`${t.runId}: ${t.newOwner}'s claim ${t.oldAttempts + 1} is not in the events`);
    else if (claimedAt === undefined) unheard.push(`${t.runId} (${t.oldOwner})`);
    else if (stoppedAt === undefined || stoppedAt > takenAt || claimedAt > takenAt)
      broken.push(`${t.runId}: ${t.newOwner} claimed it while ${t.oldOwner} had not stopped it`);
    else checked++;
  }
  return { checked, broken, unheard, unmatched };
}
