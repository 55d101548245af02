export { computeGoalHash } from "./goal-hash.js";
export { type SqliteDatabase, type SqliteStatement, SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export { historyForStore, StoreExecutionHistory, type StoreExecutionHistoryOptions } from "./store-execution-history.js";
export type { ExecutionHistory, ExecutionRecord } from "./types.js";
