import { describeValue, LangGoapError } from "../core/errors.js";
import type { Plan, SearchRecord } from "../planner/index.js";
import { dotString } from "./dot-escape.js";
import { formatNumber, formatValue } from "./format.js";

/** Options of {@link renderSearchTree}. */
export interface SearchTreeOptions {
  /** The plan the search found: its path is drawn bold and ends in a goal node. */
  readonly plan?: Plan | null;
  /** Draw at most this many expansions (the first ones, in expansion order). @defaultValue 500 */
  readonly maxNodes?: number;
  /** Print each node's state in its label (it is always in the tooltip). @defaultValue false */
  readonly showState?: boolean;
}

/** One `key=value` line a fact, each escaped for a DOT string. */
function stateLines(state: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(state).map(([k, v]) => dotString(`${k}=${formatValue(v)}`));
}

/** Node ids along the plan's path, matched by action names from the root. */
function pathNodes(records: readonly SearchRecord[], plan: Plan): { nodes: Set<number>; last: number | undefined; complete: boolean } {
  const children = new Map<number, Map<string, number>>();
  let root: number | undefined;
  for (const r of records) {
    if (r.parentId === null) root ??= r.nodeId;
    else if (r.actionName !== null) {
      const byAction = children.get(r.parentId) ?? new Map<string, number>();
      byAction.set(r.actionName, r.nodeId);
      children.set(r.parentId, byAction);
    }
  }
  const nodes = new Set<number>();
  if (root === undefined) return { nodes, last: undefined, complete: false };
  nodes.add(root);
  let current = root;
  // The goal node is never expanded, so the path's last action has no record.
  const names = plan.actionNames;
  for (let i = 0; i < names.length - 1; i++) {
    const next = children.get(current)?.get(names[i] as string);
    if (next === undefined) return { nodes, last: current, complete: false };
    nodes.add(next);
    current = next;
  }
  return { nodes, last: current, complete: true };
}

/**
 * Exports the A* search tree recorded by
 * `planDetailed(start, goal, actions, { recordExpansions: true })` as a
 * Graphviz DOT digraph: one node an expansion (numbered in expansion order,
 * with the action that reached it, its cost so far g and heuristic h), edges from parent to
 * child, and the found plan's path drawn bold into a goal node.
 *
 * @example
 * ```ts
 * const result = planDetailed(start, goal, actions, { recordExpansions: true });
 * writeFileSync("search.dot", renderSearchTree(result.expansions ?? [], { plan: result.plan }));
 * ```
 * @param expansions - The recorded expansions, in order.
 * @param options - Path highlighting and size limits.
 * @returns DOT source ending with a newline.
 * @throws LangGoapError `INVALID_OPTION` when `maxNodes` is not a positive integer.
 */
export function renderSearchTree(expansions: readonly SearchRecord[], options: SearchTreeOptions = {}): string {
  const maxNodes = options.maxNodes ?? 500;
  if (!Number.isInteger(maxNodes) || maxNodes < 1) {
    throw new LangGoapError("INVALID_OPTION", `renderSearchTree: maxNodes must be a positive integer, got ${describeValue(maxNodes)}`, {
      field: "maxNodes",
      value: maxNodes,
    });
  }
  const shown = expansions.slice(0, maxNodes);
  const out = [
    "digraph SearchTree {",
    "    rankdir=TB;",
    '    node [shape=box, style="rounded,filled", fillcolor="#f4f6f8", fontname="Helvetica", fontsize=10];',
    '    edge [color="#8a99a8"];',
  ];
  const path = options.plan && !options.plan.isEmpty ? pathNodes(shown, options.plan) : undefined;
  const drawn = new Set<number>();
  const order = new Map<number, number>();
  shown.forEach((r, k) => {
    if (!order.has(r.nodeId)) order.set(r.nodeId, k);
  });
  for (const r of shown) {
    if (drawn.has(r.nodeId)) continue;
    drawn.add(r.nodeId);
    const k = order.get(r.nodeId) as number;
    const lines = [`#${k} ${r.actionName ?? "start"}`, `g=${formatNumber(r.g)} h=${formatNumber(r.h)}`].map(dotString);
    const state = stateLines(r.state);
    if (options.showState) lines.push(...state);
    const onPath = path?.nodes.has(r.nodeId) ? ', fillcolor="#d4edda", color="#2d8a4e", penwidth=2' : "";
    out.push(`    n${r.nodeId} [label="${lines.join("\\n")}", tooltip="${state.join("\\n")}"${onPath}];`);
  }
  const edges = new Set<string>();
  for (const r of shown) {
    if (r.parentId === null || !drawn.has(r.parentId)) continue;
    const edge = `n${r.parentId} -> n${r.nodeId}`;
    if (edges.has(edge)) continue;
    edges.add(edge);
    const bold = path?.nodes.has(r.parentId) && path.nodes.has(r.nodeId) ? ' [color="#2d8a4e", penwidth=2]' : "";
    out.push(`    ${edge}${bold};`);
  }
  if (path?.complete && path.last !== undefined && options.plan) {
    const last = options.plan.actionNames[options.plan.actions.length - 1] as string;
    const goalLabel = [`goal via ${last}`, `g=${formatNumber(options.plan.totalCost)}`].map(dotString).join("\\n");
    out.push(`    goal [label="${goalLabel}", shape=doubleoctagon, fillcolor="#d4edda", color="#2d8a4e"];`);
    out.push(`    n${path.last} -> goal [color="#2d8a4e", penwidth=2];`);
  }
  if (expansions.length > shown.length) {
    out.push(
      `    truncated [shape=note, fillcolor="#fff8dc", label="${expansions.length - shown.length} more expansion(s) not drawn (maxNodes=${maxNodes})"];`,
    );
  }
  out.push("}");
  return `${out.join("\n")}\n`;
}
