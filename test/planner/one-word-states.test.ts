import { describe, expect, it } from "vitest";
import { CHAIN_INSTANCES, chainProblem, chainToLanggoap } from "../../bench/problems.js";
import { ActionSpec } from "../../src/core/index.js";
import { planDetailed } from "../../src/planner/index.js";

/** The search's outcome, comparable across engines. */
function outcome(r: ReturnType<typeof planDetailed>) {
  return {
    status: r.status,
    plan: r.plan?.actions.map((a) => a.name),
    cost: r.plan?.totalCost,
    expanded: r.stats.nodesExpanded,
    generated: r.stats.nodesGenerated,
  };
}

describe("boolean states of one word", () => {
  it.each(["chain-M", "chain-L"])("make the same search as wider states, blind and with hmax (%s)", (name) => {
    const { actions, start, goal } = chainToLanggoap(chainProblem(CHAIN_INSTANCES[name as keyof typeof CHAIN_INSTANCES]));
    // 40 more facts, each set by an action no state can run (`never` is false and nothing sets it): two words a
    // state, the same reachable states.
    const wide: Record<string, boolean> = { ...(start as Record<string, boolean>), never: false };
    for (let i = 0; i < 40; i++) wide[`pad${i}`] = false;
    const padding = Array.from(
      { length: 40 },
      (_, i) => new ActionSpec({ name: `pad${i}`, preconditions: { never: true, [`pad${i}`]: false }, effects: { [`pad${i}`]: true } }),
    );
    for (const heuristic of ["zero", "hmax"] as const) {
      for (const relevance of [true, false]) {
        const narrow = planDetailed(start, goal, actions, { heuristic, relevance });
        const wider = planDetailed(wide, goal, [...actions, ...padding], { heuristic, relevance });
        expect(narrow.status).toBe("found");
        expect(outcome(wider)).toEqual(outcome(narrow));
      }
    }
  });
});
