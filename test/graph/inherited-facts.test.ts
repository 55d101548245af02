/**
 * Facts are own properties of the world state: a precondition on a key
 * named like an `Object.prototype` member is not met by the prototype.
 */
import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

describe("a graph run reads facts as own properties", () => {
  it("never runs an action whose precondition names an inherited member absent from the state", async () => {
    const ran: string[] = [];
    const risky = new ActionSpec({
      name: "deploy",
      preconditions: { toString: { ne: false }, valueOf: { ne: null } },
      effects: { deployed: true },
      execute: () => {
        ran.push("deploy");
      },
    });
    const result = await new GoapGraph([risky], { logger: quietLogger() }).invoke({ deployed: true }, {});
    expect(result.status).toBe("no_plan");
    expect(ran).toEqual([]);
    expect(result.executionHistory).toEqual([]);
  });

  it("runs it once the state really holds those facts", async () => {
    const deploy = new ActionSpec({ name: "deploy", preconditions: { toString: { ne: false } }, effects: { deployed: true } });
    const result = await new GoapGraph([deploy], { logger: quietLogger() }).invoke({ deployed: true }, { toString: "yes" });
    expect(result.status).toBe("goal_achieved");
    expect(result.executionHistory.map((r) => r.actionName)).toEqual(["deploy"]);
  });
});
