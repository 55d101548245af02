/**
 * langgoap: goal-oriented action planning for LangGraph.js.
 * Each layer also has its own entry point (`langgoap/core`, `langgoap/planner`, ...).
 */
export * from "./core/index.js";
export * from "./graph/index.js";
export * from "./integrations/index.js";
export * from "./nl/index.js";
export * from "./optimize/index.js";
export * from "./planner/index.js";
export * from "./tracing/index.js";
export * from "./utility/index.js";
export * from "./viz/index.js";
