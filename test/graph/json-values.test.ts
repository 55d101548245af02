import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { describe, expect, it } from "vitest";
import { ActionSpec, findNonJsonValue, LangGoapError, MAX_VALUE_DEPTH, type WorldState } from "../../src/core/index.js";
import { FunctionalSensor, GoapGraph } from "../../src/graph/index.js";
import { plan } from "../../src/planner/index.js";
import { quietLogger } from "./support.js";

function deep(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { d: value };
  return value;
}

function cyclic(): unknown {
  const loop: Record<string, unknown> = { name: "loop" };
  loop.self = loop;
  return { loop };
}

const NOT_JSON: readonly (readonly [string, () => unknown, string, string])[] = [
  ["a BigInt", () => ({ inv: { items: [1, 2, 3, { x: 10n }] } }), "inv.items[3].x", "10n (a BigInt) is not JSON"],
  ["a cycle", cyclic, "loop.self", "a cycle (the value contains itself) is not JSON"],
  ["a Symbol", () => ({ tag: Symbol("t") }), "tag", "Symbol(t) is not JSON"],
  ["a function", () => ({ inv: { run: () => 1 } }), "inv.run", "a function is not JSON"],
  ["a nested NaN", () => ({ stats: { ratios: [0.5, Number.NaN] } }), "stats.ratios[1]", "NaN is not a JSON number"],
  ["a nested Infinity", () => ({ "odd key": { v: Number.NEGATIVE_INFINITY } }), '["odd key"].v', "-Infinity is not a JSON number"],
  ["a Map", () => ({ index: new Map() }), "index", "a Map is not JSON (only plain objects, arrays and dates are)"],
  [
    "5,000-deep nesting",
    () => ({ tree: deep(5_000) }),
    `tree${".d".repeat(MAX_VALUE_DEPTH - 1)}`,
    `nested more than ${MAX_VALUE_DEPTH} levels deep (MAX_VALUE_DEPTH)`,
  ],
];

describe("values are JSON or refused", () => {
  it("findNonJsonValue names the first bad value's path; JSON data, dates and shared (acyclic) objects pass", () => {
    const shared = { n: 1 };
    expect(findNonJsonValue({ a: [shared, shared], when: new Date(0), s: "x", none: null, gone: undefined })).toBeNull();
    for (const [, make, path, reason] of NOT_JSON) expect(findNonJsonValue(make())).toEqual({ path, reason });
  });

  for (const [label, make, path, reason] of NOT_JSON) {
    it(`execute returning ${label} fails the action invalid_value naming the path; the world is untouched`, async () => {
      const hoard = new ActionSpec({ name: "hoard", effects: { stored: true }, execute: () => ({ stored: true, ...(make() as object) }) });
      const store = new ActionSpec({ name: "store", effects: { stored: true }, cost: 5 });
      const result = await new GoapGraph([hoard, store], { logger: quietLogger() }).invoke({ stored: true }, { n: 1 });
      expect(result.status).toBe("goal_achieved");
      expect(result.executionHistory.map((r) => [r.actionName, r.failure, r.error])).toEqual([
        ["hoard", "invalid_value", `action "hoard": execute returned a value that is not JSON at "${path}": ${reason}`],
        ["store", null, null],
      ]);
      expect(result.worldState).toEqual({ n: 1, stored: true });
    });
  }

  it("with 10n on SqliteSaver the thread stays readable (getState was a TypeError)", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const hoard = new ActionSpec({ name: "hoard", effects: { stored: true }, execute: () => ({ stored: true, count: 10n as never }) });
    const graph = new GoapGraph([hoard], { logger: quietLogger() });
    const app = graph.compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "bigint" } };
    const result = await graph.invoke({ stored: true }, {}, config);
    expect(result.status).toBe("failed");
    const snapshot = await app.getState(config);
    expect(snapshot.values.status).toBe("failed");
    expect(snapshot.values.worldState).toEqual({});
  });

  it("a sensor reporting a value that is not JSON is skipped with a warning naming the path", async () => {
    const logger = quietLogger();
    const scale = new FunctionalSensor("scale", () => ({ reading: { raw: 10n } }) as never);
    const act = new ActionSpec({ name: "act", effects: { done: true } });
    const result = await new GoapGraph([act], { logger, sensors: [scale] }).invoke({ done: true }, {});
    expect(result.worldState).toEqual({ done: true });
    expect(logger.messages).toContain(
      'sensor "scale" returned a value that is not JSON at "reading.raw": 10n (a BigInt) is not JSON, so its update was skipped',
    );
  });
});

describe("start states are checked the same way", () => {
  const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 1 } } });

  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    it(`a start fact ${bad} is INVALID_STATE naming it at plan() and at graph invoke (was "a found plan does not replay")`, async () => {
      const code = (fn: () => unknown) => {
        try {
          fn();
        } catch (error) {
          return [(error as LangGoapError).code, (error as LangGoapError).message];
        }
        return null;
      };
      expect(code(() => plan({ wood: bad }, { wood: { gte: 3 } }, [chop]))).toEqual([
        "INVALID_STATE",
        `plan: start state fact "wood": ${bad} is not a JSON number`,
      ]);
      const error = await new GoapGraph([chop], { logger: quietLogger() })
        .invoke({ wood: { gte: 3 } }, { wood: bad })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LangGoapError);
      expect([(error as LangGoapError).code, (error as LangGoapError).message]).toEqual([
        "INVALID_STATE",
        `GoapGraph: start state fact "wood": ${bad} is not a JSON number`,
      ]);
    });
  }

  it("a raw input with a bad start fact (no createInput) fails at the planner node with the same coded error", async () => {
    const app = new GoapGraph([chop], { logger: quietLogger() }).compile();
    const error = await app.invoke({ goal: { wood: { gte: 3 } }, worldState: { wood: Number.NaN } }).catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("INVALID_STATE");
    expect((error as LangGoapError).message).toBe('GoapPlanner: start state fact "wood": NaN is not a JSON number');
  });

  it("a throwing getter or a hostile Proxy as state is a coded error, not a raw Error", async () => {
    const getter = Object.defineProperty({}, "wood", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    }) as WorldState;
    const proxy = new Proxy({} as WorldState, {
      ownKeys() {
        throw new Error("no keys for you");
      },
    });
    for (const [state, reason] of [
      [getter, "could not be read: boom"],
      [proxy, "could not be read: no keys for you"],
    ] as const) {
      const error = (() => {
        try {
          plan(state, { wood: { gte: 3 } }, [chop]);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(LangGoapError);
      expect((error as LangGoapError).code).toBe("INVALID_STATE");
      expect((error as LangGoapError).message).toContain(reason);
      const graphError = await new GoapGraph([chop], { logger: quietLogger() })
        .invoke({ wood: { gte: 3 } }, state)
        .catch((e: unknown) => e);
      expect((graphError as LangGoapError).code).toBe("INVALID_STATE");
    }
  });
});
