import { describe, expect, it } from "vitest";
import { LangGoapError, MultiGoal } from "../../src/core/index.js";

describe("MultiGoal.perEntity", () => {
  it("makes one subgoal per entity, replacing the placeholder in keys and string values", () => {
    const goal = MultiGoal.perEntity(
      ["T1", 7],
      { "ticket_{entity}_state": "closed_by_{entity}", "ticket_{entity}_age": { lte: 3 } },
      "any",
      {
        goal: { policy: { maxReplans: 2 } },
        name: "tickets",
      },
    );
    expect(goal.mode).toBe("any");
    expect(goal.name).toBe("tickets");
    expect(goal.goals.map((g) => [g.name, g.conditions, g.policy.maxReplans])).toEqual([
      ["tickets[T1]", { ticket_T1_state: "closed_by_T1", ticket_T1_age: { lte: 3 } }, 2],
      ["tickets[7]", { ticket_7_state: "closed_by_7", ticket_7_age: { lte: 3 } }, 2],
    ]);
  });

  it("reads the entities from a world-state collection (array or object keyed by id) and gives per-entity values", () => {
    const fromArray = MultiGoal.perEntity({ state: { open: ["a", "b"] }, key: "open" }, { "{entity}_done": true }, "best_value", {
      value: { b: 9 },
    });
    expect(fromArray.goals.map((g) => [g.conditions, g.value])).toEqual([
      [{ a_done: true }, 1],
      [{ b_done: true }, 9],
    ]);
    const fromObject = MultiGoal.perEntity(
      { state: { tickets: { X1: { p: 1 }, X2: { p: 2 } } }, key: "tickets" },
      { "{entity}_done": true },
    );
    expect(fromObject.mode).toBe("sequential");
    expect(fromObject.goals.map((g) => Object.keys(g.conditions)[0])).toEqual(["X1_done", "X2_done"]);
  });

  it("refuses inputs that cannot make distinct goals, naming the problem", () => {
    const message = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(LangGoapError);
        expect((error as LangGoapError).code).toBe("INVALID_GOAL");
        return (error as Error).message;
      }
      throw new Error("expected an error");
    };
    expect(message(() => MultiGoal.perEntity([], { "{entity}": true }))).toBe(
      "MultiGoal.perEntity: expected a non-empty array of entity ids, got []",
    );
    expect(message(() => MultiGoal.perEntity(["a", "a"], { "{entity}": true }))).toBe('MultiGoal.perEntity: entity "a" appears twice');
    expect(message(() => MultiGoal.perEntity(["a b"], { "{entity}": true }))).toMatch(
      /entity ids must be integers or 1-64 letters.*"a b" at index 0/,
    );
    expect(message(() => MultiGoal.perEntity(["a"], { done: true }))).toMatch(/never mentions "\{entity\}"/);
    expect(message(() => MultiGoal.perEntity({ state: { open: 3 }, key: "open" }, { "{entity}": true }))).toMatch(
      /world-state key "open" must hold an array of entity ids or an object keyed by id, got 3/,
    );
    // Own properties only: an inherited member is not a collection.
    expect(message(() => MultiGoal.perEntity({ state: {}, key: "constructor" }, { "{entity}": true }))).toMatch(/"constructor" must hold/);
  });
});
