import { describe, expect, it } from "vitest";
import { ActionSpec, createRng, GoalSpec, type WorldState } from "../../src/core/index.js";
import { enumeratePlans } from "../../src/optimize/index.js";
import { plan as astar, replayPlan } from "../../src/planner/index.js";

/** A random road network: move_u_v actions with costs. */
function roads(seed: number, nodes: number, density: number): ActionSpec[] {
  const rng = createRng(seed);
  const out: ActionSpec[] = [];
  for (let u = 0; u < nodes; u++) {
    for (let v = 0; v < nodes; v++) {
      if (u !== v && rng.next() < density) {
        out.push(new ActionSpec({ name: `move_${u}_${v}`, preconditions: { at: `n${u}` }, effects: { at: `n${v}` }, cost: rng.int(1, 5) }));
      }
    }
  }
  return out;
}

/** Every plan that ends when the goal first holds and never revisits a state, by exhaustive search. */
function allSimplePlans(start: WorldState, goal: GoalSpec, actions: ActionSpec[]): { names: string[]; cost: number }[] {
  const out: { names: string[]; cost: number }[] = [];
  const key = (s: WorldState) => JSON.stringify(Object.entries(s).sort());
  const visit = (state: WorldState, names: string[], cost: number, seen: Set<string>) => {
    if (goal.isSatisfied(state)) {
      out.push({ names: [...names], cost });
      return;
    }
    for (const a of actions) {
      if (!a.isApplicable(state)) continue;
      const next = a.apply(state);
      if (seen.has(key(next))) continue;
      seen.add(key(next));
      names.push(a.name);
      visit(next, names, cost + a.getCost(state), seen);
      names.pop();
      seen.delete(key(next));
    }
  };
  visit(start, [], 0, new Set([key(start)]));
  return out.sort((a, b) => a.cost - b.cost);
}

describe("enumeratePlans (k cheapest plans)", () => {
  it("returns exactly the k cheapest simple plans, cheapest first, on random networks", () => {
    const counts: number[] = [];
    const k = 10;
    for (let seed = 1; seed <= 12; seed++) {
      const actions = roads(seed, 9, 0.5);
      const goal = new GoalSpec({ conditions: { at: "n8" } });
      const start = { at: "n0" };
      const expected = allSimplePlans(start, goal, actions);
      const found = enumeratePlans(start, goal, actions, { count: k });
      counts.push(expected.length);
      expect(found.length, `seed ${seed}`).toBe(Math.min(k, expected.length));
      expect(
        found.map((p) => p.totalCost),
        `seed ${seed}`,
      ).toEqual(expected.slice(0, k).map((p) => p.cost));
      const names = found.map((p) => p.actionNames.join(" "));
      expect(new Set(names).size).toBe(found.length);
      for (const p of found) {
        expect(replayPlan(start, p.actions, goal).valid).toBe(true);
        expect(expected.some((e) => e.names.join(" ") === p.actionNames.join(" "))).toBe(true);
      }
      if (expected.length > 0) expect(found[0]?.totalCost).toBe(astar(start, goal, actions)?.totalCost);
    }
    // The instances are rich enough to matter: most have more simple plans than k.
    expect(counts.filter((c) => c > k).length).toBeGreaterThanOrEqual(10);
  });

  it("counts reorderings of the same actions once in 'actions' mode", () => {
    const a = new ActionSpec({ name: "a", effects: { a: true }, cost: 1 });
    const b = new ActionSpec({ name: "b", effects: { b: true }, cost: 1 });
    const c = new ActionSpec({ name: "c", effects: { a: true, b: true }, cost: 5 });
    const goal = { a: true, b: true };
    expect(enumeratePlans({}, goal, [a, b, c], { count: 3 }).map((p) => p.actionNames.join(""))).toEqual(["ab", "ba", "c"]);
    expect(enumeratePlans({}, goal, [a, b, c], { count: 3, distinct: "actions" }).map((p) => p.actionNames.join(""))).toEqual([
      "ab",
      "c",
      "ac",
    ]);
  });

  it("in 'actions' mode never enumerates reorderings of independent actions, however many there are", () => {
    // Six independent jobs have 720 orders; the second-cheapest way to do the project uses a faster variant of job 0.
    const jobs = Array.from({ length: 6 }, (_, i) => new ActionSpec({ name: `job${i}`, effects: { [`done${i}`]: true }, cost: 1 }));
    const express = new ActionSpec({ name: "job0_express", effects: { done0: true }, cost: 3 });
    const goal = Object.fromEntries(jobs.map((_, i) => [`done${i}`, true]));
    const plans = enumeratePlans({}, goal, [...jobs, express], { count: 3, distinct: "actions", maxSearches: 200 });
    expect(plans.map((p) => [p.actionNames.join(" "), p.totalCost])).toEqual([
      ["job0 job1 job2 job3 job4 job5", 6],
      ["job1 job2 job3 job4 job5 job0_express", 8],
    ]);
  });

  it("respects canRerun: false and the blacklist", () => {
    const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 1 } }, cost: 1, canRerun: false });
    const buy = new ActionSpec({ name: "buy", effects: { wood: { inc: 1 } }, cost: 3 });
    const goal = { wood: { gte: 2 } };
    const plans = enumeratePlans({ wood: 0 }, goal, [chop, buy], { count: 5 });
    expect(plans.map((p) => p.actionNames.join(","))).toEqual(["chop,buy", "buy,chop", "buy,buy"]);
    expect(enumeratePlans({ wood: 0 }, goal, [chop, buy], { count: 5, blacklisted: ["chop"] }).map((p) => p.actionNames.join(","))).toEqual(
      ["buy,buy"],
    );
  });

  it("handles a goal that already holds, no plan, and bad options", () => {
    const noop = new ActionSpec({ name: "noop", effects: { x: 1 } });
    expect(enumeratePlans({ done: true }, { done: true }, [noop]).map((p) => p.length)).toEqual([0]);
    expect(enumeratePlans({}, { done: true }, [noop])).toEqual([]);
    expect(() => enumeratePlans({}, { done: true }, [noop], { count: -1 })).toThrow(/count must be an integer >= 0/);
  });

  it("stops deterministically when the search budget is spent", () => {
    const actions = roads(3, 7, 0.6);
    const goal = { at: "n6" };
    const few = enumeratePlans({ at: "n0" }, goal, actions, { count: 50, maxSearches: 5 });
    const again = enumeratePlans({ at: "n0" }, goal, actions, { count: 50, maxSearches: 5 });
    expect(few.length).toBeLessThan(50);
    expect(few.map((p) => p.actionNames)).toEqual(again.map((p) => p.actionNames));
  });
});
