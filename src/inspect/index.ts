/**
 * The live inspector (Node only): a local web page that shows graph runs,
 * agent crowds and search trees as they happen.
 */
export type { WatchAgentOptions } from "./crowd.js";
export { CrowdMonitor, MAX_SAMPLES } from "./crowd.js";
export type { HubLimits, HubStats } from "./hub.js";
export {
  createInspector,
  Inspector,
  type InspectorHistorySource,
  type InspectorOptions,
  type ListenOptions,
} from "./inspector.js";
export { InspectorRun, type InspectorRunOptions, MAX_RUN_ENTRIES, type RunBudget } from "./run-view.js";
export { DEFAULT_MAX_TREE_NODES, type InspectSearchOptions } from "./search-view.js";
