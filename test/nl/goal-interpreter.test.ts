import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { GoalInterpreter } from "../../src/nl/index.js";
import { plan } from "../../src/planner/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import { HUNGRY_PLAN, villageActions, villageFacts, villageStart } from "../support/village.js";

const text = (m: BaseMessage): string => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

async function rejection(promise: Promise<unknown>): Promise<LangGoapError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LangGoapError);
    return error as LangGoapError;
  }
  throw new Error("expected a rejection");
}

const gatherActions = [
  new ActionSpec({ name: "walk", effects: { location: "forest" }, cost: 1, resources: { minutes: 10 } }),
  new ActionSpec({
    name: "gather",
    preconditions: { location: "forest" },
    effects: { wood: { inc: 1 } },
    cost: 2,
    resources: { usd: 0.5 },
  }),
  new ActionSpec({ name: "go_home", effects: { location: "camp" }, cost: 1, resources: { minutes: 10 } }),
];

describe("GoalInterpreter with a validating fake model", () => {
  it('turns "I\'m hungry" into { is_hungry: false } and the goal plans', async () => {
    const llm = new FakeStructuredChatModel({
      responses: [{ conditions: { is_hungry: false }, reasoning: "Hungry means the villager should eat." }],
    });
    const interpreter = new GoalInterpreter(llm, villageActions, { facts: villageFacts });
    const goal = await interpreter.interpret("I'm hungry", villageStart);
    expect(goal.conditions).toEqual({ is_hungry: false });
    expect(goal.constraints).toEqual([]);
    const found = plan(villageStart, goal, villageActions);
    expect(found?.actionNames).toEqual(HUNGRY_PLAN);
    expect(found?.totalCost).toBe(8);

    expect(llm.callCount).toBe(1);
    expect(llm.calls[0]?.structured?.name).toBe("goal");
    const [system, human] = llm.calls[0]?.messages ?? [];
    expect(text(human as BaseMessage)).toBe("I'm hungry");
    const prompt = text(system as BaseMessage);
    expect(prompt).toContain("- is_hungry (boolean): the villager needs to eat; also called hunger, starving, famished");
    expect(prompt).toContain(
      "- eat_food: Eat the cooked meal.\n  needs: has_food = true\n  gives: is_hungry = false, has_food = false\n  cost: 1",
    );
    expect(prompt).toContain('"is_hungry":true');
  });

  it("keeps the model's reasoning in the raw interpretation", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_tired: false }, reasoning: "rest" }] });
    const raw = await new GoalInterpreter(llm, villageActions).interpretRaw("I need sleep");
    expect(raw).toEqual({ conditions: { is_tired: false }, reasoning: "rest" });
  });

  it("retries once with the validation error in the prompt, then fails listing the allowed facts", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_thirsty: false } }] });
    const interpreter = new GoalInterpreter(llm, villageActions, { facts: villageFacts });
    const error = await rejection(interpreter.interpret("I'm thirsty"));
    expect(error.code).toBe("UNKNOWN_FACT");
    expect(error.message).toContain('could not turn "I\'m thirsty" into a goal after 2 answers: unknown fact "is_thirsty" in conditions');
    expect(error.message).toContain(
      "Allowed facts: is_hungry (boolean), is_tired (boolean), has_wood (boolean), has_food (boolean), has_axe (boolean), near_tree (boolean), near_campfire (boolean), near_shelter (boolean)",
    );
    expect(error.details.unknownFacts).toEqual(["is_thirsty"]);
    expect(llm.callCount).toBe(2);
    const retry = llm.calls[1]?.messages ?? [];
    expect(retry).toHaveLength(3);
    const correction = text(retry[2] as BaseMessage);
    expect(correction).toContain('Your previous answer was rejected: unknown fact "is_thirsty" in conditions.');
    expect(correction).toContain('Previous answer: {"conditions":{"is_thirsty":false}}');
  });

  it("accepts a corrected second answer", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { hungry: false } }, { conditions: { is_hungry: false } }] });
    const result = await new GoalInterpreter(llm, villageActions).interpretDetailed("I'm hungry");
    expect(result.goal.conditions).toEqual({ is_hungry: false });
    expect(result.attempts).toBe(2);
  });

  it("rejects an impossible value with the fact's type", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: "a little" } }] });
    const error = await rejection(new GoalInterpreter(llm, villageActions).interpret("I'm hungry"));
    expect(error.code).toBe("INTERPRETER_ERROR");
    expect(error.message).toMatch(/conditions\.is_hungry: .*expected boolean.*; expected is_hungry \(boolean\)/);
    expect(llm.callCount).toBe(2);
  });

  it("rejects a string value outside the fact's values", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { location: "moon" } }] });
    const error = await rejection(new GoalInterpreter(llm, gatherActions).interpret("fly to the moon"));
    expect(error.message).toContain('expected location ("camp" | "forest"');
  });

  it("treats a refusal or plain text as a bad answer", async () => {
    const llm = new FakeStructuredChatModel({ responses: ["I cannot help with that."] });
    const error = await rejection(new GoalInterpreter(llm, villageActions).interpret("do something bad"));
    expect(error.code).toBe("INTERPRETER_ERROR");
    expect(error.message).toContain("after 2 answers");
    expect(error.message).toContain("Allowed facts: ");
    expect(llm.callCount).toBe(2);
  });

  it("names a refusal, and reads a tool call the provider's parser dropped", async () => {
    const refusing = new FakeStructuredChatModel({ responses: [new AIMessage({ content: "", additional_kwargs: { refusal: "No." } })] });
    const error = await rejection(new GoalInterpreter(refusing, villageActions).interpret("do something bad"));
    expect(error.message).toContain("after 2 answers: the model refused: No.. Allowed facts:");
    const toolCaller = new FakeStructuredChatModel({
      responses: [new AIMessage({ content: "", tool_calls: [{ name: "goal", args: { conditions: { is_tired: false } }, id: "c1" }] })],
    });
    expect((await new GoalInterpreter(toolCaller, villageActions).interpret("nap")).conditions).toEqual({ is_tired: false });
  });

  it("rejects a goal with no conditions", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: {}, reasoning: "nothing to do" }] });
    const error = await rejection(new GoalInterpreter(llm, villageActions, { maxCorrections: 0 }).interpret("hello"));
    expect(error.message).toContain("after 1 answer: the answer has no conditions");
    expect(llm.callCount).toBe(1);
  });

  it("does not retry when the model cannot be reached", async () => {
    const outage = new Error("connect ECONNREFUSED 127.0.0.1:1");
    const llm = new FakeStructuredChatModel({ responses: [outage] });
    const error = await rejection(new GoalInterpreter(llm, villageActions).interpret("I'm hungry"));
    expect(error.code).toBe("INTERPRETER_ERROR");
    expect(error.message).toContain("the chat model call failed: connect ECONNREFUSED");
    expect(error.cause).toBe(outage);
    expect(llm.callCount).toBe(1);
  });

  it("reads numeric comparisons, constraints and objectives", async () => {
    const llm = new FakeStructuredChatModel({
      responses: [
        {
          conditions: { wood: { gte: 3 }, location: "camp" },
          constraints: [{ key: "usd", max: 5 }],
          objectives: [{ key: "cost", direction: "minimize" }],
        },
      ],
    });
    const goal = await new GoalInterpreter(llm, gatherActions).interpret("bring 3 wood home for under $5, cheapest");
    expect(goal.conditions).toEqual({ wood: { gte: 3 }, location: "camp" });
    expect(goal.constraints.map((c) => [c.key, c.max, c.level])).toEqual([["usd", 5, "hard"]]);
    expect(goal.objectives.map((o) => [o.key, o.direction])).toEqual([["cost", "minimize"]]);
  });

  it("builds a schema whose condition keys are exactly the facts", () => {
    const interpreter = new GoalInterpreter(new FakeStructuredChatModel({ responses: [{}] }), gatherActions);
    expect([...interpreter.facts.keys()]).toEqual(["location", "wood"]);
    expect(interpreter.allowedFacts).toEqual(['location ("camp" | "forest")', "wood (number)"]);
    const ok = (value: unknown) => interpreter.schema.safeParse(value).success;
    expect(ok({ conditions: { wood: { gt: 2, lte: 9 } } })).toBe(true);
    expect(ok({ conditions: { wood: { between: 2 } } })).toBe(false);
    expect(ok({ conditions: { wood: {} } })).toBe(false);
    expect(ok({ conditions: { location: { in: ["camp", "forest"] } } })).toBe(true);
    expect(ok({ conditions: { location: { in: ["mars"] } } })).toBe(false);
    expect(ok({ conditions: { stone: 1 } })).toBe(false);
    expect(ok({ conditions: { wood: 1 }, constraints: [{ key: "minutes", max: 30 }] })).toBe(true);
    expect(ok({ conditions: { wood: 1 }, constraints: [{ key: "gold", max: 30 }] })).toBe(false);
    expect(ok({ conditions: { wood: 1 }, objectives: [{ key: "usd", direction: "maximize" }] })).toBe(true);
  });

  it("checks examples up front and shows them to the model", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { has_wood: true } }] });
    expect(() => new GoalInterpreter(llm, villageActions, { examples: [{ request: "x", goal: { conditions: { gold: 1 } } }] })).toThrow(
      /examples\[0\] is not a valid goal: unknown fact "gold"/,
    );
    const interpreter = new GoalInterpreter(llm, villageActions, {
      examples: [{ request: "I'm sleepy", goal: { conditions: { is_tired: false } } }],
      systemPrompt: "Facts:\n{fact_catalog}\nKeep {braces}.{examples}",
    });
    await interpreter.interpret("get me wood");
    const system = text(llm.calls[0]?.messages[0] as BaseMessage);
    expect(system).toContain("Keep {braces}.");
    expect(system).toContain('Request: I\'m sleepy\nGoal: {"conditions":{"is_tired":false}}');
    expect(system).not.toContain("{fact_catalog}");
  });

  it("rejects bad construction arguments", () => {
    const llm = new FakeStructuredChatModel({ responses: [{}] });
    expect(() => new GoalInterpreter({} as never, villageActions)).toThrow(/withStructuredOutput/);
    expect(() => new GoalInterpreter(llm, [])).toThrow(/nothing can be a goal/);
    expect(() => new GoalInterpreter(llm, villageActions, { maxCorrections: -1 })).toThrow(/maxCorrections/);
  });

  it("rejects an empty request without calling the model", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{}] });
    await expect(new GoalInterpreter(llm, villageActions).interpret("  ")).rejects.toThrow(/non-empty string/);
    expect(llm.callCount).toBe(0);
  });
});
