import { factOf, type WorldState } from "../../../core/facts.js";

/**
 * Builds the function MCTS uses to tell states apart: the values of the
 * planning keys (missing keys distinct from `null`), plus the run-once
 * actions already used. Keys outside planning never split a node.
 * @internal
 */
export function createStateKey(keys: readonly string[]): (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string {
  const sorted = [...keys].sort();
  return (state, spent) => {
    let key = "";
    for (const k of sorted) {
      const v = factOf(state, k);
      key += v === undefined ? "\u0001" : typeof v === "string" ? JSON.stringify(v) : String(v);
      key += "\u0000";
    }
    if (spent.size > 0) key += `|${[...spent].sort().join(",")}`;
    return key;
  };
}
