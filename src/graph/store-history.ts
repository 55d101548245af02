import type { BaseStore } from "@langchain/langgraph";
import type { StepBlock } from "./history/step-blocks.js";
import type { ExecutionHistory, ExecutionRecord } from "./history/types.js";

const histories = new WeakMap<BaseStore, ExecutionHistory>();

/**
 * @internal The history a graph writes to when it runs with a LangGraph
 * store and was given none: the store's `StoreExecutionHistory`
 * (`historyForStore`), loaded on the first record. The store history and
 * its SQLite and PostgreSQL paths are a separate chunk that a browser app
 * whose graph runs without a store never downloads (Vite/Rolldown; esbuild
 * inlines it without `--splitting`, and with it imports the shared chunks
 * up front: bench/bundle-size.ts).
 */
export function storeHistory(store: BaseStore): ExecutionHistory {
  let history = histories.get(store);
  if (history) return history;
  let loading: Promise<ExecutionHistory> | undefined;
  const load = (): Promise<ExecutionHistory> => {
    loading ??= import("./history/store-execution-history.js").then(
      ({ historyForStore }) => historyForStore(store),
      (error: unknown) => {
        // A chunk that failed to load (a network blip) is tried again on the next record.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  history = {
    record: async (record: ExecutionRecord) => (await load()).record(record),
    recordSteps: async (block: StepBlock) => {
      await (await load()).recordSteps?.(block);
    },
  };
  histories.set(store, history);
  return history;
}
