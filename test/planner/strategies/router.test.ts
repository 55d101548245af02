import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, LangGoapError, type PlanningTracer, type WorldState } from "../../../src/core/index.js";
import {
  DeterministicTransitionModel,
  DivergencePolicy,
  extractFeatures,
  Plan,
  type PlanningStrategy,
  type ProblemFeatures,
  RuleBasedClassifier,
  StochasticTransitionModel,
  type StrategyContext,
  StrategyRouter,
} from "../../../src/planner/index.js";

/** `n` independent actions each setting its own flag. */
function manyActions(n: number): ActionSpec[] {
  return Array.from({ length: n }, (_, i) => new ActionSpec({ name: `set_${i}`, effects: { [`f${i}`]: true } }));
}

const plainGoal = new GoalSpec({ conditions: { f0: true } });
const start: WorldState = { f0: false };
const riskAverse = new DeterministicTransitionModel({
  divergencePolicy: new DivergencePolicy({ reason: "assume the worst", kind: "risk-averse" }),
});
const stochastic = new StochasticTransitionModel({ outcomes: {} });

function classify(
  goal: GoalSpec,
  actions: ActionSpec[],
  options: ConstructorParameters<typeof RuleBasedClassifier>[0] = {},
  model?: object,
) {
  const features = extractFeatures(start, goal, actions, model ? { transitionModel: model as never } : {});
  return new RuleBasedClassifier(options).classify(features);
}

describe("extractFeatures", () => {
  it("measures size, goal extras and the model", () => {
    const goal = new GoalSpec({ conditions: { f0: true, f1: true, f2: false } });
    const actions = [...manyActions(3), new ActionSpec({ name: "gated", preconditions: { f1: true }, effects: { f2: false } })];
    const f = extractFeatures({ f0: true, f1: false }, goal, actions, { transitionModel: stochastic, blacklisted: ["set_2"] });
    expect(f).toEqual({
      actionCount: 3,
      applicableAtStart: 2,
      goalConditionCount: 3,
      unmetGoalConditions: 2,
      horizonEstimate: 6,
      hasConstraints: false,
      hasObjectives: false,
      hasMetrics: false,
      metricNames: [],
      hasSoftGoals: false,
      isStochastic: true,
      riskProfile: "strict",
    });
    expect(extractFeatures(start, plainGoal, [], { transitionModel: riskAverse }).riskProfile).toBe("risk-averse");
    expect(extractFeatures(start, plainGoal, []).isStochastic).toBe(false);
  });
});

describe("RuleBasedClassifier", () => {
  const actions = manyActions(2);

  it("rule 1: constraints, objectives or metrics go to the csp-pipeline, before any other rule", () => {
    expect(classify(plainGoal.with({ constraints: [{ key: "usd", max: 10 }] }), actions)).toBe("csp-pipeline");
    expect(classify(plainGoal.with({ objectives: { minutes: "minimize" } }), actions)).toBe("csp-pipeline");
    expect(classify(plainGoal.with({ metrics: [{ name: "len", weight: 1, evaluate: () => 0 }] }), actions)).toBe("csp-pipeline");
    expect(classify(plainGoal.with({ constraints: [{ key: "usd", max: 10 }] }), actions, {}, riskAverse)).toBe("csp-pipeline");
  });

  it("rule 2: a risk-averse divergence policy goes to mcts; other kinds do not", () => {
    expect(classify(plainGoal, actions, {}, riskAverse)).toBe("mcts");
    const learned = new DeterministicTransitionModel({ divergencePolicy: new DivergencePolicy({ reason: "fitted", kind: "learned" }) });
    expect(classify(plainGoal, actions, {}, learned)).toBe("astar");
  });

  it("rule 3: a stochastic model goes to mcts only when opted in", () => {
    expect(classify(plainGoal, actions, { preferMctsForStochastic: true }, stochastic)).toBe("mcts");
    expect(classify(plainGoal, actions, {}, stochastic)).toBe("astar");
    expect(classify(plainGoal, actions, { preferMctsForStochastic: true })).toBe("astar");
  });

  it("rule 4: wide and deep problems go to mcts, at the thresholds exactly", () => {
    // 30 actions x 1 unmet condition = horizon 30.
    expect(classify(plainGoal, manyActions(30))).toBe("mcts");
    expect(classify(plainGoal, manyActions(29))).toBe("astar");
    expect(classify(plainGoal, manyActions(30), { horizonThreshold: 31 })).toBe("astar");
    expect(classify(plainGoal, manyActions(30), { horizonThreshold: 30 })).toBe("mcts");
    // Nothing unmet: horizon 0.
    expect(new RuleBasedClassifier().classify(extractFeatures({ f0: true }, plainGoal, manyActions(40)))).toBe("astar");
  });

  it("rule 5: everything else goes to astar", () => {
    expect(classify(plainGoal, actions)).toBe("astar");
  });

  it("rejects negative thresholds", () => {
    expect(() => new RuleBasedClassifier({ branchingThreshold: -1 })).toThrow(LangGoapError);
  });
});

/** A strategy that records its calls and returns a one-step plan named after itself. */
function fake(name: string, calls: Array<{ name: string; context: StrategyContext }>): PlanningStrategy {
  return {
    name,
    async plan(s, _goal, acts, context = {}) {
      calls.push({ name, context });
      return new Plan({ actions: [acts[0] as ActionSpec], expectedStates: [{ ...s }], totalCost: 1, metadata: { strategy: name } });
    },
  };
}

describe("StrategyRouter", () => {
  it("delegates to the chosen strategy and reports the choice everywhere", async () => {
    const calls: Array<{ name: string; context: StrategyContext }> = [];
    const chosen: Array<[string, ProblemFeatures]> = [];
    const traced: string[] = [];
    const tracer: PlanningTracer = { onStrategyChosen: (name) => void traced.push(name) };
    const router = new StrategyRouter({
      strategies: { astar: fake("astar", calls), mcts: fake("mcts", calls) },
      transitionModel: stochastic,
      classifier: new RuleBasedClassifier({ preferMctsForStochastic: true }),
      onStrategyChosen: (name, features) => void chosen.push([name, features]),
    });
    expect(router.lastChosen).toBeUndefined();
    const p = await router.plan(start, plainGoal, manyActions(2), { tracer, blacklisted: ["set_1"], currentStep: 3 });
    expect(p?.metadata.strategy).toBe("mcts");
    expect(router.lastChosen).toBe("mcts");
    expect(router.lastFeatures?.actionCount).toBe(1);
    expect(chosen.map(([n]) => n)).toEqual(["mcts"]);
    expect(chosen[0]?.[1].isStochastic).toBe(true);
    expect(traced).toEqual(["mcts"]);
    expect(calls).toHaveLength(1);
    expect([...(calls[0]?.context.blacklisted ?? [])]).toEqual(["set_1"]);
    expect(calls[0]?.context.currentStep).toBe(3);
  });

  it("accepts a plain function as the classifier", async () => {
    const calls: Array<{ name: string; context: StrategyContext }> = [];
    const router = new StrategyRouter({
      strategies: new Map([
        ["small", fake("small", calls)],
        ["large", fake("large", calls)],
      ]),
      classifier: (f) => (f.actionCount > 3 ? "large" : "small"),
    });
    await router.plan(start, plainGoal, manyActions(2));
    await router.plan(start, plainGoal, manyActions(5));
    expect(calls.map((c) => c.name)).toEqual(["small", "large"]);
    expect(router.lastChosen).toBe("large");
  });

  it("raises UNKNOWN_STRATEGY for an unregistered name by default, naming both", async () => {
    const router = new StrategyRouter({ strategies: { astar: fake("astar", []) }, classifier: () => "mcts" });
    const error = await router.plan(start, plainGoal, manyActions(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangGoapError);
    expect((error as LangGoapError).code).toBe("UNKNOWN_STRATEGY");
    expect((error as LangGoapError).message).toContain('"mcts"');
    expect((error as LangGoapError).message).toContain("[astar]");
    expect(router.lastChosen).toBeUndefined();
  });

  it("falls back to the default with onUnknown: 'default'", async () => {
    const calls: Array<{ name: string; context: StrategyContext }> = [];
    const router = new StrategyRouter({
      strategies: { astar: fake("astar", calls), repair: fake("repair", calls) },
      classifier: () => "quantum",
      default: "repair",
      onUnknown: "default",
    });
    await router.plan(start, plainGoal, manyActions(1));
    expect(router.lastChosen).toBe("repair");
    expect(calls.map((c) => c.name)).toEqual(["repair"]);
  });

  it("rejects a default that is not registered, and empty registries", () => {
    const error = (() => {
      try {
        new StrategyRouter({ strategies: { mcts: fake("mcts", []) }, onUnknown: "default" });
      } catch (e) {
        return e as LangGoapError;
      }
      return undefined;
    })();
    expect(error?.code).toBe("UNKNOWN_STRATEGY");
    expect(error?.message).toContain('"astar"');
    expect(() => new StrategyRouter({ strategies: {} })).toThrow(LangGoapError);
  });

  it("ignores a throwing hook and a throwing tracer", async () => {
    const router = new StrategyRouter({
      strategies: { astar: fake("astar", []) },
      onStrategyChosen: () => {
        throw new Error("hook bug");
      },
    });
    const tracer: PlanningTracer = {
      onStrategyChosen: () => {
        throw new Error("tracer bug");
      },
    };
    expect((await router.plan(start, plainGoal, manyActions(1), { tracer }))?.metadata.strategy).toBe("astar");
  });
});
