import { describe, expect, it } from "vitest";
import { ActionQos, ActionSpec, type WorldState } from "../../src/core/index.js";
import { copyState } from "../../src/graph/copy-state.js";
import { FunctionalSensor, GoapGraph } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

/** A fresh start state each time (an action that corrupted one must not hide it by corrupting the expectation too). */
const start = () => ({ cart: { items: ["apple"] }, tags: ["new"] });

describe("the state given to actions is theirs to read, not to corrupt", () => {
  it("an action that pushes into a nested array and throws leaves no trace, and its retry sees the original", async () => {
    const seen: string[][] = [];
    const add = new ActionSpec({
      name: "add_pear",
      effects: { added: true },
      qos: new ActionQos({ maxAttempts: 2, idempotent: true, backoffInitialMs: 0, jitter: 0 }),
      execute: (state, ctx) => {
        const items = (state.cart as { items: string[] }).items;
        seen.push([...items]);
        items.push("pear");
        (state.tags as string[]).length = 0;
        if (ctx.attempt === 1) throw new Error("payment gateway down");
        return { added: true };
      },
    });
    const other = new ActionSpec({ name: "give_up", effects: { added: true }, cost: 9 });
    const result = await new GoapGraph([add, other], { logger: quietLogger(), sleep: async () => undefined }).invoke(
      { added: true },
      start(),
    );
    expect(seen).toEqual([["apple"], ["apple"]]);
    expect(result.worldState).toEqual({ ...start(), added: true });
    expect(result.executionHistory[0]?.stateBefore).toEqual(start());
  });

  it("a failed action leaves the world as it was; the history's stateBefore is exact", async () => {
    const spoil = new ActionSpec({
      name: "spoil",
      effects: { done: true },
      execute: (state) => {
        (state.cart as { items: string[] }).items.push("mould");
        throw new Error("gave up");
      },
    });
    const fine = new ActionSpec({ name: "fine", effects: { done: true }, cost: 5 });
    const result = await new GoapGraph([spoil, fine], { logger: quietLogger() }).invoke({ done: true }, start());
    expect(result.status).toBe("goal_achieved");
    expect(result.worldState.cart).toEqual({ items: ["apple"] });
    const [failed, succeeded] = result.executionHistory;
    expect(failed?.stateBefore.cart).toEqual({ items: ["apple"] });
    expect(failed?.stateAfter.cart).toEqual({ items: ["apple"] });
    expect(succeeded?.stateBefore.cart).toEqual({ items: ["apple"] });
  });

  it("a successful action changes the world only through what it returns; history shows the state before it", async () => {
    const quiet = new ActionSpec({
      name: "scribble",
      effects: { noted: true },
      execute: (state) => {
        (state.cart as { items: string[] }).items.push("scribble");
      },
    });
    const add = new ActionSpec({
      name: "add_pear",
      preconditions: { noted: true },
      effects: { added: true },
      execute: (state) => {
        const cart = state.cart as { items: string[] };
        cart.items.push("pear");
        return { cart, added: true };
      },
    });
    const result = await new GoapGraph([quiet, add], { logger: quietLogger() }).invoke({ added: true }, start());
    expect(result.worldState.cart).toEqual({ items: ["apple", "pear"] });
    expect(result.executionHistory.map((r) => (r.stateBefore.cart as { items: string[] }).items)).toEqual([["apple"], ["apple"]]);
    expect(result.executionHistory.map((r) => (r.stateAfter.cart as { items: string[] }).items)).toEqual([["apple"], ["apple", "pear"]]);
  });

  it("an effect validator cannot corrupt the state either", async () => {
    const move = new ActionSpec({
      name: "move",
      effects: { moved: true },
      effectValidator: (before, after) => {
        (before.tags as string[]).push("validated");
        (after.tags as string[]).push("validated");
        return true;
      },
    });
    const result = await new GoapGraph([move], { logger: quietLogger() }).invoke({ moved: true }, start());
    expect(result.worldState).toEqual({ ...start(), moved: true });
    expect(result.executionHistory[0]?.stateBefore).toEqual(start());
  });

  it("a sensor that scribbles on what it reads and throws leaves no trace", async () => {
    const logger = quietLogger();
    const nosy = new FunctionalSensor("nosy", (state) => {
      (state.tags as string[]).push("sensed");
      throw new Error("sensor offline");
    });
    const act = new ActionSpec({ name: "act", effects: { done: true } });
    const result = await new GoapGraph([act], { logger, sensors: [nosy] }).invoke({ done: true }, start());
    expect(result.worldState).toEqual({ ...start(), done: true });
  });
});

describe("copyState", () => {
  it("copies plain objects, arrays and dates at every depth and keeps sharing and cycles as they were", () => {
    const shared = { n: 1 };
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const when = new Date(0);
    const map = new Map([["k", 1]]);
    const state: WorldState = { a: [shared, shared], cyclic, when, map, flag: true, n: 2, s: "x", none: null };
    const copy = copyState(state);
    expect(copy).toEqual(state);
    expect(copy.a).not.toBe(state.a);
    const [first, second] = copy.a as object[];
    expect(first).not.toBe(shared);
    expect(first).toBe(second);
    expect((copy.cyclic as Record<string, unknown>).self).toBe(copy.cyclic);
    expect(copy.when).not.toBe(when);
    expect((copy.when as Date).getTime()).toBe(0);
    // Not JSON: shared as is.
    expect(copy.map).toBe(map);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it("keeps a key named __proto__ as an own property and never touches prototypes", () => {
    const state = JSON.parse('{"__proto__": {"polluted": true}, "nested": {"__proto__": {"x": 1}}}') as WorldState;
    const copy = copyState(state);
    expect(Object.keys(copy)).toEqual(["__proto__", "nested"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((copy as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(copy.nested as object)).toEqual(["__proto__"]);
  });
});
