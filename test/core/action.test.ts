import { describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError, validateActions } from "../../src/core/index.js";
import { errorOf } from "./support.js";

describe("ActionSpec", () => {
  it("is frozen and applies static, operator and function effects", () => {
    const chop = new ActionSpec({ name: "chop", preconditions: { axe: true }, effects: { wood: { inc: 2 }, tired: true }, cost: 2 });
    expect(Object.isFrozen(chop)).toBe(true);
    expect(Object.isFrozen(chop.preconditions)).toBe(true);
    expect(chop.apply({ axe: true, wood: 1 })).toEqual({ axe: true, wood: 3, tired: true });
    expect(chop.apply({ axe: true })).toEqual({ axe: true, wood: 2, tired: true });
    const sell = new ActionSpec({ name: "sell", effects: { gold: { dec: 1 }, state: { set: "sold" } } });
    expect(sell.apply({ gold: 5 })).toEqual({ gold: 4, state: "sold" });
    const halve = new ActionSpec({ name: "halve", effects: (s) => ({ n: (s.n as number) / 2 }), effectKeys: ["n"] });
    expect(halve.apply({ n: 8, other: "x" })).toEqual({ n: 4, other: "x" });
    expect(halve.hasDynamicEffects).toBe(true);
    expect([...halve.effectKeys]).toEqual(["n"]);
  });

  it("computes dynamic costs and validates them", () => {
    const move = new ActionSpec({ name: "move", cost: (s) => (s.far ? 5 : 1) });
    expect(move.getCost({ far: true })).toBe(5);
    expect(move.getCost({})).toBe(1);
    const broken = new ActionSpec({ name: "broken", cost: () => -1 });
    const e = errorOf(() => broken.getCost({}));
    expect(e.code).toBe("INVALID_ACTION");
    expect(e.message).toContain('action "broken"');
    expect(e.message).toContain("-1");
  });

  it.each([
    [{ name: "" }, "name"],
    [{ name: "has space" }, "name"],
    [{ name: "a", cost: Number.NaN }, 'action "a": cost must be a finite number >= 0 or a function, got NaN'],
    [{ name: "a", cost: -2 }, 'action "a": cost must be a finite number >= 0 or a function, got -2'],
    [{ name: "a", maxRetries: 1.5 }, "maxRetries must be an integer >= 0"],
    [{ name: "a", durationMs: -1 }, "durationMs"],
    [{ name: "a", resources: { usd: Number.POSITIVE_INFINITY } }, "resources.usd"],
    [{ name: "a", effects: () => ({}) }, "effectKeys must be given when effects is a function"],
    [{ name: "a", effects: { x: 1 }, effectKeys: ["x"] }, "effectKeys must be omitted"],
  ])("rejects bad options %#", (options, message) => {
    const e = errorOf(() => new ActionSpec(options as never));
    expect(e.code).toBe("INVALID_ACTION");
    expect(e.message).toContain(message);
  });

  it("rejects unknown operators and mistyped operands naming the action and key", () => {
    const op = errorOf(() => new ActionSpec({ name: "chop", preconditions: { wood: { atLeast: 3 } as never } }));
    expect(op.code).toBe("INVALID_CONDITION");
    expect(op.message).toBe(
      'action "chop" preconditions key "wood": unknown operator "atLeast"; expected one of eq, ne, gt, gte, lt, lte, in',
    );
    const str = errorOf(() => new ActionSpec({ name: "chop", preconditions: { wood: { gte: "3" } as never } }));
    expect(str.message).toBe('action "chop" preconditions key "wood": operator "gte" compares numbers, got "3"');
    const eff = errorOf(() => new ActionSpec({ name: "chop", effects: { wood: { mul: 2 } as never } }));
    expect(eff.code).toBe("INVALID_EFFECT");
    expect(eff.message).toContain('unknown operator "mul"');
    const inc = errorOf(() => new ActionSpec({ name: "chop", effects: { wood: { inc: "2" } as never } }));
    expect(inc.message).toContain('operator "inc" expects a finite number, got "2"');
  });

  it("rejects a function effect that writes an undeclared key or a non-fact", () => {
    const sneaky = new ActionSpec({ name: "sneaky", effects: () => ({ a: 1, b: 2 }), effectKeys: ["a"] });
    const e = errorOf(() => sneaky.apply({}));
    expect(e.code).toBe("INVALID_EFFECT");
    expect(e.message).toContain('action "sneaky": effect function wrote undeclared key "b"');
    const objecty = new ActionSpec({ name: "objecty", effects: () => ({ a: { deep: true } }) as never, effectKeys: ["a"] });
    expect(errorOf(() => objecty.apply({})).message).toContain('returned {"deep":true} for key "a"');
  });

  it("rejects inc on a value that is not a number", () => {
    const inc = new ActionSpec({ name: "inc", effects: { n: { inc: 1 } } });
    const e = errorOf(() => inc.apply({ n: "x" }));
    expect(e.message).toBe('action "inc" effect on "n": "inc" needs a number but the state holds "x"');
  });

  it("validates effects with the custom validator or the declared effects", async () => {
    const a = new ActionSpec({ name: "a", effects: { done: true } });
    expect(await a.validateEffects({}, { done: true })).toBe(true);
    expect(await a.validateEffects({}, { done: false })).toBe(false);
    const b = new ActionSpec({ name: "b", effects: { done: true }, effectValidator: (_pre, post) => post.ok === 1 });
    expect(await b.validateEffects({}, { ok: 1 })).toBe(true);
  });

  it("with() derives a new validated spec", () => {
    const a = new ActionSpec({ name: "a", cost: 1, effects: { x: true } });
    const b = a.with({ cost: 3 });
    expect(b.cost).toBe(3);
    expect(a.cost).toBe(1);
    expect(b.effects).toEqual({ x: true });
    expect(() => a.with({ cost: -1 })).toThrow(LangGoapError);
  });

  it("validateActions rejects duplicates and non-specs", () => {
    const a = new ActionSpec({ name: "a" });
    expect(errorOf(() => validateActions([a, new ActionSpec({ name: "a" })])).message).toBe(
      'duplicate action name "a"; action names must be unique',
    );
    expect(errorOf(() => validateActions([{ name: "x" } as never])).code).toBe("INVALID_ACTION");
  });
});
