/**
 * Planning remembers action lists it has checked and sorted (a per-frame
 * planner passes the same list every call): what it remembers must never
 * hide a change the caller made to its array since.
 */
import { describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { plan, planDetailed } from "../../src/planner/index.js";

const a = new ActionSpec({ name: "a", effects: { x: true } });
const b = new ActionSpec({ name: "b", preconditions: { x: true }, effects: { y: true } });

describe("remembered action lists", () => {
  it("sees a duplicate pushed into an array that planned before", () => {
    const actions = [a, b];
    expect(plan({ x: false, y: false }, { y: true }, actions)?.actionNames).toEqual(["a", "b"]);
    actions.push(new ActionSpec({ name: "a", effects: { y: true } }));
    expect(() => plan({ x: false, y: false }, { y: true }, actions)).toThrow(LangGoapError);
    try {
      plan({ x: false, y: false }, { y: true }, actions);
    } catch (error) {
      expect((error as LangGoapError).code).toBe("DUPLICATE_ACTION");
    }
  });

  it("sees an action replaced in place and a non-action put in", () => {
    const actions: unknown[] = [a, b];
    expect(plan({ x: false, y: false }, { y: true }, actions as ActionSpec[])?.totalCost).toBe(2);
    const direct = new ActionSpec({ name: "b", effects: { y: true }, cost: 1 });
    actions[1] = direct;
    const found = planDetailed({ x: false, y: false }, { y: true }, actions as ActionSpec[]);
    expect(found.plan?.actionNames).toEqual(["b"]);
    actions[1] = { name: "b" };
    expect(() => plan({ x: false, y: false }, { y: true }, actions as ActionSpec[])).toThrow(/actions\[1\] is not an ActionSpec/);
  });

  it("plans the same with the same actions in another order and with a blacklist", () => {
    const c = new ActionSpec({ name: "c", effects: { y: true }, cost: 5 });
    const start = { x: false, y: false };
    expect(plan(start, { y: true }, [a, b, c])?.actionNames).toEqual(["a", "b"]);
    expect(plan(start, { y: true }, [c, b, a])?.actionNames).toEqual(["a", "b"]);
    expect(plan(start, { y: true }, [a, b, c], { blacklisted: ["a"], blacklistFallback: false })?.actionNames).toEqual(["c"]);
    expect(plan(start, { y: true }, [a, b, c])?.actionNames).toEqual(["a", "b"]);
  });
});
