import { describe, expect, it } from "vitest";
import { ActionSpec, GoapAction, LangGoapError, type WorldState } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { plan } from "../../src/planner/index.js";
import { quietLogger } from "../graph/support.js";

const log: string[] = [];

class BuyAxe extends GoapAction {
  static override actionName = "buy_axe";
  static override preconditions = { gold: { gte: 5 } };
  static override effects = { has_axe: true, gold: { dec: 5 } };
  override run(state: Readonly<WorldState>) {
    log.push(`buy with ${String(state.gold)} gold`);
  }
}

class ChopWood extends GoapAction {
  static override actionName = "chop_wood";
  static override preconditions = { has_axe: true };
  static override effects = { wood: { inc: 2 } };
  // Tired choppers pay more.
  override costIn(state: Readonly<WorldState>) {
    return state.tired === true ? 5 : 2;
  }
  override async run(state: Readonly<WorldState>) {
    log.push("chop");
    return { wood: Number(state.wood) + 2 };
  }
}

class BuildFire extends GoapAction {
  static override preconditions = { wood: { gte: 3 } };
  static override effects = { warm: true, wood: { dec: 3 } };
  static override cost = 1;
  static override maxRetries = 2;
  override validate(_before: Readonly<WorldState>, after: Readonly<WorldState>) {
    return after.warm === true;
  }
}

class GatherSticks extends GoapAction {
  static override actionName = "gather_sticks";
  static override effects = { wood: { inc: 1 } };
  static override cost = 2.5;
}

describe("GoapAction (class-based actions)", () => {
  it("is an ActionSpec built from the subclass's declarations", () => {
    const chop = new ChopWood();
    expect(chop).toBeInstanceOf(ActionSpec);
    expect(chop.name).toBe("chop_wood");
    expect(chop.preconditions).toEqual({ has_axe: true });
    expect(chop.getCost({ tired: true })).toBe(5);
    expect(chop.getCost({})).toBe(2);
    expect(chop.execute).toBeTypeOf("function");
    const fire = new BuildFire();
    expect(fire.name).toBe("BuildFire");
    expect(fire.maxRetries).toBe(2);
    expect(fire.getCost()).toBe(1);
    expect(fire.execute).toBeUndefined();
    expect(new GatherSticks({ name: "gather_twigs", cost: 5 }).name).toBe("gather_twigs");
    expect(Object.isFrozen(chop)).toBe(true);
  });

  it("plans and runs like any action, dynamic cost and validation included", async () => {
    const actions = [new BuyAxe(), new ChopWood(), new BuildFire(), new GatherSticks()];
    const start = { gold: 7, wood: 0, has_axe: false, warm: false, tired: false };
    const found = plan(start, { warm: true }, actions);
    expect(found?.actionNames).toEqual(["buy_axe", "chop_wood", "chop_wood", "BuildFire"]);
    expect(found?.totalCost).toBe(6);
    // Tired, chopping costs 5: three sticks (7.5) beat the axe and a chop (6) plus a stick (2.5).
    expect(plan({ ...start, tired: true }, { warm: true }, actions)?.actionNames).toEqual([
      "gather_sticks",
      "gather_sticks",
      "gather_sticks",
      "BuildFire",
    ]);
    log.length = 0;
    const result = await new GoapGraph(actions, { logger: quietLogger() }).invoke({ warm: true }, start);
    expect(result.status).toBe("goal_achieved");
    expect(successfulActionNames(result)).toEqual(["buy_axe", "chop_wood", "chop_wood", "BuildFire"]);
    expect(log).toEqual(["buy with 7 gold", "chop", "chop"]);
    expect(result.worldState).toMatchObject({ warm: true, wood: 1, gold: 2 });
  });

  it("validates declarations like ActionSpec does, naming the action", () => {
    class BadCost extends GoapAction {
      static override actionName = "bad_cost";
      static override cost = -1;
    }
    expect(() => new BadCost()).toThrow(LangGoapError);
    expect(() => new BadCost()).toThrow(/action "bad_cost": cost must be a finite number >= 0/);
    class WithField extends GoapAction {
      static override actionName = "with_field";
      readonly counter = 0;
    }
    // Instances are frozen: configuration belongs in static fields.
    expect(() => new WithField()).toThrow(TypeError);
  });
});
