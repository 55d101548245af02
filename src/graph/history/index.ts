export { computeGoalHash } from "./goal-hash.js";
export { type SqliteDatabase, type SqliteStatement, SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export { type HistoryPage, type HistoryPageOptions, type HistoryStep, MAX_HISTORY_PAGE, type StepBlock } from "./step-blocks.js";
export { historyForStore, StoreExecutionHistory, type StoreExecutionHistoryOptions } from "./store-execution-history.js";
export type { ExecutionHistory, ExecutionRecord } from "./types.js";
