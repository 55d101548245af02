import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, LangGoapError } from "../../../src/core/index.js";
import { isNirvana, NIRVANA_NAME, NirvanaGoal, UtilityStrategy } from "../../../src/planner/index.js";

const eat = new ActionSpec({ name: "eat", preconditions: { hungry: true }, effects: { hungry: false }, utility: 8, cost: 3 });
const nap = new ActionSpec({ name: "nap", effects: { rested: true }, utility: 6, cost: 1 });
const work = new ActionSpec({ name: "work", effects: { gold: { inc: 1 } }, utility: (s) => ((s.gold as number) < 3 ? 9 : 0), cost: 2 });
const party = new ActionSpec({ name: "party", preconditions: { gold: { gte: 10 } }, effects: { gold: 0 }, utility: 100 });

describe("NirvanaGoal", () => {
  it("is never satisfied, carries the Nirvana name and replans every action", () => {
    const goal = new NirvanaGoal();
    expect(goal.isSatisfied({})).toBe(false);
    expect(goal.name).toBe(NIRVANA_NAME);
    expect(goal.conditions).toEqual({});
    expect(goal.policy.replanStrategy).toBe("every_action");
    expect(Object.isFrozen(goal)).toBe(true);
    const copy = goal.with({ value: 5 });
    expect(copy).toBeInstanceOf(NirvanaGoal);
    expect(copy.isSatisfied({})).toBe(false);
    expect(copy.value).toBe(5);
  });

  it("rejects conditions", () => {
    expect(() => new NirvanaGoal({ conditions: { x: true } } as never)).toThrow(LangGoapError);
  });

  it("isNirvana recognises Nirvana goals, also restored from JSON, and nothing else", () => {
    expect(isNirvana(new NirvanaGoal())).toBe(true);
    expect(isNirvana(new GoalSpec({ name: NIRVANA_NAME }))).toBe(true);
    expect(isNirvana(new GoalSpec({ name: NIRVANA_NAME, conditions: { x: true } }))).toBe(false);
    expect(isNirvana(new GoalSpec({ conditions: {} }))).toBe(false);
    expect(isNirvana({ name: NIRVANA_NAME })).toBe(false);
  });
});

describe("UtilityStrategy", () => {
  const strategy = new UtilityStrategy();
  const nirvana = new NirvanaGoal();

  it("picks the applicable action with the highest utility minus cost", async () => {
    // eat 8-3=5, nap 6-1=5, work 9-2=7; party is not applicable.
    const p = await strategy.plan({ hungry: true, gold: 0 }, nirvana, [eat, nap, work, party]);
    expect(p?.actionNames).toEqual(["work"]);
    expect(p?.totalCost).toBe(2);
    expect(p?.expectedStates).toEqual([{ hungry: true, gold: 1 }]);
    expect(p?.metadata).toMatchObject({ strategy: "utility", applicableCount: 3, utility: 9, netValue: 7 });
  });

  it("evaluates utility in the current state, breaks ties by order, and skips the blacklist", async () => {
    // work is worth 0-2 when rich: eat and nap tie at 5, eat comes first.
    expect((await strategy.plan({ hungry: true, gold: 5 }, nirvana, [eat, nap, work]))?.actionNames).toEqual(["eat"]);
    expect((await strategy.plan({ hungry: true, gold: 5 }, nirvana, [nap, eat, work]))?.actionNames).toEqual(["nap"]);
    const p = await strategy.plan({ hungry: true, gold: 0 }, nirvana, [eat, nap, work], { blacklisted: ["work"] });
    expect(p?.actionNames).toEqual(["eat"]);
  });

  it("returns null when nothing applies or nothing is worth the floor", async () => {
    expect(await strategy.plan({ gold: 0 }, nirvana, [party])).toBeNull();
    expect(await new UtilityStrategy({ minNetValue: 6 }).plan({ hungry: true, gold: 5 }, nirvana, [eat, nap])).toBeNull();
  });

  it("returns an empty plan when an ordinary goal already holds", async () => {
    const p = await strategy.plan({ rested: true }, new GoalSpec({ conditions: { rested: true } }), [nap]);
    expect(p?.isEmpty).toBe(true);
  });
});
