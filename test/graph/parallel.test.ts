import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec, type ActionSpecOptions } from "../../src/core/index.js";
import { GoapGraph, nextWave, planDependencies, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Actions that log `start:x` / `end:x` around a yield to the event loop, so concurrency shows in the order. */
function logged(log: string[], options: ActionSpecOptions & { fail?: boolean; honorAbort?: boolean }): ActionSpec {
  const { fail, honorAbort, ...spec } = options;
  return new ActionSpec({
    ...spec,
    execute: async (state, ctx) => {
      log.push(`start:${spec.name}`);
      if (fail) throw new Error(`${spec.name} broke`);
      await tick();
      await tick();
      if (honorAbort && ctx.signal?.aborted) {
        log.push(`abort:${spec.name}`);
        throw new Error("aborted");
      }
      log.push(`end:${spec.name}`);
      return { ...spec.effects, [`${spec.name}_saw`]: Object.keys(state).sort().join(",") } as Record<string, unknown>;
    },
  });
}

function fanIn(log: string[]) {
  return [
    logged(log, { name: "fetch_a", effects: { a: true } }),
    logged(log, { name: "fetch_b", effects: { b: true } }),
    logged(log, { name: "fetch_c", effects: { c: true } }),
    logged(log, { name: "merge", preconditions: { a: true, b: true, c: true }, effects: { merged: true } }),
  ];
}

describe("parallel waves", () => {
  it("groups independent steps and stops a wave at the first dependent step", () => {
    const [a, b, c, merge] = fanIn([]);
    const chain = [a!, merge!, b!];
    expect(planDependencies([a!, b!, c!, merge!])).toEqual([[], [], [], [0, 1, 2]]);
    expect(nextWave([a!, b!, c!, merge!], 0)).toEqual([0, 1, 2]);
    expect(nextWave([a!, b!, c!, merge!], 3)).toEqual([3]);
    expect(nextWave(chain, 0)).toEqual([0]);
    const inc1 = new ActionSpec({ name: "inc1", effects: { n: { inc: 1 } } });
    const inc2 = new ActionSpec({ name: "inc2", effects: { n: { inc: 2 } } });
    expect(nextWave([inc1, inc2], 0)).toEqual([0]);
  });

  it("runs independent actions concurrently and dependent ones after them", async () => {
    const log: string[] = [];
    const result = await new GoapGraph(fanIn(log), { parallel: true, logger: quietLogger() }).invoke({ merged: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(log).toEqual([
      "start:fetch_a",
      "start:fetch_b",
      "start:fetch_c",
      "end:fetch_a",
      "end:fetch_b",
      "end:fetch_c",
      "start:merge",
      "end:merge",
    ]);
    // Each wave member saw the wave-start snapshot, not its siblings' effects.
    expect(result.worldState).toMatchObject({ a: true, b: true, c: true, merged: true, fetch_a_saw: "", fetch_b_saw: "", fetch_c_saw: "" });
    expect(result.worldState.merge_saw).toBe("a,b,c,fetch_a_saw,fetch_b_saw,fetch_c_saw");
    expect(successfulActionNames(result)).toEqual(["fetch_a", "fetch_b", "fetch_c", "merge"]);
  });

  it("runs the same plan one action at a time without parallel", async () => {
    const log: string[] = [];
    await new GoapGraph(fanIn(log), { logger: quietLogger() }).invoke({ merged: true }, {});
    expect(log).toEqual([
      "start:fetch_a",
      "end:fetch_a",
      "start:fetch_b",
      "end:fetch_b",
      "start:fetch_c",
      "end:fetch_c",
      "start:merge",
      "end:merge",
    ]);
  });

  it("one failure aborts the wave: siblings see the abort, finished work is kept, the run replans", async () => {
    const log: string[] = [];
    const actions = [
      logged(log, { name: "fetch_a", effects: { a: true } }),
      logged(log, { name: "fetch_b", effects: { b: true }, fail: true }),
      logged(log, { name: "fetch_c", effects: { c: true }, honorAbort: true }),
      logged(log, { name: "fetch_b_mirror", effects: { b: true }, cost: 3 }),
      logged(log, { name: "merge", preconditions: { a: true, b: true, c: true }, effects: { merged: true } }),
    ];
    const result = await new GoapGraph(actions, { parallel: true, logger: quietLogger() }).invoke({ merged: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(log.slice(0, 6)).toEqual([
      "start:fetch_a",
      "start:fetch_b",
      "start:fetch_c",
      "end:fetch_a",
      "abort:fetch_c",
      "start:fetch_b_mirror",
    ]);
    expect(result.executionHistory.slice(0, 3).map((r) => [r.actionName, r.success, r.failure])).toEqual([
      ["fetch_a", true, null],
      ["fetch_b", false, "error"],
      ["fetch_c", false, "aborted"],
    ]);
    expect(result.blacklistedActions).toEqual(["fetch_b"]);
    expect(result.actionFailureCounts).toEqual({ fetch_b: 1 });
    expect(successfulActionNames(result)).toEqual(["fetch_a", "fetch_b_mirror", "fetch_c", "merge"]);
  });

  it("asks for every approval in a wave before running any of it", async () => {
    const log: string[] = [];
    const actions = [
      logged(log, { name: "pay_a", effects: { paid_a: true }, requireHumanApproval: true }),
      logged(log, { name: "pay_b", effects: { paid_b: true }, requireHumanApproval: true }),
    ];
    const graph = new GoapGraph(actions, { parallel: true, logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "wave-approval" } };
    const first = await graph.invoke({ paid_a: true, paid_b: true }, {}, config);
    expect(first.__interrupt__?.[0]?.value).toMatchObject({ action: "pay_a" });
    const second = await graph.resume(true, config);
    expect(second.__interrupt__?.[0]?.value).toMatchObject({ action: "pay_b" });
    expect(log).toEqual([]);
    const done = await graph.resume(true, config);
    expect(done.status).toBe("goal_achieved");
    expect(log).toEqual(["start:pay_a", "start:pay_b", "end:pay_a", "end:pay_b"]);
  });
});
