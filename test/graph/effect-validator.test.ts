import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

describe("effect validator", () => {
  it("rolls the world state back when the validator rejects the outcome, then replans", async () => {
    const migrate = new ActionSpec({
      name: "migrate",
      effects: { migrated: true },
      execute: () => ({ migrated: true, schema: 2, tables_dropped: 3 }),
      effectValidator: (_before, after) => after.tables_dropped === 0,
    });
    const safe = new ActionSpec({
      name: "migrate_safely",
      effects: { migrated: true },
      cost: 3,
      execute: () => ({ migrated: true, schema: 2 }),
    });
    const result = await new GoapGraph([migrate, safe], { logger: quietLogger() }).invoke({ migrated: true }, { schema: 1 });

    expect(result.status).toBe("goal_achieved");
    expect(successfulActionNames(result)).toEqual(["migrate_safely"]);
    expect(result.worldState).toEqual({ schema: 2, migrated: true });
    expect(result.executionHistory[0]).toMatchObject({
      actionName: "migrate",
      success: false,
      failure: "validation_failed",
      error: "Effect validation failed",
      stateBefore: { schema: 1 },
      stateAfter: { schema: 2, migrated: true, tables_dropped: 3 },
    });
    expect(result.executionHistory[1]?.stateBefore).toEqual({ schema: 1 });
    expect(result.blacklistedActions).toEqual(["migrate"]);
  });

  it("treats a throwing validator as a rejection that says so", async () => {
    const action = new ActionSpec({
      name: "write",
      effects: { written: true },
      effectValidator: () => {
        throw new Error("checksum service down");
      },
    });
    const goal = new GoalSpec({ conditions: { written: true }, policy: { replanStrategy: "never" } });
    const result = await new GoapGraph([action], { logger: quietLogger() }).invoke(goal, {});
    expect(result.status).toBe("failed");
    expect(result.executionHistory[0]?.error).toBe("Effect validation failed: validator threw: checksum service down");
    expect(result.worldState).toEqual({});
  });
});
