import { describe, expect, it } from "vitest";
import { ActionSpec, ConditionStatus, type PlanningTracer } from "../../src/core/index.js";
import { FunctionalConditionResolver, FunctionalSensor, GoapGraph, resolveConditions, runSensors } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

describe("sensors", () => {
  it("run before each planning round, in order, each seeing the previous updates", async () => {
    const logger = quietLogger();
    const seen: string[] = [];
    const tracer: PlanningTracer = { onSensorComplete: (name, updates) => seen.push(`${name}:${JSON.stringify(updates)}`) };
    const state = await runSensors(
      [
        new FunctionalSensor("stock", () => ({ stock: 3 })),
        new FunctionalSensor("broken", () => {
          throw new Error("camera offline");
        }),
        new FunctionalSensor("derived", (ws) => ({ in_stock: (ws.stock as number) > 0 })),
        new FunctionalSensor("nonsense", () => 7 as never),
      ],
      { stock: 0, other: "kept" },
      { tracer, logger },
    );
    expect(state).toEqual({ stock: 3, other: "kept", in_stock: true });
    expect(seen).toEqual(['stock:{"stock":3}', 'derived:{"in_stock":true}']);
    expect(logger.messages).toEqual([
      'sensor "broken" threw and was skipped: camera offline',
      'sensor "nonsense" returned number; expected an object of facts, so it was skipped',
    ]);
  });

  it("feed the planner: a sensed fact changes the plan", async () => {
    const actions = [
      new ActionSpec({ name: "sell", preconditions: { in_stock: true }, effects: { sold: true } }),
      new ActionSpec({ name: "restock_and_sell", effects: { sold: true }, cost: 5 }),
    ];
    let stock = 0;
    const graph = new GoapGraph(actions, {
      sensors: [new FunctionalSensor("stock", () => ({ in_stock: stock > 0 }))],
      logger: quietLogger(),
    });
    expect((await graph.invoke({ sold: true }, {})).plan?.actions).toEqual(["restock_and_sell"]);
    stock = 2;
    expect((await graph.invoke({ sold: true }, {})).plan?.actions).toEqual(["sell"]);
  });
});

describe("condition resolvers", () => {
  const numeric = new FunctionalConditionResolver("numeric", (key, ws) =>
    key === "can_afford" ? (ws.gold as number) >= 10 : ConditionStatus.UNKNOWN,
  );
  const words = new FunctionalConditionResolver("words", (key) => (key === "weather_ok" ? "yes" : null));

  it("are three-valued: TRUE and FALSE write booleans, all-UNKNOWN leaves the key absent", async () => {
    const state = await resolveConditions([numeric, words], ["can_afford", "weather_ok", "mystery"], { gold: 4 });
    expect(state).toEqual({ gold: 4, can_afford: false, weather_ok: true });
    expect("mystery" in state).toBe(false);
  });

  it("skip keys already present unless asked to overwrite, and treat a throw as UNKNOWN", async () => {
    const logger = quietLogger();
    const throwing = new FunctionalConditionResolver("throwing", () => {
      throw new Error("llm timeout");
    });
    expect(await resolveConditions([throwing, numeric], ["can_afford"], { gold: 20 }, { logger })).toEqual({ gold: 20, can_afford: true });
    expect(logger.messages).toEqual(['condition resolver "throwing" threw on "can_afford"; treated as unknown: llm timeout']);
    expect(await resolveConditions([numeric], ["can_afford"], { gold: 20, can_afford: false })).toEqual({ gold: 20, can_afford: false });
    expect(await resolveConditions([numeric], ["can_afford"], { gold: 20, can_afford: false }, { overwrite: true })).toEqual({
      gold: 20,
      can_afford: true,
    });
  });

  it("decide numeric preconditions before planning", async () => {
    const actions = [
      new ActionSpec({ name: "buy", preconditions: { can_afford: true }, effects: { owned: true } }),
      new ActionSpec({ name: "work", effects: { gold: 10, can_afford: true }, cost: 3 }),
      new ActionSpec({ name: "sell_house", effects: { owned: true }, cost: 50 }),
    ];
    const graph = new GoapGraph(actions, { resolvers: [numeric], logger: quietLogger() });
    expect((await graph.invoke({ owned: true }, { gold: 12 })).plan?.actions).toEqual(["buy"]);
    expect((await graph.invoke({ owned: true }, { gold: 2 })).executionHistory.map((r) => r.actionName)).toEqual(["work", "buy"]);
    const unknown = new GoapGraph(actions, { resolvers: [words], logger: quietLogger() });
    // can_afford stays absent (UNKNOWN), so buy is planned only after work establishes it.
    expect((await unknown.invoke({ owned: true }, { gold: 12 })).executionHistory.map((r) => r.actionName)).toEqual(["work", "buy"]);
  });
});
