import { describe, expect, it } from "vitest";
import { ConstraintSpec, GoalPolicy, GoalSpec, loadDomain, MultiGoal, toGoalSpec, validateDomain } from "../../src/core/index.js";
import { errorOf } from "./support.js";

describe("goals", () => {
  it("accepts plain policies and objective records, and validates them", () => {
    const g = new GoalSpec({ conditions: { done: true }, policy: { replanStrategy: "never" }, objectives: { usd: "minimize" } });
    expect(g.policy).toBeInstanceOf(GoalPolicy);
    expect(g.policy.maxReplans).toBe(10);
    expect(g.objectives).toEqual([{ key: "usd", direction: "minimize", weight: 1, name: "usd" }]);
    expect(g.needsOptimization).toBe(true);
    expect(errorOf(() => new GoalPolicy({ replanStrategy: "sometimes" as never })).message).toContain(
      '"on_deviation", "every_action" or "never"',
    );
    expect(errorOf(() => new ConstraintSpec({ key: "usd", min: 5, max: 1 })).message).toBe(
      'constraint on "usd": min (5) is greater than max (1)',
    );
    expect(new ConstraintSpec({ key: "usd", max: 5 }).violation(7)).toBe(2);
  });

  it("resolves values and rejects nested MultiGoals", () => {
    const g = new GoalSpec({ conditions: { x: true }, value: (s) => (s.peak ? 50 : 1) });
    expect(g.resolveValue({ peak: true })).toBe(50);
    const m = new MultiGoal({ goals: [{ a: true }, new GoalSpec({ conditions: { b: true } })], mode: "best_value" });
    expect(m.goals.map((x) => x.conditions)).toEqual([{ a: true }, { b: true }]);
    expect(() => new MultiGoal({ goals: [m as never] })).toThrow("nested MultiGoals are not supported");
    expect(() => toGoalSpec(m as never)).toThrow("MultiGoal cannot be planned directly");
  });
});

describe("loadDomain", () => {
  const yaml = `
facts:
  wood: { type: number, description: logs of wood }
  has_axe: { type: boolean }
  mood: { type: string, values: [happy, sad] }
state: { wood: 0, has_axe: true, mood: sad }
goal: { wood: { gte: 4 } }
actions:
  - name: chop
    preconditions: { has_axe: true }
    effects: { wood: { inc: 2 } }
    cost: 2
    description: chop a tree
`;

  it("loads YAML and JSON into validated specs", () => {
    const d = loadDomain(yaml);
    expect(d.actions.map((a) => a.name)).toEqual(["chop"]);
    expect(d.actions[0]?.description).toBe("chop a tree");
    expect(d.goal?.conditions).toEqual({ wood: { gte: 4 } });
    expect(d.state).toEqual({ wood: 0, has_axe: true, mood: "sad" });
    const json = loadDomain(
      JSON.stringify({ actions: [{ name: "a", effects: { x: true } }], goal: { conditions: { x: true }, policy: { maxReplans: 2 } } }),
    );
    expect(json.goal?.policy.maxReplans).toBe(2);
  });

  it("names the JSON path of schema errors", () => {
    const e = errorOf(() => loadDomain({ actions: [{ name: "a", cost: -1 }] }));
    expect(e.code).toBe("INVALID_DOMAIN");
    expect(e.message).toMatch(/^\$\.actions\[0\]\.cost: /);
    expect(errorOf(() => loadDomain("actions: [ {name: a}\n  - x")).message).toMatch(/not valid JSON or YAML \(line \d+, column \d+\)/);
    expect(errorOf(() => loadDomain({ actions: [{ name: "a" }, { name: "a" }] })).message).toContain('duplicate action name "a"');
  });

  it("checks keys and types against declared facts", () => {
    const unknown = errorOf(() => loadDomain(yaml.replace("goal: { wood: { gte: 4 } }", "goal: { stone: 1 }")));
    expect(unknown.code).toBe("UNKNOWN_FACT");
    expect(unknown.message).toBe('$.goal.stone (goal): unknown fact "stone"; declared facts are [wood, has_axe, mood]');
    expect(unknown.details.path).toBe("$.goal.stone");
    const strGte = errorOf(() => loadDomain(yaml.replace("preconditions: { has_axe: true }", "preconditions: { mood: { gte: 1 } }")));
    expect(strGte.message).toBe(
      '$.actions[0].preconditions.mood (action "chop" preconditions): "mood >= 1" compares numbers but fact "mood" is a string',
    );
    const badEnum = errorOf(() => loadDomain(yaml.replace("mood: sad }", "mood: angry }")));
    expect(badEnum.message).toContain('fact "mood" must be one of [happy, sad], got "angry"');
    const incBool = errorOf(() => loadDomain(yaml.replace("effects: { wood: { inc: 2 } }", "effects: { has_axe: { inc: 2 } }")));
    expect(incBool.message).toContain('"inc" changes a number but fact "has_axe" is a boolean');
    expect(() => validateDomain({ actions: [], facts: { a: { type: "boolean" } }, state: { b: true } })).toThrow('unknown fact "b"');
  });
});
