import type { ActionSpec, GoalLike, WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { type PlanOptions, planDetailed, type SearchRecord } from "../planner/index.js";

/** Expansions drawn at most by default; the rest are counted. */
export const DEFAULT_MAX_TREE_NODES = 2000;

/** Options of `inspector.search`. */
export interface InspectSearchOptions extends Omit<PlanOptions, "recordExpansions" | "tracer"> {
  /** Shown as the search's title. @defaultValue the search's id */
  readonly title?: string;
  /**
   * Stop after this many expansions: every expansion is recorded, so an
   * inspection call is bounded even when the planner's default is not.
   * @defaultValue 100,000
   */
  readonly maxExpansions?: number;
  /** Expansions kept for the tree (the first ones, in expansion order). @defaultValue 2000 */
  readonly maxTreeNodes?: number;
}

/** @internal The node ids on the found plan's path, matched by action names from the root. */
function pathIds(records: readonly SearchRecord[], names: readonly string[]): Set<number> {
  const children = new Map<number, Map<string, number>>();
  let root: number | undefined;
  for (const r of records) {
    if (r.parentId === null) root ??= r.nodeId;
    else if (r.actionName !== null) {
      const byAction = children.get(r.parentId) ?? new Map<string, number>();
      if (!byAction.has(r.actionName)) byAction.set(r.actionName, r.nodeId);
      children.set(r.parentId, byAction);
    }
  }
  const ids = new Set<number>();
  if (root === undefined) return ids;
  ids.add(root);
  let current = root;
  for (const name of names) {
    const next = children.get(current)?.get(name);
    if (next === undefined) break;
    ids.add(next);
    current = next;
  }
  return ids;
}

const INSPECT_SEARCH_OPTIONS_KEYS = {
  title: true,
  maxExpansions: true,
  maxTreeNodes: true,
  heuristic: true,
  weight: true,
  maxNodes: true,
  timeBudgetMs: true,
  signal: true,
  blacklisted: true,
  blacklistFallback: true,
  prune: true,
  relevance: true,
  pruning: true,
} as const satisfies OptionKeys<InspectSearchOptions>;

/**
 * @internal Runs one planning call with expansion recording on (the
 * planner's opt-in `recordExpansions`; the default path records nothing)
 * and returns what the search view draws: status, figures, the tree of
 * the first `maxTreeNodes` expansions with g, h and f, the plan, and the
 * no-plan explanation.
 */
export function searchView(
  id: string,
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: InspectSearchOptions = {},
): Record<string, unknown> {
  checkOptionKeys(options, INSPECT_SEARCH_OPTIONS_KEYS, "inspector.search()");
  const { title, maxTreeNodes = DEFAULT_MAX_TREE_NODES, ...planOptions } = options;
  const weight = planOptions.weight ?? 1;
  const result = planDetailed(start, goal, actions, {
    ...planOptions,
    maxExpansions: planOptions.maxExpansions ?? 100_000,
    recordExpansions: true,
  });
  const records = result.expansions ?? [];
  const kept = records.slice(0, Math.max(0, maxTreeNodes));
  const onPath = result.plan ? pathIds(records, result.plan.actionNames) : new Set<number>();
  return {
    id,
    title: title ?? id,
    status: result.status,
    stats: result.stats,
    heuristic: result.plan?.metadata.heuristic ?? planOptions.heuristic ?? null,
    plan: result.plan ? { actions: [...result.plan.actionNames], cost: result.plan.totalCost } : null,
    budget: result.budget ?? null,
    explanation: result.status === "found" ? null : (result.explanation ?? null),
    expansions: records.length,
    omitted: records.length - kept.length,
    nodes: kept.map((r) => ({
      id: r.nodeId,
      parent: r.parentId,
      action: r.actionName,
      g: r.g,
      h: r.h,
      f: r.g + weight * r.h,
      path: onPath.has(r.nodeId),
      state: r.state,
    })),
  };
}
