import { describe, expect, it } from "vitest";
import { ActionSpec, BendableScore, GoalSpec, HardSoftScore, type PlanningTracer } from "../../src/core/index.js";
import {
  CSPRefinementStrategy,
  type InfeasibilityExplanation,
  type OptimizeMetadata,
  pipelinePlan,
  type SolverName,
  TwoPhasePipelineStrategy,
} from "../../src/optimize/index.js";
import { AStarStrategy, plan as astar, type Plan } from "../../src/planner/index.js";

const SOLVERS: SolverName[] = ["highs", "javascript-lp-solver"];

const act = (name: string, pre: Record<string, boolean>, eff: string, cost: number, usd: number, minutes: number) =>
  new ActionSpec({ name, preconditions: pre, effects: { [eff]: true }, cost, resources: { usd, minutes }, durationMs: minutes * 1000 });

const actions = [
  act("search_web", {}, "sources", 1, 0.01, 5),
  act("buy_dataset", {}, "sources", 3, 5, 1),
  act("draft_gpt4", { sources: true }, "draft", 1, 3, 2),
  act("draft_local", { sources: true }, "draft", 2, 0, 20),
  act("review", { draft: true }, "reviewed", 1, 0.5, 3),
];
const goal = (options: Omit<ConstructorParameters<typeof GoalSpec>[0], "conditions"> = {}) =>
  new GoalSpec({ conditions: { reviewed: true }, ...options });
const csp = (p: { metadata: { csp?: unknown } } | null) => p?.metadata.csp as OptimizeMetadata;

describe("pipelinePlan", () => {
  it.each(SOLVERS)("%s: replaces the cheapest plan when it breaks a hard budget, and schedules the result", async (solver) => {
    expect(astar({}, { reviewed: true }, actions)?.actionNames).toEqual(["search_web", "draft_gpt4", "review"]);
    const result = await pipelinePlan({}, goal({ constraints: [{ key: "usd", max: 1, name: "budget" }] }), actions, { solver });
    expect(result?.actionNames).toEqual(["search_web", "draft_local", "review"]);
    expect(result?.metadata.strategy).toBe("pipeline");
    expect(result?.metadata.alternativesConsidered).toBeGreaterThan(1);
    expect(result?.score).toEqual(new HardSoftScore(0, 0));
    const meta = csp(result);
    expect(meta.status).toBe("optimal");
    expect(meta.solver).toBe(solver);
    expect(meta.resourceUsage).toContainEqual({ key: "usd", total: 0.51, max: 1, satisfied: true, level: "hard" });
    expect(meta.makespanMs).toBe(28_000); // a chain: 5 + 20 + 3 minutes, in ms
    expect(meta.schedule?.map((e) => e.startMs)).toEqual([0, 5000, 25_000]);
    expect(meta.solveTimeMs).toBeGreaterThan(0);
  });

  it("an objective beyond cost picks the best of the k cheapest plans; k bounds the search", async () => {
    const fastest = goal({ objectives: [{ key: "minutes", direction: "minimize" }] });
    const best = await pipelinePlan({}, fastest, actions, { maxAlternatives: 5 });
    expect(best?.actionNames).toEqual(["buy_dataset", "draft_gpt4", "review"]);
    expect(csp(best).objectiveValue).toBe(6);
    expect(best?.score).toEqual(new HardSoftScore(0, -6));
    // With one alternative only the two cheapest plans compete: 10 minutes beats 28.
    const narrow = await pipelinePlan({}, fastest, actions, { maxAlternatives: 1 });
    expect(narrow?.actionNames).toEqual(["search_web", "draft_gpt4", "review"]);
  });

  it("several objectives give a BendableScore in lexicographic order", async () => {
    const spec = goal({
      objectives: [
        { key: "usd", direction: "minimize" },
        { key: "minutes", direction: "minimize" },
      ],
    });
    const result = await pipelinePlan({}, spec, actions);
    expect(result?.actionNames).toEqual(["search_web", "draft_local", "review"]);
    expect(result?.score).toEqual(new BendableScore([0], [-0.51, -28]));
  });

  it("is advisory: an impossible budget still returns the least-violating plan, explained and traced", async () => {
    const deadEnds: string[] = [];
    const tracer: PlanningTracer = { onSearchDeadEnd: (reason) => void deadEnds.push(reason) };
    const result = await pipelinePlan({}, goal({ constraints: [{ key: "usd", max: 0.1, name: "budget" }] }), actions, {
      tracer,
      recordExpansions: true,
    });
    expect(result?.actionNames).toEqual(["search_web", "draft_local", "review"]);
    expect(csp(result).status).toBe("infeasible");
    expect((result as Plan).score).toBeInstanceOf(HardSoftScore);
    expect(((result as Plan).score as HardSoftScore).hard).toBeCloseTo(-0.41, 12);
    const why = csp(result).explanation as InfeasibilityExplanation;
    expect(why.conflictingConstraints.map((c) => c.name)).toEqual(["budget"]);
    expect(why.resourceShortfalls[0]?.amount).toBeCloseTo(0.41, 12);
    expect(deadEnds).toEqual(["csp_infeasible"]);
  });

  it("plain goals take the A* plan untouched; an unreachable goal gives null", async () => {
    const plain = await pipelinePlan({}, { reviewed: true }, actions);
    expect(plain?.metadata.strategy).toBe("astar");
    expect(plain?.metadata.csp).toBeUndefined();
    expect(await pipelinePlan({}, goal({ constraints: [{ key: "usd", max: 1 }] }), actions.slice(2))).toBeNull();
  });

  it("capacities serialise independent actions in the schedule", async () => {
    const parallel = ["a", "b", "c"].map(
      (n) => new ActionSpec({ name: n, effects: { [n]: true }, durationMs: 1000, resources: { agents: 1, usd: 1 } }),
    );
    const spec = new GoalSpec({ conditions: { a: true, b: true, c: true }, constraints: [{ key: "usd", max: 3 }] });
    const free = await pipelinePlan({}, spec, parallel);
    expect(csp(free).makespanMs).toBe(1000);
    const oneAgent = await pipelinePlan({}, spec, parallel, { capacities: { agents: 1 } });
    expect(csp(oneAgent).makespanMs).toBe(3000);
    expect(csp(oneAgent).status).toBe("optimal");
  });

  it("never chooses a plan that cannot run under the capacities", async () => {
    const crane = new ActionSpec({ name: "crane", effects: { lifted: true }, cost: 1, durationMs: 1000, resources: { cranes: 2 } });
    const winch = new ActionSpec({ name: "winch", effects: { lifted: true }, cost: 5, durationMs: 9000, resources: { cranes: 1 } });
    const spec = new GoalSpec({ conditions: { lifted: true }, constraints: [{ key: "makespanMs", max: 60_000 }] });
    const result = await pipelinePlan({}, spec, [crane, winch], { capacities: { cranes: 1 } });
    expect(result?.actionNames).toEqual(["winch"]);
    expect(csp(result).status).toBe("optimal");
    const none = await pipelinePlan({}, spec, [crane], { capacities: { cranes: 1 } });
    expect(none?.actionNames).toEqual(["crane"]);
    expect(csp(none).status).toBe("infeasible");
    expect(csp(none).message).toMatch(/needs 2 of "cranes" but the capacity is 1/);
  });

  it("rejects a bad maxAlternatives", async () => {
    await expect(pipelinePlan({}, goal({ constraints: [{ key: "usd", max: 1 }] }), actions, { maxAlternatives: -1 })).rejects.toThrow(
      /maxAlternatives must be an integer >= 0/,
    );
  });
});

describe("strategies", () => {
  const budget = goal({ constraints: [{ key: "usd", max: 1, name: "budget" }] });

  it("TwoPhasePipelineStrategy runs the pipeline and honours the context's blacklist", async () => {
    const strategy = new TwoPhasePipelineStrategy({ maxAlternatives: 5 });
    expect(strategy.name).toBe("two-phase-pipeline");
    expect((await strategy.plan({}, budget, actions))?.actionNames).toEqual(["search_web", "draft_local", "review"]);
    const avoiding = await strategy.plan({}, goal({ objectives: [{ key: "minutes", direction: "minimize" }] }), actions, {
      blacklisted: ["buy_dataset"],
    });
    expect(avoiding?.actionNames).toEqual(["search_web", "draft_gpt4", "review"]);
  });

  it("CSPRefinementStrategy refines the inner strategy's plan without replacing it", async () => {
    const strategy = new CSPRefinementStrategy();
    expect(strategy.name).toBe("csp-refinement");
    const refined = await strategy.plan({}, budget, actions);
    expect(refined?.actionNames).toEqual(["search_web", "draft_gpt4", "review"]);
    expect(csp(refined).status).toBe("infeasible");
    expect(csp(refined).makespanMs).toBe(10_000);
    expect(refined?.metadata.strategy).toBe("csp-refinement");
    const fixed = astar(
      {},
      { reviewed: true },
      actions.filter((a) => a.name !== "draft_gpt4"),
    );
    const onFixed = await new CSPRefinementStrategy({ candidate: fixed ?? undefined }).plan({}, budget, actions);
    expect(onFixed?.actionNames).toEqual(["search_web", "draft_local", "review"]);
    // A fixed plan meets the budget ("feasible": nothing was chosen), and its schedule is proved optimal.
    expect(csp(onFixed).status).toBe("feasible");
    expect(csp(onFixed).scheduleStatus).toBe("optimal");
  });

  it("CSPRefinementStrategy passes on why its inner search found nothing: a budget stop is not 'no plan'", async () => {
    const stopped = await new CSPRefinementStrategy({ inner: new AStarStrategy({ maxExpansions: 1 }) }).planDetailed({}, budget, actions);
    expect(stopped.plan).toBeNull();
    expect(stopped.status).toBe("budget_exhausted");
    expect(stopped.budget?.limit).toBe("expansions");
    const proven = await new CSPRefinementStrategy().planDetailed({}, budget, [actions[0] as ActionSpec]);
    expect(proven.status).toBe("no_plan");
  });
});
