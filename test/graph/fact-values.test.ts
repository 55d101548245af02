import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { FunctionalSensor, GoapGraph, runSensors } from "../../src/graph/index.js";
import { quietLogger, tracked } from "./support.js";

const BAD_NUMBERS = [
  ["Infinity", Number.POSITIVE_INFINITY],
  ["NaN", Number.NaN],
  ["a string", "three"],
] as const;

/** `gather` really happened and must survive; `weigh` writes the bad value; `buy` is the paid way round. */
function woodDomain(calls: string[], bad: unknown) {
  return [
    tracked(calls, { name: "gather", effects: { kindling: true }, run: () => ({ kindling: true }) }),
    tracked(calls, {
      name: "weigh",
      preconditions: { kindling: true },
      effects: { wood: { inc: 3 } },
      run: () => ({ wood: bad }),
    }),
    tracked(calls, { name: "buy", preconditions: { kindling: true }, effects: { wood: { inc: 3 } }, cost: 10 }),
  ];
}

describe("values a fact cannot hold", () => {
  for (const [label, bad] of BAD_NUMBERS) {
    it(`an action writing ${label} to a number fact fails naming the action, the fact and the value; the run goes on`, async () => {
      const calls: string[] = [];
      const graph = new GoapGraph(woodDomain(calls, bad), { logger: quietLogger() });
      const result = await graph.invoke({ wood: { gte: 3, lte: 5 } }, { wood: 0 });
      expect(result.status).toBe("goal_achieved");
      expect(calls).toEqual(["gather", "weigh", "buy"]);
      const failed = result.executionHistory.find((r) => !r.success);
      const shown = typeof bad === "string" ? JSON.stringify(bad) : String(bad);
      const expected = typeof bad === "string" ? "a finite number (it is a number fact)" : "a finite number";
      expect(failed?.failure).toBe("invalid_value");
      expect(failed?.error).toBe(`action "weigh" set "wood" to ${shown}; expected ${expected}`);
      // The failed action leaves no trace; the one before it is kept.
      expect(failed?.stateAfter).toEqual({ wood: 0, kindling: true });
      expect(result.worldState).toEqual({ wood: 3, kindling: true });
    });

    it(`an action writing ${label} as the only way ends failed with the partial result kept`, async () => {
      const calls: string[] = [];
      const [gather, weigh] = woodDomain(calls, bad);
      const graph = new GoapGraph([gather as ActionSpec, weigh as ActionSpec], { logger: quietLogger() });
      const result = await graph.invoke({ wood: { gte: 3, lte: 5 } }, { wood: 0 });
      expect(result.status).toBe("failed");
      expect(result.replanReason).toMatch(/^action_exhausted: "weigh" failed 2 times \(last: action "weigh" set "wood" to /);
      expect(calls).toEqual(["gather", "weigh", "weigh"]);
      expect(result.worldState).toEqual({ wood: 0, kindling: true });
    });

    it(`a sensor reporting ${label} for a number fact is skipped with a warning naming it, the fact and the value`, async () => {
      const logger = quietLogger();
      const scale = new FunctionalSensor("scale", () => ({ wood: bad as never, weighed: true }));
      const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 1 } } });
      const graph = new GoapGraph([chop], { logger, sensors: [scale] });
      const result = await graph.invoke({ wood: { gte: 3, lte: 5 } }, { wood: 0 });
      expect(result.status).toBe("goal_achieved");
      expect(result.worldState).toEqual({ wood: 3 });
      const shown = typeof bad === "string" ? JSON.stringify(bad) : String(bad);
      expect(logger.messages).toContain(
        `sensor "scale" set "wood" to ${shown}; expected a finite number${typeof bad === "string" ? " (it is a number fact)" : ""}, so its update was skipped`,
      );
    });
  }

  it("a key no action or goal uses as a number may take any JSON value, but never NaN or Infinity", async () => {
    const logger = quietLogger();
    const sensors = [
      new FunctionalSensor("label", () => ({ note: "hello", count: "many" })),
      new FunctionalSensor("ratio", () => ({ ratio: Number.NaN })),
    ];
    const world = await runSensors(sensors, { count: 1 }, { logger });
    expect(world).toEqual({ count: "many", note: "hello" });
    expect(logger.messages).toEqual(['sensor "ratio" set "ratio" to NaN; expected a finite number, so its update was skipped']);
  });

  it("without sensors, observing reads none of the actions (a round over 10,000 actions paid 100-150 ms for fact types)", async () => {
    const untouchable = new Proxy([] as ActionSpec[], {
      get(target, key) {
        if (key === "length" || key === Symbol.iterator) throw new Error("the actions were read");
        return Reflect.get(target, key);
      },
    });
    expect(await runSensors([], { count: 1 }, { actions: untouchable, logger: quietLogger() })).toEqual({ count: 1 });
    const sensors = [new FunctionalSensor("label", () => ({ note: "hello" }))];
    await expect(runSensors(sensors, { count: 1 }, { actions: untouchable, logger: quietLogger() })).rejects.toThrow(
      "the actions were read",
    );
  });

  it("a planning key that held a number is a number fact even behind a function effect", async () => {
    const calls: string[] = [];
    const heal = tracked(calls, {
      name: "heal",
      effects: (s) => ({ hp: (s.hp as number) + 5, healed: true }),
      effectKeys: ["hp", "healed"],
      run: () => ({ hp: "full", healed: true }),
    });
    const result = await new GoapGraph([heal], { logger: quietLogger() }).invoke({ healed: true }, { hp: 10 });
    expect(result.executionHistory[0]?.error).toBe('action "heal" set "hp" to "full"; expected a finite number (it is a number fact)');
  });
});
