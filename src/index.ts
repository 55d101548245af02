/**
 * langgoap: goal-oriented action planning for LangGraph.js.
 * Each layer also has its own entry point (`langgoap/core`, `langgoap/planner`, ...).
 */
export * from "./core/index.js";
export * from "./planner/index.js";
