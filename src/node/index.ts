/**
 * Node-only helpers: the file system (domain files), worker threads (the
 * planner pool) and PostgreSQL (the run fleet), so the root `langgoap`
 * import (which must bundle for the browser) never loads them.
 */

export {
  PlannerPool,
  type PlannerPoolOptions,
  type PlannerPoolStats,
  PooledAStarStrategy,
  type PooledPlanResult,
} from "../workers/index.js";
export { loadDomainFile } from "./domain-file.js";
export {
  DEFAULT_FLEET_CONCURRENCY,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_RECONNECT_DELAY_MS,
  DEFAULT_POLL_MS,
  DEFAULT_RECONNECT_DELAY_MS,
  DEFAULT_TAKEOVER_GRACE_MS,
  type FleetWorkerOptions,
} from "./fleet/fleet-options.js";
export { FleetWorker, type FleetWorkerStats } from "./fleet/fleet-worker.js";
export { DEFAULT_FLEET_CONNECTIONS, type FleetPool, type FleetPoolClient, type FleetPoolOptions, openFleetPool } from "./fleet/pg-pool.js";
export {
  type EnqueueRun,
  type QueuedRun,
  type QueuedRunState,
  RunQueue,
  type RunQueueCounts,
  type RunQueueOptions,
} from "./fleet/run-queue.js";
