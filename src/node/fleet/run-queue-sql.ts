import { LangGoapError } from "../../core/index.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** @internal The statements of a run queue in one schema. */
export interface QueueSql {
  readonly setup: readonly string[];
  readonly enqueue: string;
  readonly get: string;
  readonly counts: string;
  readonly claim: string;
  readonly renew: string;
  readonly finish: string;
  readonly release: string;
  readonly fail: string;
  readonly ended: string;
}

/** @internal The table of the queue, quoted, after checking the schema name. */
export function queueSql(schema: string): QueueSql {
  if (typeof schema !== "string" || !IDENTIFIER.test(schema)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `run queue option schema must be a PostgreSQL identifier (a letter or _, then letters, digits, _; at most 63), got ${JSON.stringify(schema)}`,
      { field: "schema" },
    );
  }
  const t = `"${schema}".langgoap_fleet_runs`;
  // A holder's update names the lease it holds (owner and claim number): a run taken over since is not touched.
  const held = "run_id = $1 AND lease_owner = $2 AND attempts = $3 AND state = 'running'";
  return {
    setup: [
      `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
      `CREATE TABLE IF NOT EXISTS ${t} (
        seq bigserial UNIQUE,
        run_id text PRIMARY KEY,
        thread_id text NOT NULL,
        goal jsonb NOT NULL,
        world_state jsonb,
        state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'error')),
        run_status text,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        takeovers integer NOT NULL DEFAULT 0,
        lease_owner text,
        lease_expires_at timestamptz,
        available_at timestamptz NOT NULL DEFAULT now(),
        enqueued_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        claimed_at timestamptz,
        finished_at timestamptz
      )`,
      `CREATE INDEX IF NOT EXISTS langgoap_fleet_runs_open ON ${t} (thread_id, seq) WHERE state IN ('queued', 'running')`,
    ],
    enqueue: `INSERT INTO ${t} (run_id, thread_id, goal, world_state) VALUES ($1, $2, $3, $4) ON CONFLICT (run_id) DO NOTHING RETURNING run_id`,
    get: `SELECT *, extract(epoch FROM enqueued_at) * 1000 AS enqueued_ms, extract(epoch FROM started_at) * 1000 AS started_ms,
      extract(epoch FROM claimed_at) * 1000 AS claimed_ms, extract(epoch FROM finished_at) * 1000 AS finished_ms FROM ${t} WHERE run_id = $1`,
    counts: `SELECT state, count(*)::int AS n FROM ${t} GROUP BY state`,
    // The oldest claimable runs, each locked by this claim alone (SKIP LOCKED: rows another claim holds are passed over, never waited
    // for). A run is claimable when queued and due, or running with a lease that expired more than the takeover grace ($4 ms) ago
    // (its holder stopped renewing: taken over; the holder stopped it before the expiry, the grace covers a late timer); and only
    // when no older run of its thread is unfinished, so the runs of a thread never run at once. Times are the database's clock.
    claim: `WITH next AS (
        SELECT r.run_id, r.state AS was
        FROM ${t} r
        WHERE ((r.state = 'queued' AND r.available_at <= now())
            OR (r.state = 'running' AND r.lease_expires_at + make_interval(secs => $4::double precision / 1000) <= now()))
          AND NOT EXISTS (SELECT 1 FROM ${t} o WHERE o.thread_id = r.thread_id AND o.seq < r.seq AND o.state IN ('queued', 'running'))
        ORDER BY r.seq
        LIMIT $1
        FOR UPDATE SKIP LOCKED
      )
      UPDATE ${t} r SET state = 'running', lease_owner = $2, lease_expires_at = now() + make_interval(secs => $3::double precision / 1000),
        attempts = r.attempts + 1, takeovers = r.takeovers + (CASE WHEN next.was = 'running' THEN 1 ELSE 0 END),
        started_at = coalesce(r.started_at, now()), claimed_at = now()
      FROM next WHERE r.run_id = next.run_id
      RETURNING r.run_id, r.thread_id, r.goal, r.world_state, r.attempts, next.was`,
    // One statement renews every lease a worker holds: its heartbeat never queues behind as many queries as it has runs. A lease past
    // its expiry is never renewed, taken over or not: once the database's clock passes it, the holder has lost the run for good, so
    // an expiry (a test's, or a holder cut off until then) cannot be undone by a renewal racing the claim that takes the run over.
    renew: `UPDATE ${t} r SET lease_expires_at = now() + make_interval(secs => $4::double precision / 1000)
      FROM unnest($1::text[], $3::integer[]) AS h(run_id, attempts)
      WHERE r.run_id = h.run_id AND r.attempts = h.attempts AND r.lease_owner = $2 AND r.state = 'running' AND r.lease_expires_at > now()
      RETURNING r.run_id`,
    finish: `UPDATE ${t} SET state = 'done', run_status = $4, error = NULL, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
      WHERE ${held} RETURNING run_id`,
    release: `UPDATE ${t} SET state = 'queued', error = $4, available_at = now() + make_interval(secs => $5::double precision / 1000),
      lease_owner = NULL, lease_expires_at = NULL WHERE ${held} RETURNING run_id`,
    fail: `UPDATE ${t} SET state = 'error', error = $4, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
      WHERE ${held} RETURNING run_id`,
    // Whether an end whose answer was lost (the connection broke) was written: the run left 'running' and nobody claimed it since.
    ended: `SELECT state FROM ${t} WHERE run_id = $1 AND attempts = $2 AND state <> 'running'`,
  };
}
