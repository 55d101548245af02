/**
 * Planner worker threads (Node only; exported from `langgoap/node`, never
 * from the root, which must bundle for the browser).
 */
export { PlannerPool, type PlannerPoolOptions, type PlannerPoolStats } from "./planner-pool.js";
export type { PooledPlanResult } from "./pool-result.js";
export { PooledAStarStrategy } from "./pooled-astar-strategy.js";
