import { describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { KeywordGoalInterpreter } from "../../src/nl/index.js";
import { plan } from "../../src/planner/index.js";
import { HUNGRY_PLAN, villageActions, villageFacts, villageStart } from "../support/village.js";

const village = new KeywordGoalInterpreter(villageActions, { facts: villageFacts });
const conditionsOf = (request: string, state = villageStart) => village.interpretSync(request, state).goal.conditions;

describe("KeywordGoalInterpreter", () => {
  it('maps "I\'m hungry" to { is_hungry: false } and the goal plans', async () => {
    const goal = await village.interpret("I'm hungry", villageStart);
    expect(goal.conditions).toEqual({ is_hungry: false });
    expect(plan(villageStart, goal, villageActions)?.actionNames).toEqual(HUNGRY_PLAN);
  });

  it("explains which words matched", () => {
    expect(village.interpretSync("I'm hungry").reasoning).toBe('"hungry" -> is_hungry = false (eat_food gives it)');
  });

  it("combines several named facts", () => {
    expect(conditionsOf("I'm tired and hungry")).toEqual({ is_hungry: false, is_tired: false });
  });

  it("uses synonyms", () => {
    expect(conditionsOf("I am starving")).toEqual({ is_hungry: false });
    expect(conditionsOf("so sleepy")).toEqual({ is_tired: false });
    expect(conditionsOf("fetch some firewood")).toEqual({ has_wood: true });
  });

  it("prefers the value whose action matches the request, then the one that changes the state", () => {
    // has_wood is set true by chop_wood and false by cook_food; "chop" picks chop_wood's value.
    expect(village.interpretSync("chop wood").matches[0]).toMatchObject({ key: "has_wood", condition: true, action: "chop_wood" });
    const lamp = new KeywordGoalInterpreter([
      new ActionSpec({ name: "flip_up", effects: { lamp_on: true } }),
      new ActionSpec({ name: "flip_down", effects: { lamp_on: false } }),
    ]);
    expect(lamp.interpretSync("the lamp", { lamp_on: true }).goal.conditions).toEqual({ lamp_on: false });
    expect(lamp.interpretSync("the lamp", { lamp_on: false }).goal.conditions).toEqual({ lamp_on: true });
  });

  it("falls back to an action named in the request and keeps only its primary effects", () => {
    // "cook" names cook_food only; has_wood: false is what it uses up, not what it is for.
    expect(conditionsOf("please cook")).toEqual({ has_food: true });
  });

  it("falls back to action descriptions when no name matches", () => {
    // "burn" appears only in cook_food's description ("Burn the wood at the campfire ...").
    expect(conditionsOf("burn something")).toEqual({ has_food: true });
  });

  it("falls back to fact descriptions, where rare words outweigh common ones", () => {
    const interpreter = new KeywordGoalInterpreter(
      [
        new ActionSpec({ name: "rest_up", effects: { is_tired: false }, description: "The villager lies down" }),
        new ActionSpec({ name: "dine", effects: { is_hungry: false }, description: "The villager has supper" }),
      ],
      {
        facts: {
          is_tired: { type: "boolean", description: "the villager needs sleep" },
          is_hungry: { type: "boolean", description: "the villager needs supper" },
        },
      },
    );
    const sleep = interpreter.interpretSync("the villager wants some sleep");
    expect(sleep.goal.conditions).toEqual({ is_tired: false });
    expect(sleep.matches[0]).toMatchObject({ key: "is_tired", via: "fact", action: "rest_up", words: ["villager", "sleep"] });
    expect(interpreter.interpretSync("supper for the villager").goal.conditions).toEqual({ is_hungry: false });
  });

  it("reads numbers and string values", async () => {
    const actions = [
      new ActionSpec({ name: "walk_to_forest", effects: { location: "forest" } }),
      new ActionSpec({ name: "walk_home", effects: { location: "camp" } }),
      new ActionSpec({ name: "gather", preconditions: { location: "forest" }, effects: { wood: { inc: 1 } }, cost: 2 }),
      new ActionSpec({ name: "burn", preconditions: { wood: { gte: 1 } }, effects: { wood: { dec: 1 }, warm: true } }),
      new ActionSpec({ name: "mine", effects: { ore: { inc: 1 } } }),
    ];
    const interpreter = new KeywordGoalInterpreter(actions);
    expect((await interpreter.interpret("go to the forest")).conditions).toEqual({ location: "forest" });
    expect((await interpreter.interpret("I want 3 ore")).conditions).toEqual({ ore: { gte: 3 } });
    expect((await interpreter.interpret("more ore", { ore: 4 })).conditions).toEqual({ ore: { gt: 4 } });
    expect((await interpreter.interpret("ore 2.5")).conditions).toEqual({ ore: { gte: 2.5 } });
  });

  it("is deterministic", () => {
    const a = village.interpretSync("tired hungry wood fire");
    const b = village.interpretSync("tired hungry wood fire");
    expect(a.goal.conditions).toEqual(b.goal.conditions);
    expect(a.reasoning).toBe(b.reasoning);
  });

  it("fails with the words each fact answers to when nothing matches", () => {
    let error: unknown;
    try {
      village.interpretSync("sing a song");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LangGoapError);
    expect((error as LangGoapError).code).toBe("INTERPRETER_ERROR");
    expect((error as LangGoapError).message).toContain('no fact or action matches "sing a song"');
    expect((error as LangGoapError).message).toContain("is_hungry (hunger, starving, famished)");
    expect(() => village.interpretSync("")).toThrow(/non-empty string/);
  });

  it("never makes a goal of a fact no action produces", () => {
    // has_axe is only required, never produced; "axe" falls through to chop_wood's description.
    expect(conditionsOf("axe")).toEqual({ has_wood: true });
  });
});
