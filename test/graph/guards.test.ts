import { describe, expect, it } from "vitest";
import { GoalSpec, type PlanningTracer } from "../../src/core/index.js";
import { FunctionalGuard, GoapGraph, hasBlockingFailure, runGuards, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger, tracked } from "./support.js";

function domain(calls: string[]) {
  return [
    tracked(calls, { name: "research", effects: { researched: true } }),
    tracked(calls, { name: "write_fast", preconditions: { researched: true }, effects: { drafted: true }, cost: 1, maxRetries: 3 }),
    tracked(calls, { name: "write_premium", preconditions: { researched: true }, effects: { drafted: true }, cost: 5 }),
    tracked(calls, { name: "publish", preconditions: { drafted: true }, effects: { published: true } }),
  ];
}

describe("guards", () => {
  it("a BLOCK stops the action before it runs and blacklists it at once", async () => {
    const calls: string[] = [];
    const events: string[] = [];
    const tracer: PlanningTracer = {
      onActionStart: (a) => events.push(`start:${a.name}`),
      onActionComplete: (r) => events.push(`complete:${(r as { actionName: string }).actionName}`),
    };
    const noFast = new FunctionalGuard("no-fast", (action) =>
      action.name === "write_fast"
        ? { passed: false, message: "fast writer is banned", severity: "block" }
        : { passed: true, message: "ok" },
    );
    const result = await new GoapGraph(domain(calls), { guards: [noFast], tracer, logger: quietLogger() }).invoke({ published: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["research", "write_premium", "publish"]);
    expect(result.blacklistedActions).toEqual(["write_fast"]);
    expect(result.actionFailureCounts).toEqual({ write_fast: 4 });
    const blocked = result.executionHistory[1];
    expect(blocked).toMatchObject({
      actionName: "write_fast",
      success: false,
      failure: "guard_blocked",
      attempts: 0,
      error: "guard_blocked: no-fast: fast writer is banned",
    });
    expect(events).toEqual([
      "start:research",
      "complete:research",
      "start:write_fast",
      "complete:write_fast",
      "start:write_premium",
      "complete:write_premium",
      "start:publish",
      "complete:publish",
    ]);
    expect(successfulActionNames(result)).toEqual(["research", "write_premium", "publish"]);
  });

  it("a WARN is logged and the action runs", async () => {
    const calls: string[] = [];
    const logger = quietLogger();
    const cautious = new FunctionalGuard("cautious", (action) => ({ passed: action.name !== "publish", message: "publishing is public" }));
    const result = await new GoapGraph(domain(calls), { guards: [cautious], logger }).invoke({ published: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["research", "write_fast", "publish"]);
    expect(logger.messages).toEqual(['guard "cautious" warned about action "publish": publishing is public']);
  });

  it("a throwing guard counts as a failed warn and never breaks the run", async () => {
    const calls: string[] = [];
    const logger = quietLogger();
    const broken = new FunctionalGuard("broken", () => {
      throw new Error("guard bug");
    });
    const result = await new GoapGraph(domain(calls), { guards: [broken], logger }).invoke(
      new GoalSpec({ conditions: { researched: true } }),
      {},
    );
    expect(result.status).toBe("goal_achieved");
    expect(logger.messages).toEqual(['guard "broken" warned about action "research": guard "broken" raised: guard bug']);
  });

  it("runGuards names malformed answers and hasBlockingFailure reads severities", async () => {
    const [action] = domain([]);
    const verdicts = await runGuards(
      [
        { name: "ok", check: () => ({ passed: true, message: "fine" }) },
        { name: "weird", check: () => 42 as never },
        { name: "stop", check: async () => ({ passed: false, message: "no", severity: "block" }) },
      ],
      action!,
      {},
    );
    expect(verdicts).toEqual([
      { guard: "ok", passed: true, message: "fine", severity: "warn" },
      {
        guard: "weird",
        passed: false,
        severity: "warn",
        message: 'guard "weird" returned a malformed result; expected { passed, message, severity? }',
      },
      { guard: "stop", passed: false, message: "no", severity: "block" },
    ]);
    expect(hasBlockingFailure(verdicts)).toBe(true);
    expect(hasBlockingFailure(verdicts.slice(0, 2))).toBe(false);
  });
});
