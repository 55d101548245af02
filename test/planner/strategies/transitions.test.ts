import { describe, expect, it } from "vitest";
import { ActionSpec, createRng, LangGoapError, type WorldState } from "../../../src/core/index.js";
import {
  assertExpectedMatchesDeclared,
  checkExpectedAgainstDeclared,
  DeterministicTransitionModel,
  DivergencePolicy,
  isStochasticModel,
  StochasticTransitionModel,
  slipOutcomes,
  type TransitionModel,
} from "../../../src/planner/index.js";

const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 2 }, tired: true, place: "forest" } });

/** A model whose expectation overrides chosen keys of the declared effects. */
function divergent(overrides: Record<string, unknown>, policy?: DivergencePolicy): TransitionModel {
  return {
    divergencePolicy: policy,
    expected: (state, action) => ({ ...action.getEffects(state), ...overrides }),
    sample: (state, action) => action.getEffects(state),
  };
}

function expectCode(fn: () => unknown, code: string): LangGoapError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(LangGoapError);
    expect((error as LangGoapError).code).toBe(code);
    return error as LangGoapError;
  }
  throw new Error("expected a LangGoapError");
}

describe("DeterministicTransitionModel", () => {
  it("expects and samples the declared effects", () => {
    const model = new DeterministicTransitionModel();
    expect(model.expected({ wood: 1 }, chop)).toEqual({ wood: 3, tired: true, place: "forest" });
    expect(model.sample({ wood: 1 }, chop, createRng(1))).toEqual({ wood: 3, tired: true, place: "forest" });
    expect(isStochasticModel(model)).toBe(false);
    assertExpectedMatchesDeclared(model, { wood: 1 }, chop);
  });

  it("treats models without a stochastic flag as stochastic", () => {
    expect(isStochasticModel(divergent({}))).toBe(true);
    expect(isStochasticModel({ ...divergent({}), stochastic: false })).toBe(false);
    expect(isStochasticModel(undefined)).toBe(false);
  });
});

describe("DivergencePolicy", () => {
  it("rejects a blank reason, an unknown kind and a negative bound", () => {
    expect(expectCode(() => new DivergencePolicy({ reason: "  " }), "INVALID_OPTION").message).toContain("reason");
    expectCode(() => new DivergencePolicy({ reason: "x", kind: "optimistic" as never }), "INVALID_OPTION");
    expectCode(() => new DivergencePolicy({ reason: "x", maxRelativeDeviation: -0.1 }), "INVALID_OPTION");
  });

  it("rejects a plain policy object with an empty reason at check time", () => {
    const model = divergent({ wood: 4 }, { reason: "", kind: "learned" } as unknown as DivergencePolicy);
    expectCode(() => assertExpectedMatchesDeclared(model, { wood: 1 }, chop), "INVALID_OPTION");
  });
});

describe("assertExpectedMatchesDeclared", () => {
  const state: WorldState = { wood: 10 };
  const bounded = new DivergencePolicy({ reason: "learned yields", kind: "learned", maxRelativeDeviation: 0.1 });

  it("without a policy, any difference fails and names the key", () => {
    const error = expectCode(() => assertExpectedMatchesDeclared(divergent({ wood: 12.5 }), state, chop), "INVALID_EFFECT");
    expect(error.message).toContain('action "chop"');
    expect(error.message).toContain('"wood"');
  });

  it("accepts numbers within the relative bound and rejects them beyond it", () => {
    // declared wood = 12: 13.2 deviates by exactly 0.1, 13.3 by 0.108.
    assertExpectedMatchesDeclared(divergent({ wood: 13.2 }, bounded), state, chop);
    const check = checkExpectedAgainstDeclared(divergent({ wood: 13.3 }, bounded), state, chop);
    expect(check.ok).toBe(false);
    expect(check.deviations).toHaveLength(1);
    expect(check.deviations[0]?.key).toBe("wood");
    expect(check.deviations[0]?.relativeDeviation).toBeCloseTo(1.3 / 12, 12);
  });

  it("measures small numbers against 1, not against themselves", () => {
    const tiny = new ActionSpec({ name: "nudge", effects: { x: 0 } });
    // |0.1 - 0| / max(0, 1) = 0.1: within a 0.1 bound.
    assertExpectedMatchesDeclared(divergent({ x: 0.1 }, bounded), {}, tiny);
    expect(checkExpectedAgainstDeclared(divergent({ x: 0.11 }, bounded), {}, tiny).ok).toBe(false);
  });

  it("lets an unbounded policy move numbers anywhere", () => {
    const unbounded = new DivergencePolicy({ reason: "hierarchical estimate", kind: "hierarchical" });
    assertExpectedMatchesDeclared(divergent({ wood: 1000 }, unbounded), state, chop);
  });

  it("always fails a flipped boolean or a changed string, even with a generous bound", () => {
    const generous = new DivergencePolicy({ reason: "anything numeric", maxRelativeDeviation: 100 });
    expect(checkExpectedAgainstDeclared(divergent({ tired: false }, generous), state, chop).deviations.map((d) => d.key)).toEqual([
      "tired",
    ]);
    expect(checkExpectedAgainstDeclared(divergent({ place: "river" }, generous), state, chop).deviations.map((d) => d.key)).toEqual([
      "place",
    ]);
    expect(checkExpectedAgainstDeclared(divergent({ wood: "lots" }, generous), state, chop).ok).toBe(false);
  });

  it("compares undeclared keys the model writes with their current value", () => {
    const generous = new DivergencePolicy({ reason: "side effects", maxRelativeDeviation: 0.5 });
    expect(checkExpectedAgainstDeclared(divergent({ stamina: 9 }, generous), { wood: 0, stamina: 10 }, chop).ok).toBe(true);
    expect(checkExpectedAgainstDeclared(divergent({ axe: "broken" }, generous), { wood: 0, axe: "sharp" }, chop).ok).toBe(false);
  });
});

describe("StochasticTransitionModel", () => {
  const move = (name: string, dx: number) => new ActionSpec({ name, effects: (s) => ({ x: (s.x as number) + dx }), effectKeys: ["x"] });
  const left = move("left", -1);
  const right = move("right", 1);
  const stay = new ActionSpec({ name: "stay", effects: { x: { inc: 0 } } });

  it("leaves the remaining probability to the declared effects", () => {
    const model = new StochasticTransitionModel({ outcomes: { right: slipOutcomes(0.2, [left, stay]) } });
    const outcomes = model.distribution({ x: 5 }, right);
    expect(outcomes.map((o) => [o.label, o.probability, o.updates.x])).toEqual([
      ["slip:left", 0.1, 4],
      ["slip:stay", 0.1, 5],
      ["declared", 0.8, 6],
    ]);
    expect(model.expected({ x: 5 }, right)).toEqual({ x: 6 });
    expect(model.distribution({ x: 5 }, left)).toEqual([{ probability: 1, label: "declared", updates: { x: 4 } }]);
    assertExpectedMatchesDeclared(model, { x: 5 }, right);
  });

  it("samples each outcome at its rate, reproducibly per seed", () => {
    const model = new StochasticTransitionModel({ outcomes: { right: slipOutcomes(0.2, [left, stay]) } });
    const counts = new Map<number, number>();
    const rng = createRng(42);
    for (let i = 0; i < 20_000; i++) {
      const x = model.sample({ x: 5 }, right, rng).x as number;
      counts.set(x, (counts.get(x) ?? 0) + 1);
    }
    expect((counts.get(6) ?? 0) / 20_000).toBeCloseTo(0.8, 1);
    expect((counts.get(4) ?? 0) / 20_000).toBeCloseTo(0.1, 1);
    expect((counts.get(5) ?? 0) / 20_000).toBeCloseTo(0.1, 1);
    const draw = (seed: number) => {
      const r = createRng(seed);
      return Array.from({ length: 30 }, () => model.sample({ x: 0 }, right, r).x);
    };
    expect(draw(3)).toEqual(draw(3));
  });

  it("supports state-dependent distributions and the most-likely expectation", () => {
    const model = new StochasticTransitionModel({
      outcomes: { right: (s) => [{ probability: (s.x as number) > 3 ? 0.9 : 0, effects: { x: 0 }, label: "reset" }] },
      expectation: "most-likely",
      divergencePolicy: new DivergencePolicy({ reason: "the far end usually resets", kind: "risk-averse" }),
    });
    expect(model.expected({ x: 1 }, right)).toEqual({ x: 2 });
    expect(model.expected({ x: 5 }, right)).toEqual({ x: 0 });
    // Numbers may diverge (unbounded policy).
    assertExpectedMatchesDeclared(model, { x: 5 }, right);
  });

  it("rejects bad distributions with the action named", () => {
    expect(
      expectCode(
        () => new StochasticTransitionModel({ outcomes: { right: [{ probability: 0.7 }, { probability: 0.6 }] } }),
        "INVALID_OPTION",
      ).message,
    ).toContain('"right"');
    expectCode(() => new StochasticTransitionModel({ outcomes: { right: [{ probability: -1 }] } }), "INVALID_OPTION");
    expectCode(
      () => new StochasticTransitionModel({ outcomes: { right: [{ probability: 0.1, as: left, effects: { x: 1 } }] } }),
      "INVALID_OPTION",
    );
    const typo = expectCode(() => new StochasticTransitionModel({ outcomes: { rigth: [] }, actions: [left, right] }), "UNKNOWN_ACTION");
    expect(typo.message).toContain('"rigth"');
    const lying = new StochasticTransitionModel({ outcomes: { right: () => [{ probability: 2 }] } });
    expectCode(() => lying.sample({ x: 0 }, right, createRng(1)), "INVALID_OPTION");
  });
});
