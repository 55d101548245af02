import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import {
  AllOfPolicy,
  FirstOfPolicy,
  GoapGraph,
  type GoapState,
  MaxActionsPolicy,
  MaxCostPolicy,
  MaxLLMCallsPolicy,
  MaxTokensPolicy,
  MaxWallClockPolicy,
  OnStuckPolicy,
  type TerminationPolicy,
} from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

const state = (patch: Partial<GoapState>): GoapState =>
  ({ worldState: {}, executionHistory: [], status: "executing", wallClockStartedAt: null, ...patch }) as GoapState;

/** A chain of `n` LLM-ish steps, each spending tokens and money in the world state. */
function spendingChain(n: number) {
  return Array.from(
    { length: n },
    (_, i) =>
      new ActionSpec({
        name: `call_${i}`,
        preconditions: i ? { [`s${i - 1}`]: true } : {},
        effects: { [`s${i}`]: true },
        execute: (ws) => ({
          [`s${i}`]: true,
          total_cost_usd: ((ws.total_cost_usd as number) ?? 0) + 0.25,
          total_tokens: ((ws.total_tokens as number) ?? 0) + 1000,
          llm_call_count: ((ws.llm_call_count as number) ?? 0) + 1,
        }),
      }),
  );
}

describe("termination policies", () => {
  it("each policy fires on its own budget", () => {
    expect(new MaxActionsPolicy(2).shouldTerminate(state({ executionHistory: [{}, {}] as GoapState["executionHistory"] }))).toEqual({
      policyName: "MaxActionsPolicy",
      reason: "Max actions of 2 reached",
      error: true,
    });
    expect(new MaxActionsPolicy(3).shouldTerminate(state({ executionHistory: [{}, {}] as GoapState["executionHistory"] }))).toBeNull();
    expect(new MaxCostPolicy(1).shouldTerminate(state({ worldState: { total_cost_usd: 1.5 } }))?.reason).toBe(
      "Cost budget of $1.0000 exceeded (spent=$1.5000)",
    );
    expect(new MaxTokensPolicy(500).shouldTerminate(state({ worldState: { total_tokens: 499 } }))).toBeNull();
    expect(new MaxTokensPolicy(500).shouldTerminate(state({ worldState: { total_tokens: 500 } }))?.reason).toBe(
      "Token budget of 500 exceeded (used=500)",
    );
    expect(new MaxLLMCallsPolicy(3).shouldTerminate(state({ worldState: { llm_call_count: 3 } }))?.reason).toBe(
      "LLM call budget of 3 exceeded (calls=3)",
    );
    expect(new OnStuckPolicy().shouldTerminate(state({ status: "no_plan" }))).toEqual({
      policyName: "OnStuckPolicy",
      reason: "Agent process stuck — no plan available",
      error: false,
    });
    const clock = new MaxWallClockPolicy(1000, { now: () => 11_500 });
    expect(clock.shouldTerminate(state({ wallClockStartedAt: null }))).toBeNull();
    expect(clock.shouldTerminate(state({ wallClockStartedAt: 11_000 }))).toBeNull();
    expect(clock.shouldTerminate(state({ wallClockStartedAt: 10_000 }))?.reason).toBe(
      "Wall-clock budget of 1.000s exceeded (elapsed=1.500s)",
    );
  });

  it("FirstOf fires with the first child, AllOf only when all fire", async () => {
    const s = state({ worldState: { total_cost_usd: 5, total_tokens: 10 } });
    const first = new FirstOfPolicy(new MaxTokensPolicy(100), new MaxCostPolicy(1), new MaxLLMCallsPolicy(1));
    expect(await first.shouldTerminate(s)).toMatchObject({ policyName: "MaxCostPolicy" });
    expect(await new AllOfPolicy(new MaxCostPolicy(1), new MaxTokensPolicy(100)).shouldTerminate(s)).toBeNull();
    expect(await new AllOfPolicy(new MaxCostPolicy(1), new MaxTokensPolicy(10)).shouldTerminate(s)).toEqual({
      policyName: "AllOf(MaxCostPolicy, MaxTokensPolicy)",
      reason: "Cost budget of $1.0000 exceeded (spent=$5.0000); Token budget of 10 exceeded (used=10)",
      error: true,
    });
    expect(() => new AllOfPolicy()).toThrow("AllOfPolicy: give at least one policy");
    expect(() => new MaxCostPolicy(-1)).toThrow("MaxCostPolicy: limit must be a finite number > 0, got -1");
  });

  it("are consulted first and end the run terminated with the policy's reason", async () => {
    const graph = new GoapGraph(spendingChain(10), { terminationPolicies: [new MaxCostPolicy(1)], logger: quietLogger() });
    const result = await graph.invoke({ s9: true }, {});
    expect(result.status).toBe("terminated");
    expect(result.replanReason).toBe("MaxCostPolicy: Cost budget of $1.0000 exceeded (spent=$1.0000)");
    expect(result.executionHistory).toHaveLength(4);
  });

  it("beat the goal check: a policy that fires on the last step wins over goal_achieved", async () => {
    const graph = new GoapGraph(spendingChain(2), { terminationPolicies: [new MaxActionsPolicy(2)], logger: quietLogger() });
    const result = await graph.invoke({ s1: true }, {});
    expect(result.status).toBe("terminated");
    expect(result.worldState.s1).toBe(true);
  });

  it("bound runs with token and call budgets, wall clock, and OnStuck", async () => {
    const tokens = await new GoapGraph(spendingChain(10), {
      terminationPolicies: [new MaxTokensPolicy(3000)],
      logger: quietLogger(),
    }).invoke({ s9: true }, {});
    expect(tokens.executionHistory).toHaveLength(3);
    const calls = await new GoapGraph(spendingChain(10), { terminationPolicies: [new MaxLLMCallsPolicy(5)], logger: quietLogger() }).invoke(
      { s9: true },
      {},
    );
    expect(calls.replanReason).toBe("MaxLLMCallsPolicy: LLM call budget of 5 exceeded (calls=5)");

    let now = 0;
    const ticking = spendingChain(10).map((a) =>
      a.with({
        execute: async (ws, ctx) => {
          now += 400;
          return a.execute?.(ws, ctx);
        },
      }),
    );
    const clock = await new GoapGraph(ticking, {
      now: () => now,
      terminationPolicies: [new MaxWallClockPolicy(1000, { now: () => now })],
      logger: quietLogger(),
    }).invoke({ s9: true }, {});
    expect(clock.status).toBe("terminated");
    expect(clock.executionHistory).toHaveLength(3);

    const stuck = await new GoapGraph(spendingChain(1), { terminationPolicies: [new OnStuckPolicy()], logger: quietLogger() }).invoke(
      { unreachable: true },
      {},
    );
    expect(stuck.status).toBe("terminated");
    expect(stuck.replanReason).toBe("OnStuckPolicy: Agent process stuck — no plan available");
  });

  it("accepts custom async policies and skips one that throws", async () => {
    const logger = quietLogger();
    const broken: TerminationPolicy = {
      name: "Broken",
      shouldTerminate: () => {
        throw new Error("policy bug");
      },
    };
    const night: TerminationPolicy = {
      name: "Curfew",
      shouldTerminate: async (s) => (s.worldState.s1 ? { policyName: "Curfew", reason: "too late", error: false } : null),
    };
    const result = await new GoapGraph(spendingChain(5), { terminationPolicies: [broken, night], logger }).invoke({ s4: true }, {});
    expect(result.status).toBe("terminated");
    expect(result.replanReason).toBe("Curfew: too late");
    expect(logger.messages[0]).toBe('termination policy "Broken" threw and was skipped: policy bug');
  });

  it("maxReplans bounds a goal even under generous policies", async () => {
    const goal = new GoalSpec({ conditions: { s0: true }, policy: { maxReplans: 1 } });
    const failing = new ActionSpec({
      name: "call_0",
      effects: { s0: true },
      maxRetries: 9,
      execute: () => {
        throw new Error("nope");
      },
    });
    const result = await new GoapGraph([failing], { terminationPolicies: [new MaxActionsPolicy(100)], logger: quietLogger() }).invoke(
      goal,
      {},
    );
    expect(result.replanReason).toBe("max_replans_exceeded (1)");
  });
});
