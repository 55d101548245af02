import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import {
  FunctionalStuckHandler,
  GoapGraph,
  type GoapState,
  MulticastStuckHandler,
  type StuckHandler,
  StuckHandlerResult,
} from "../../src/graph/index.js";
import type { NoPlanExplanation } from "../../src/planner/index.js";
import { quietLogger } from "./support.js";

const actions = () => [
  new ActionSpec({ name: "setup", effects: { data_loaded: true } }),
  new ActionSpec({ name: "license_protected", preconditions: { data_loaded: true, license_acquired: true }, effects: { published: true } }),
];
const goal = new GoalSpec({ conditions: { published: true }, policy: { maxReplans: 0 } });
const fakeState = {} as GoapState;
const why: NoPlanExplanation = { unreachableConditions: [], missingPreconditions: [], unusableActions: [], suggestion: "" };

describe("stuck handlers", () => {
  it("REPLAN with state updates recovers the run", async () => {
    const seen: NoPlanExplanation[] = [];
    const buy = new FunctionalStuckHandler("buy-license", (_s, explanation) => {
      seen.push(explanation);
      return StuckHandlerResult.replan({ message: "bought", stateUpdates: { license_acquired: true } });
    });
    const result = await new GoapGraph(actions(), { stuckHandlers: [buy], logger: quietLogger() }).invoke(goal, {});
    expect(result.status).toBe("goal_achieved");
    expect(result.worldState).toMatchObject({ published: true, license_acquired: true });
    expect(seen[0]?.missingPreconditions).toEqual(["license_acquired = true"]);
  });

  it("NO_RESOLUTION leaves the run no_plan", async () => {
    const shrug = new FunctionalStuckHandler("shrug", () => StuckHandlerResult.noResolution({ message: "no idea" }));
    const result = await new GoapGraph(actions(), { stuckHandlers: [shrug], logger: quietLogger() }).invoke(goal, {});
    expect(result.status).toBe("no_plan");
  });

  it("REPLAN with a new goal switches the run to it", async () => {
    const lower = new FunctionalStuckHandler("lower-sights", () =>
      StuckHandlerResult.replan({ message: "settle for loaded data", newGoal: new GoalSpec({ conditions: { data_loaded: true } }) }),
    );
    const result = await new GoapGraph(actions(), { stuckHandlers: [lower], logger: quietLogger() }).invoke(goal, {});
    expect(result.status).toBe("goal_achieved");
    expect(result.worldState).toEqual({ data_loaded: true });
    expect(result.goal).toMatchObject({ kind: "GoalSpec", spec: { conditions: { data_loaded: true } } });
  });

  it("is consulted at most maxStuckIterations times", async () => {
    let calls = 0;
    const noop = new FunctionalStuckHandler("noop", () => {
      calls++;
      return StuckHandlerResult.replan({ message: "tried nothing" });
    });
    const result = await new GoapGraph(actions(), { stuckHandlers: [noop], maxStuckIterations: 3, logger: quietLogger() }).invoke(goal, {});
    expect(result.status).toBe("no_plan");
    expect(calls).toBe(3);
  });

  it("survives a handler that throws and recovers with the next one", async () => {
    const logger = quietLogger();
    const boom = new FunctionalStuckHandler("boom", () => {
      throw new Error("handler bug");
    });
    const buy = new FunctionalStuckHandler("buy", () =>
      StuckHandlerResult.replan({ message: "bought", stateUpdates: { license_acquired: true } }),
    );
    const result = await new GoapGraph(actions(), { stuckHandlers: [boom, buy], logger }).invoke(goal, {});
    expect(result.status).toBe("goal_achieved");
    expect(logger.messages).toContain('stuck handler "boom" threw; treated as no resolution: handler bug');
  });

  it("multicast: first REPLAN wins, the rest are not asked; all failing names everyone", async () => {
    const asked: string[] = [];
    const h = (name: string, replan: boolean): StuckHandler => ({
      name,
      handleStuck: () => {
        asked.push(name);
        return replan
          ? StuckHandlerResult.replan({ message: "ok" })
          : StuckHandlerResult.noResolution({ handlerName: name, message: "no" });
      },
    });
    const winner = await new MulticastStuckHandler([h("h1", false), h("h2", true), h("h3", true)]).handleStuck(fakeState, why);
    expect(winner.code).toBe("replan");
    expect(winner.handlerName).toBe("h2");
    expect(asked).toEqual(["h1", "h2"]);

    const none = await new MulticastStuckHandler([h("h1", false), h("h2", false)]).handleStuck(fakeState, why);
    expect(none.code).toBe("no_resolution");
    expect(none.handlerName).toBeUndefined();
    expect(none.message).toBe("No stuck handler could resolve the issue: tried h1, h2");
    expect((await new MulticastStuckHandler([]).handleStuck(fakeState, why)).code).toBe("no_resolution");
  });

  it("rejects a maxStuckIterations below 1", () => {
    expect(() => new GoapGraph(actions(), { maxStuckIterations: 0 })).toThrow("maxStuckIterations must be an integer >= 1, got 0");
  });
});
