import { describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError, type PlanningTracer, type WorldState } from "../../src/core/index.js";
import {
  FunctionalConditionResolver,
  FunctionalGuard,
  FunctionalStuckHandler,
  GoapGraph,
  type GoapGraphOptions,
  StuckHandlerResult,
  type TerminationPolicy,
} from "../../src/graph/index.js";
import { plan } from "../../src/planner/index.js";
import { quietLogger } from "./support.js";

const start = () => ({ inv: { wood: 1, tags: ["a"] }, n: 0 });

/** What every hook below does to what it gets. */
function scribble(s: Readonly<WorldState> | undefined): void {
  const inv = s?.inv as { wood: number; tags: string[] } | undefined;
  if (!inv) return;
  inv.wood = 999;
  inv.tags.push("x");
}

const step = () => new ActionSpec({ name: "step", effects: { done: true } });

async function runWith(options: GoapGraphOptions, actions = [step()]) {
  const caller = start();
  const result = await new GoapGraph(actions, { logger: quietLogger(), ...options }).invoke({ done: true }, caller);
  return { caller, result };
}

describe("no hook can change the caller's object or a record", () => {
  it("a cost function scribbling on nested state in the planner is an error naming the action; the start is unchanged", () => {
    const caller = start();
    const chop = new ActionSpec({
      name: "chop",
      effects: { done: true },
      cost: (s) => {
        scribble(s);
        return 1;
      },
    });
    const error = (() => {
      try {
        plan(caller, { done: true }, [chop]);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(LangGoapError);
    expect((error as LangGoapError).message).toMatch(/^action "chop": cost function threw: Cannot assign to read only property 'wood'/);
    expect(caller).toEqual(start());
  });

  it("an effect function scribbling on nested state in the planner leaves the start unchanged", () => {
    const caller = start();
    const chop = new ActionSpec({
      name: "chop",
      effectKeys: ["done"],
      effects: (s) => {
        try {
          scribble(s);
        } catch {
          // Frozen: the scribble fails; the effect is computed anyway.
        }
        return { done: true };
      },
    });
    expect(plan(caller, { done: true }, [chop])?.actionNames).toEqual(["chop"]);
    expect(caller).toEqual(start());
  });

  const hooks: [string, () => GoapGraphOptions][] = [
    [
      "a guard",
      () => ({
        guards: [
          new FunctionalGuard("g", (_a, s) => {
            scribble(s);
            return { passed: true, message: "ok" };
          }),
        ],
      }),
    ],
    [
      "a termination policy",
      () => ({
        terminationPolicies: [
          {
            name: "p",
            shouldTerminate: (s) => {
              scribble(s.worldState);
              for (const r of s.executionHistory) scribble(r.stateBefore);
              return null;
            },
          } satisfies TerminationPolicy,
        ],
      }),
    ],
    [
      "a tracer",
      () => ({
        tracer: {
          onPlanStart: (_g, s) => scribble(s),
          onActionStart: (_a, s) => scribble(s),
          onActionComplete: (r) => {
            const record = r as { stateBefore: WorldState; stateAfter: WorldState };
            scribble(record.stateBefore);
            scribble(record.stateAfter);
          },
          onGoalAchieved: (s) => scribble(s),
        } satisfies PlanningTracer,
      }),
    ],
    [
      "a condition resolver",
      () => ({
        resolvers: [
          new FunctionalConditionResolver("r", (_k, s) => {
            scribble(s);
            return undefined;
          }),
        ],
      }),
    ],
  ];

  for (const [label, options] of hooks) {
    it(`${label} scribbling on nested state changes neither the caller's object, the world, nor history's stateBefore`, async () => {
      const { caller, result } = await runWith(options());
      expect(result.status).toBe("goal_achieved");
      expect(caller).toEqual(start());
      expect(result.worldState).toEqual({ ...start(), done: true });
      expect(result.executionHistory.map((r) => r.stateBefore)).toEqual([start()]);
      expect(result.executionHistory.map((r) => r.stateAfter)).toEqual([{ ...start(), done: true }]);
    });
  }

  it("a stuck handler scribbling on the state it gets changes nothing it should not", async () => {
    const caller = start();
    const locked = new ActionSpec({ name: "open", preconditions: { key: true }, effects: { done: true } });
    const handler = new FunctionalStuckHandler("h", (s) => {
      scribble(s.worldState);
      return StuckHandlerResult.replan({ message: "found the key", stateUpdates: { key: true } });
    });
    const result = await new GoapGraph([locked], { logger: quietLogger(), stuckHandlers: [handler] }).invoke({ done: true }, caller);
    expect(result.status).toBe("goal_achieved");
    expect(caller).toEqual(start());
    expect(result.executionHistory.map((r) => r.stateBefore)).toEqual([{ ...start(), key: true }]);
  });
});
