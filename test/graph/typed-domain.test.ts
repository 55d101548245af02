import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ActionSpec,
  type ActionSpecOptions,
  type Conditions,
  type ConditionsOf,
  type FactsOf,
  GoalSpec,
  LangGoapError,
  validateDomain,
} from "../../src/core/index.js";
import { defineDomain, GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { plan } from "../../src/planner/index.js";
import { quietLogger } from "./support.js";

const facts = z.object({
  has_axe: z.boolean(),
  wood: z.number().min(0).describe("logs in the pile"),
  gold: z.number(),
  mood: z.enum(["calm", "angry"]).default("calm"),
  log: z.array(z.string()),
});
type Facts = FactsOf<typeof facts>;

/** One set of options, built once typed (by the domain) and once untyped (new ActionSpec). */
const options = [
  { name: "buy_axe", preconditions: { has_axe: false, gold: { gte: 3 } }, effects: { has_axe: true, gold: { dec: 3 } }, cost: 1 },
  { name: "chop", preconditions: { has_axe: true }, effects: { wood: { inc: 2 } }, cost: 2 },
  { name: "gather", effects: { wood: { inc: 1 } }, cost: 3 },
  {
    name: "sell",
    preconditions: { wood: { gte: 2 } },
    effects: (s: Readonly<Facts>) => ({ wood: s.wood - 2, gold: s.gold + 1 }),
    effectKeys: ["wood", "gold"] as const,
    cost: (s: Readonly<Facts>) => (s.mood === "calm" ? 1 : 4),
  },
] satisfies ActionSpecOptions<Facts>[];

const d = defineDomain({ facts });
const typed = options.map((o) => d.action(o));
// The same objects, seen untyped (typed options allow `undefined` for optional keys, which untyped ones spell out).
const untyped = options.map((o) => new ActionSpec(o as unknown as ActionSpecOptions));
const start: Facts = { has_axe: false, wood: 0, gold: 3, mood: "calm", log: [] };

describe("typed domains", () => {
  it("build the ordinary runtime objects", () => {
    expect(typed[0]).toBeInstanceOf(ActionSpec);
    expect(typed.map((a) => a.toJSON())).toEqual(untyped.map((a) => a.toJSON()));
    expect(d.goal({ conditions: { wood: { gte: 4 } } })).toBeInstanceOf(GoalSpec);
  });

  it("plan exactly as the untyped API does", async () => {
    const goals: ConditionsOf<Facts>[] = [
      { wood: { gte: 4 } },
      { gold: { gte: 5 } },
      { has_axe: true, wood: 3 },
      { gold: 1, has_axe: true, mood: "calm" },
    ];
    const seen = goals.map((goal) => {
      const a = d.plan(start, goal, typed);
      const b = plan(start, goal as Conditions, untyped);
      expect(b).not.toBeNull();
      expect(a?.actionNames).toEqual(b?.actionNames);
      expect(a?.totalCost).toBe(b?.totalCost);
      expect(a?.expectedStates).toEqual(b?.expectedStates);
      return a?.actionNames;
    });
    expect((await d.planAsync(start, goals[1] as ConditionsOf<Facts>, typed))?.actionNames).toEqual(seen[1]);
    // The goals are not trivial: each has a plan, and they differ.
    expect(seen).toEqual([
      ["buy_axe", "chop", "chop"],
      ["gather", "gather", "gather", "gather", "sell", "sell"],
      ["buy_axe", "chop", "gather"],
      ["buy_axe", "chop", "sell"],
    ]);
  });

  it("plan the same as the untyped API on random starts and goals", () => {
    fc.assert(
      fc.property(
        fc.record({ has_axe: fc.boolean(), wood: fc.nat(6), gold: fc.nat(6), mood: fc.constantFrom("calm" as const, "angry" as const) }),
        fc.nat(8),
        fc.nat(8),
        (world, wood, gold) => {
          const from: Facts = { ...world, log: [] };
          const goal = { wood: { gte: wood }, gold: { gte: gold } };
          const a = d.planDetailed(from, goal, typed, { maxExpansions: 5_000 });
          const b = plan(from, goal, untyped, { maxExpansions: 5_000 });
          expect(a.plan?.actionNames).toEqual(b?.actionNames);
          expect(a.plan?.totalCost).toEqual(b?.totalCost);
        },
      ),
      { seed: 22, numRuns: 60 },
    );
  });

  it("run in a graph as the untyped API does, with the world typed", async () => {
    const goal: ConditionsOf<Facts> = { gold: { gte: 4 } };
    const [a, b] = await Promise.all([
      d.graph(typed, { logger: quietLogger() }).invoke(goal, start),
      new GoapGraph(untyped, { logger: quietLogger() }).invoke(goal as Conditions, start),
    ]);
    expect(a.status).toBe("goal_achieved");
    expect(successfulActionNames(a)).toEqual(successfulActionNames(b));
    expect(successfulActionNames(a)).toEqual(["gather", "gather", "sell"]);
    expect(a.worldState).toEqual(b.worldState);
    expect(a.worldState.gold).toBe(4);
  });

  it("check a start state with the zod schema: defaults filled, unknown keys kept, a wrong fact named", () => {
    expect(d.state({ has_axe: true, wood: 1, gold: 0, log: [], note: "kept" })).toEqual({
      has_axe: true,
      wood: 1,
      gold: 0,
      mood: "calm",
      log: [],
      note: "kept",
    });
    const error = (() => {
      try {
        d.state({ has_axe: true, wood: "1", gold: 0, log: [] });
      } catch (e) {
        return e as LangGoapError;
      }
    })();
    expect(error).toBeInstanceOf(LangGoapError);
    expect(error?.code).toBe("INVALID_STATE");
    expect(error?.message).toBe('defineDomain state: fact "wood": Invalid input: expected number, received string');
    expect(() => d.state({ ...start, wood: -1 })).toThrow(/fact "wood": Too small/);
    expect(() => d.state([start])).toThrow("defineDomain state: expected an object of facts, got [{");
  });

  it("derive the fact catalog from the zod schema (non-facts left out)", () => {
    expect(d.catalog).toEqual({
      has_axe: { type: "boolean" },
      wood: { type: "number", min: 0, description: "logs in the pile" },
      gold: { type: "number" },
      mood: { type: "string", values: ["calm", "angry"] },
    });
    // One definition serves validateDomain too: a condition on an undeclared fact is refused.
    expect(() => validateDomain({ actions: [new ActionSpec({ name: "x", preconditions: { woood: 1 } })], facts: d.catalog })).toThrow(
      /woood/,
    );
  });

  it("accept a plain record of fact types, checked the same way", () => {
    const r = defineDomain({
      facts: { has_axe: "boolean", wood: { type: "number", min: 0 }, mood: { type: "string", values: ["calm", "angry"] } },
    });
    expect(r.catalog).toEqual({
      has_axe: { type: "boolean" },
      wood: { type: "number", min: 0 },
      mood: { type: "string", values: ["calm", "angry"] },
    });
    expect(r.state({ has_axe: true, wood: 2, mood: "calm" })).toEqual({ has_axe: true, wood: 2, mood: "calm" });
    expect(() => r.state({ has_axe: true, wood: 2 })).toThrow('defineDomain state: fact "mood" must be a string, got undefined');
    expect(() => r.state({ has_axe: true, wood: 2, mood: "sad" })).toThrow('fact "mood" must be one of calm, angry, got "sad"');
    expect(() => r.state({ has_axe: 1, wood: 2, mood: "calm" })).toThrow('fact "has_axe" must be a boolean, got 1');
    expect(() => r.state({ has_axe: true, wood: -1, mood: "calm" })).toThrow('fact "wood" must be >= 0, got -1');
    expect(() => r.state({ has_axe: true, wood: Number.NaN, mood: "calm" })).toThrow('fact "wood" must be a finite number');
    const chop = r.action({ name: "chop", preconditions: { has_axe: true }, effects: { wood: { inc: 1 } } });
    expect(r.plan({ has_axe: true, wood: 0, mood: "calm" }, { wood: 2 }, [chop])?.actionNames).toEqual(["chop", "chop"]);
  });

  it("refuse a malformed facts definition with a coded error naming the fact", () => {
    // @ts-expect-error -- "float" is no fact type
    expect(() => defineDomain({ facts: { wood: "float" } })).toThrow(
      'defineDomain: fact "wood" must be declared "boolean", "number", "string" or { type, ... }, got "float"',
    );
    // @ts-expect-error -- facts are required
    expect(() => defineDomain({})).toThrow(/facts must be a zod object or a record/);
  });

  it("hand execute LangGraph's config: the thread, the store", async () => {
    const seen: unknown[] = [];
    const look = d.action({
      name: "look",
      effects: { has_axe: true },
      execute: (s, ctx) => {
        // LangGraph hands nodes the compiled store behind its batching wrapper.
        seen.push(ctx.config?.configurable?.thread_id, typeof ctx.config?.store?.put);
        return { has_axe: true, log: [...s.log, "looked"] };
      },
    });
    const graph = d.graph([look], { logger: quietLogger(), history: false });
    graph.compile({ checkpointer: new MemorySaver(), store: new InMemoryStore() });
    const result = await graph.invoke({ has_axe: true }, start, { configurable: { thread_id: "t-typed" } });
    expect(result.status).toBe("goal_achieved");
    expect(result.worldState.log).toEqual(["looked"]);
    expect(seen).toEqual(["t-typed", "function"]);
  });
});

describe("one goal shape everywhere: bare conditions or { conditions, name? }", () => {
  const cheapest = ["buy_axe", "chop", "chop"];

  it("d.goal takes bare conditions as plan and invoke do (it made an empty goal of them, satisfied at once)", () => {
    const goal = d.goal({ wood: { gte: 4 } });
    expect(goal.conditions).toEqual({ wood: { gte: 4 } });
    expect(d.plan(start, goal, typed)?.actionNames).toEqual(cheapest);
    expect(d.goal({ conditions: { wood: { gte: 4 } }, name: "stock" }).name).toBe("stock");
    // Options alone (no conditions) stay options: an empty goal named "idle".
    expect(d.goal({ name: "idle" })).toMatchObject({ conditions: {}, name: "idle" });
  });

  it("plan, d.plan, invoke and MultiGoal take a goal object { conditions, name? } as d.goal does", async () => {
    const object = { conditions: { wood: { gte: 4 } }, name: "stock" } as const;
    expect(plan(start, object, untyped)?.actionNames).toEqual(cheapest);
    expect(d.plan(start, object, typed)?.actionNames).toEqual(cheapest);
    const result = await d.graph(typed, { logger: quietLogger() }).invoke(object, start);
    expect(result.status).toBe("goal_achieved");
    expect(successfulActionNames(result)).toEqual(cheapest);
    expect(d.multiGoal({ goals: [object, { gold: { gte: 0 } }] }).goals.map((g) => g.name)).toEqual(["stock", undefined]);
  });

  it("a goal object with GoalSpec-only options or an unknown key is refused, naming it", () => {
    expect(() => plan(start, { conditions: { wood: 4 }, policy: { replanStrategy: "never" } } as never, untyped)).toThrow(
      expect.objectContaining({ code: "INVALID_GOAL", message: expect.stringContaining("a goal with policy is a GoalSpec") }),
    );
    expect(() => plan(start, { conditions: { wood: 4 }, nmae: "x" } as never, untyped)).toThrow(
      expect.objectContaining({ code: "UNKNOWN_OPTION", message: expect.stringContaining('did you mean "name"') }),
    );
  });

  it("a typed goal mixing goal options and facts is refused as ambiguous; a fact named like an option stays a condition", () => {
    expect(() => d.goal({ name: "stock", wood: 4 } as never)).toThrow(
      expect.objectContaining({ code: "INVALID_GOAL", message: expect.stringContaining('give the conditions under "conditions"') }),
    );
    const named = defineDomain({ facts: { name: "string", conditions: "boolean" } });
    expect(named.goal({ name: "bob" }).conditions).toEqual({ name: "bob" });
    // A fact called "conditions" is written inside the goal object.
    const flip = named.action({ name: "flip", effects: { conditions: true } });
    expect(named.plan({ name: "bob", conditions: false }, { conditions: { conditions: true } }, [flip])?.actionNames).toEqual(["flip"]);
  });
});
