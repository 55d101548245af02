import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  type ActionContext,
  ActionSpec,
  type ConditionsOf,
  defineDomain,
  type EffectsOf,
  type FactKey,
  type FactsOf,
  GoalSpec,
  GoapGraph,
  type GoapRunResult,
  type Plan,
  plan,
  type WorldState,
} from "../../src/index.js";

const facts = z.object({
  has_axe: z.boolean(),
  wood: z.number(),
  gold: z.number(),
  mood: z.enum(["calm", "angry"]),
  log: z.array(z.string()),
});
type Facts = z.infer<typeof facts>;
const d = defineDomain({ facts });
const start: Facts = { has_axe: true, wood: 0, gold: 0, mood: "calm", log: [] };

describe("defineDomain with a zod object", () => {
  it("derives the world type from the schema", () => {
    expectTypeOf<FactsOf<typeof facts>>().toEqualTypeOf<Facts>();
    expectTypeOf<FactKey<Facts>>().toEqualTypeOf<"has_axe" | "wood" | "gold" | "mood">();
  });

  it("types an action's preconditions, effects and execute", () => {
    const chop = d.action({
      name: "chop",
      preconditions: { has_axe: true, wood: { lt: 10 }, mood: { in: ["calm"] } },
      effects: { wood: { inc: 2 } },
      cost: (s) => (s.mood === "calm" ? 2 : 3),
      execute: async (s, ctx) => {
        expectTypeOf(s).toEqualTypeOf<Readonly<Facts>>();
        expectTypeOf(ctx).toEqualTypeOf<ActionContext>();
        return { wood: s.wood + 2, log: [...s.log, "chopped"] };
      },
    });
    expectTypeOf(chop).toEqualTypeOf<ActionSpec<Facts>>();
    // A typed action is an ordinary ActionSpec to everything untyped.
    expectTypeOf(chop).toMatchTypeOf<ActionSpec>();
  });

  it("refuses a typo in a fact name", () => {
    // @ts-expect-error -- no fact "has_axee"
    d.action({ name: "chop", preconditions: { has_axee: true } });
    // @ts-expect-error -- no fact "woood"
    d.action({ name: "chop", effects: { woood: 1 } });
    // @ts-expect-error -- no fact "gol"
    d.action({ name: "sell", effects: (s) => ({ gold: s.gold + 1 }), effectKeys: ["gol"] });
  });

  it("refuses a value of the wrong type", () => {
    // @ts-expect-error -- wood is a number
    d.action({ name: "chop", preconditions: { wood: "3" } });
    // @ts-expect-error -- has_axe is a boolean
    d.action({ name: "chop", effects: { has_axe: 1 } });
    // @ts-expect-error -- "happy" is not a mood
    d.action({ name: "calm_down", effects: { mood: "happy" } });
    // @ts-expect-error -- set takes the fact's type
    d.action({ name: "chop", effects: { wood: { set: "2" } } });
    // @ts-expect-error -- "in" takes an array of the fact's type
    d.action({ name: "chop", preconditions: { wood: { in: ["1", "2"] } } });
    // @ts-expect-error -- a list is no fact: conditions cannot name it
    d.action({ name: "chop", preconditions: { log: [] } });
  });

  it("allows numeric operators only on numbers", () => {
    d.action({ name: "buy", preconditions: { gold: { gte: 3, lt: 10 } }, effects: { gold: { dec: 3 }, has_axe: true } });
    // @ts-expect-error -- gte compares numbers; has_axe is a boolean
    d.action({ name: "chop", preconditions: { has_axe: { gte: 1 } } });
    // @ts-expect-error -- inc changes numbers; has_axe is a boolean
    d.action({ name: "chop", effects: { has_axe: { inc: 1 } } });
    // @ts-expect-error -- dec changes numbers; mood is a string
    d.action({ name: "chop", effects: { mood: { dec: 1 } } });
    // @ts-expect-error -- one operator per effect
    d.action({ name: "chop", effects: { wood: { inc: 1, set: 3 } } });
  });

  it("types function effects and execute's updates", () => {
    d.action({ name: "sell", effects: (s) => ({ gold: s.gold + s.wood, wood: 0 }), effectKeys: ["gold", "wood"] });
    // @ts-expect-error -- the effect function returns a string for a number fact
    d.action({ name: "sell", effects: (s) => ({ gold: `${s.gold}` }), effectKeys: ["gold"] });
    // @ts-expect-error -- execute returns a string where wood is a number
    d.action({ name: "chop", execute: async (s) => ({ wood: `${s.wood + 2}` }) });
    // @ts-expect-error -- execute returns an unknown key
    d.action({ name: "chop", execute: () => ({ woood: 2 }) });
    // @ts-expect-error -- the state has no fact "silver"
    d.action({ name: "chop", cost: (s) => s.silver });
  });

  it("types goals, start states, plans and graph results", async () => {
    const chop = d.action({ name: "chop", preconditions: { has_axe: true }, effects: { wood: { inc: 2 } } });
    const goal = d.goal({ conditions: { wood: { gte: 4 } }, softGoals: [{ conditions: { mood: "calm" } }], value: (s) => s.wood });
    expectTypeOf(goal).toEqualTypeOf<GoalSpec<Facts>>();
    // @ts-expect-error -- an unknown key in a goal
    d.goal({ conditions: { wod: { gte: 4 } } });
    // @ts-expect-error -- an unknown key in a soft goal
    d.goal({ conditions: { wood: 1 }, softGoals: [{ conditions: { wod: 1 } }] });
    // @ts-expect-error -- the value function reads an unknown fact
    d.goal({ conditions: { wood: 1 }, value: (s) => s.wod });
    // @ts-expect-error -- an unknown key in one goal of a MultiGoal
    d.multiGoal({ goals: [{ wood: 1 }, { woood: 2 }], mode: "sequential" });
    // @ts-expect-error -- an unknown key in a goal given as bare conditions
    d.plan(start, { wod: { gte: 4 } }, [chop]);
    // @ts-expect-error -- a string where the start state declares a number
    d.plan({ ...start, wood: "0" }, goal, [chop]);
    // @ts-expect-error -- a start state missing a fact
    d.plan({ has_axe: true, wood: 0 }, goal, [chop]);

    const p = d.plan(start, { wood: { gte: 4 } }, [chop]);
    expectTypeOf(p?.finalState.wood).toEqualTypeOf<number | undefined>();
    expectTypeOf(p).toMatchTypeOf<Plan | null>();
    expectTypeOf((await d.planAsync(start, goal, [chop]))?.expectedStates[0]?.has_axe).toEqualTypeOf<boolean | undefined>();

    const graph = d.graph([chop]);
    expectTypeOf(graph).toEqualTypeOf<GoapGraph<Facts>>();
    const result = await graph.invoke({ wood: { gte: 4 } }, start);
    expectTypeOf(result.worldState).toEqualTypeOf<Facts>();
    expectTypeOf(result).toEqualTypeOf<GoapRunResult<Facts>>();
    // @ts-expect-error -- an unknown key in the goal of a typed graph
    await graph.invoke({ wod: 4 }, start);
    // @ts-expect-error -- a string where the world state declares a number
    await graph.invoke({ wood: 4 }, { ...start, gold: "none" });
    // @ts-expect-error -- the same for a streamed run
    void graph.stream({ wood: 4 }, { ...start, gold: "none" });
    // The world state may be left out (a thread carries its own).
    expectTypeOf(graph.invoke).parameter(1).toEqualTypeOf<Readonly<Facts> | undefined>();
    // A typed graph infers its type from its actions.
    expectTypeOf(new GoapGraph([chop])).toEqualTypeOf<GoapGraph<Facts>>();
  });

  it("refuses an action of another domain", () => {
    const other = defineDomain({ facts: z.object({ fuel: z.number() }) });
    const refuel = other.action({ name: "refuel", effects: { fuel: { inc: 1 } } });
    // @ts-expect-error -- refuel acts on another world
    d.graph([refuel]);
  });
});

describe("nullable and optional facts", () => {
  const o = defineDomain({ facts: z.object({ target: z.string().nullable(), hp: z.number().nullable(), note: z.string().optional() }) });

  it("take their own types: null where declared, number operators on a nullable number", () => {
    o.action({
      name: "aim",
      preconditions: { target: null, hp: { gte: 1 }, note: "x" },
      effects: { hp: { inc: 1 }, target: { set: "orc" } },
    });
    // @ts-expect-error -- note is a string or absent, never null
    o.action({ name: "aim", preconditions: { note: null } });
    // @ts-expect-error -- hp holds numbers or null, not strings
    o.action({ name: "aim", effects: { hp: { set: "full" } } });
    expectTypeOf<FactKey<ReturnType<typeof o.state>>>().toEqualTypeOf<"target" | "hp" | "note">();
  });
});

describe("defineDomain with a plain record", () => {
  const r = defineDomain({ facts: { has_axe: "boolean", wood: "number", mood: { type: "string", values: ["calm", "angry"] } } });
  type R = ReturnType<typeof r.state>;

  it("derives the world type from the declared types", () => {
    expectTypeOf<R>().toEqualTypeOf<{ has_axe: boolean; wood: number; mood: "calm" | "angry" }>();
  });

  it("checks the same things", () => {
    r.action({ name: "chop", preconditions: { has_axe: true, mood: "calm" }, effects: { wood: { inc: 1 } } });
    // @ts-expect-error -- no fact "has_axee"
    r.action({ name: "chop", preconditions: { has_axee: true } });
    // @ts-expect-error -- inc on a boolean
    r.action({ name: "chop", effects: { has_axe: { inc: 1 } } });
    // @ts-expect-error -- "sad" is not a declared mood
    r.plan({ has_axe: true, wood: 0, mood: "sad" }, { wood: 1 }, []);
  });
});

describe("the untyped API keeps its meaning", () => {
  it("ActionSpec, GoalSpec and GoapGraph default to the untyped world", () => {
    const chop = new ActionSpec({ name: "chop", preconditions: { has_axee: true }, effects: { wood: { inc: 2 } } });
    expectTypeOf(chop).toEqualTypeOf<ActionSpec<WorldState>>();
    expectTypeOf(new GoalSpec({ conditions: { anything: 1 } })).toEqualTypeOf<GoalSpec<WorldState>>();
    expectTypeOf(new GoapGraph([chop])).toEqualTypeOf<GoapGraph<WorldState>>();
    expectTypeOf(plan({}, { wood: 1 }, [chop])).toEqualTypeOf<Plan | null>();
    expectTypeOf<ConditionsOf>().toEqualTypeOf<import("../../src/index.js").Conditions>();
    expectTypeOf<EffectsOf>().toEqualTypeOf<import("../../src/index.js").Effects>();
  });

  it("typed actions go wherever untyped ones do", () => {
    const chop = d.action({ name: "chop", effects: { wood: { inc: 2 } } });
    expectTypeOf(plan(start, { wood: 2 }, [chop])).toEqualTypeOf<Plan | null>();
  });
});

describe("ActionContext.config", () => {
  it("is LangGraph's config, passable to a chat model without a cast", () => {
    expectTypeOf<ActionContext["config"]>().toEqualTypeOf<LangGraphRunnableConfig | undefined>();
    const model = {} as BaseChatModel;
    d.action({
      name: "ask",
      execute: async (_s, ctx) => {
        await model.invoke("hello", ctx.config);
        expectTypeOf(ctx.config?.store).not.toBeAny();
        return {};
      },
    });
  });
});
