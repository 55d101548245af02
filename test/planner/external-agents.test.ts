import { describe, expect, it } from "vitest";
import { ActionSpec, createRng, GoalSpec, LangGoapError, type WorldState } from "../../src/core/index.js";
import {
  AStarStrategy,
  type ExternalAgent,
  ExternalAgentsTransitionModel,
  MCTSStrategy,
  StochasticTransitionModel,
  UniformRandomAgentModel,
} from "../../src/planner/index.js";

const step = new ActionSpec({ name: "step", preconditions: { caught: false }, effects: { at: "next" } });

const patrol: Record<string, string[]> = { room: ["room", "hall"], hall: ["room", "hall"] };
const guardModel = new UniformRandomAgentModel<string>({ enumerateMoves: (s) => patrol[s.guard as string] ?? [], defaultMove: "room" });
const guard: ExternalAgent<string> = {
  name: "guard",
  model: guardModel,
  apply: (s, to) => ({ guard: to, caught: s.at === to }),
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof LangGoapError ? error.code : `not a LangGoapError: ${String(error)}`;
  }
  return undefined;
}

describe("UniformRandomAgentModel", () => {
  it("expects the default move, samples every open move with the seeded generator, and lists them uniformly", () => {
    expect(guardModel.expected({ guard: "hall" })).toBe("room");
    const rng = createRng(3);
    const seen = new Set(Array.from({ length: 200 }, () => guardModel.sample({ guard: "hall" }, rng)));
    expect([...seen].sort()).toEqual(["hall", "room"]);
    const again = createRng(3);
    const replay = createRng(3);
    expect(Array.from({ length: 20 }, () => guardModel.sample({ guard: "hall" }, again))).toEqual(
      Array.from({ length: 20 }, () => guardModel.sample({ guard: "hall" }, replay)),
    );
    expect(guardModel.distribution({ guard: "hall" })).toEqual([
      { move: "room", probability: 0.5 },
      { move: "hall", probability: 0.5 },
    ]);
  });

  it("makes the default move when no move is open, and refuses a bad enumerateMoves", () => {
    expect(guardModel.sample({ guard: "nowhere" }, createRng(1))).toBe("room");
    expect(guardModel.distribution({ guard: "nowhere" })).toEqual([{ move: "room", probability: 1 }]);
    expect(codeOf(() => new UniformRandomAgentModel({ enumerateMoves: 3 as never, defaultMove: 0 }))).toBe("INVALID_OPTION");
    const broken = new UniformRandomAgentModel({ enumerateMoves: () => "left" as never, defaultMove: "stay" });
    expect(() => broken.sample({}, createRng(1))).toThrow(/enumerateMoves must return an array of moves, got "left"/);
  });
});

describe("ExternalAgentsTransitionModel", () => {
  const model = new ExternalAgentsTransitionModel({ agents: [guard] });
  const start: WorldState = { at: "door", guard: "hall", caught: false };

  it("adds the agents' expected moves to the action's effects, computed on the state after the action", () => {
    expect(model.expected(start, step)).toEqual({ at: "next", guard: "room", caught: false });
    expect(model.stochastic).toBe(true);
    expect(model.divergencePolicy.reason).toBe("other agents (guard) move after each action");
  });

  it("samples the agents' moves with the planner's generator", () => {
    const outcomes = new Set<string>();
    const rng = createRng(11);
    for (let i = 0; i < 100; i++) outcomes.add(JSON.stringify(model.sample(start, step, rng)));
    expect([...outcomes].sort()).toEqual([
      JSON.stringify({ at: "next", guard: "hall", caught: false }),
      JSON.stringify({ at: "next", guard: "room", caught: false }),
    ]);
  });

  it("lists every joint outcome of a stochastic base and several agents, probabilities adding up to 1", () => {
    const slip = new StochasticTransitionModel({
      outcomes: { step: [{ probability: 0.25, effects: { at: "hall" }, label: "slip" }] },
      actions: [step],
    });
    const cat: ExternalAgent<string> = {
      name: "cat",
      model: new UniformRandomAgentModel({ enumerateMoves: () => ["sleeps", "hunts"], defaultMove: "sleeps" }),
      apply: (_s, mood) => ({ cat: mood }),
    };
    const both = new ExternalAgentsTransitionModel({ base: slip, agents: [guard, cat] });
    const outcomes = both.distribution?.(start, step) ?? [];
    expect(outcomes).toHaveLength(8);
    expect(outcomes.reduce((sum, o) => sum + o.probability, 0)).toBeCloseTo(1, 12);
    // Slipping into the hall as the guard stays there: caught, with probability 0.25 · 0.5 · 0.5.
    const caught = outcomes.filter((o) => o.updates.caught === true);
    expect(caught.map((o) => o.probability)).toEqual([0.0625, 0.0625]);
    expect(caught[0]?.label).toBe('slip; guard "hall"; cat "sleeps"');
    expect(caught[0]?.updates).toEqual({ at: "hall", caught: true, cat: "sleeps" });
  });

  it("lists no outcomes when told not to, or when a part cannot list its own", () => {
    expect(new ExternalAgentsTransitionModel({ agents: [guard], listOutcomes: false }).distribution).toBeUndefined();
    const sampler = { expected: () => "room", sample: () => "hall" };
    expect(new ExternalAgentsTransitionModel({ agents: [{ ...guard, model: sampler }] }).distribution).toBeUndefined();
  });

  it("refuses bad agents, naming the agent and what was expected", () => {
    expect(codeOf(() => new ExternalAgentsTransitionModel({ agents: [] }))).toBe("INVALID_OPTION");
    expect(() => new ExternalAgentsTransitionModel({ agents: [guard, { ...guard }] })).toThrow(
      /agents\[1\]\.name "guard" is used by another agent/,
    );
    expect(() => new ExternalAgentsTransitionModel({ agents: [{ ...guard, model: {} as never }] })).toThrow(
      /\("guard"\)\.model must be an AgentModel/,
    );
    expect(() => new ExternalAgentsTransitionModel({ agents: [{ ...guard, apply: null as never }] })).toThrow(
      /\("guard"\)\.apply must be a function/,
    );
    const liar = new ExternalAgentsTransitionModel({ agents: [{ ...guard, apply: () => "moved" as never }] });
    expect(codeOf(() => liar.expected(start, step))).toBe("INVALID_EFFECT");
    expect(() => liar.expected(start, step)).toThrow(
      /external agent "guard": apply\(state, "room"\) must return an object of fact updates, got "moved"/,
    );
  });

  it("lets MCTS take the longer, safe way that A* (blind to the guard) does not", async () => {
    // Two ways to the vault: through the hall the guard patrols (2 moves) or the shaft (3 moves).
    const move = (from: string, to: string) =>
      new ActionSpec({ name: `${from}_to_${to}`, preconditions: { at: from, caught: false }, effects: { at: to } });
    const actions = [move("door", "hall"), move("hall", "vault"), move("door", "shaft"), move("shaft", "duct"), move("duct", "vault")];
    const vault = new GoalSpec({ conditions: { at: "vault" } });
    const hallGuard: ExternalAgent<string> = {
      ...guard,
      model: new UniformRandomAgentModel<string>({ enumerateMoves: () => ["room", "hall"], defaultMove: "room" }),
      apply: (s, to) => ({ guard: to, caught: s.caught === true || s.at === to || s.at === s.guard }),
    };
    const world = new ExternalAgentsTransitionModel({ agents: [hallGuard] });
    const astar = await new AStarStrategy().plan(start, vault, actions);
    expect(astar?.actionNames).toEqual(["door_to_hall", "hall_to_vault"]);
    const mcts = await new MCTSStrategy({ transitionModel: world, iterations: 300, wallClockMs: Infinity, seed: 1 }).plan(
      start,
      vault,
      actions,
    );
    expect(mcts?.actionNames[0]).toBe("door_to_shaft");
  });
});
