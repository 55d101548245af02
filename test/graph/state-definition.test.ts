/**
 * The graph's state is defined once, by its Annotation: the run-start
 * values, the input that starts a run and the served schemas all derive
 * from (or are checked against) its channels.
 */
import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { GOAP_RUN_INPUT_SCHEMA, GOAP_RUN_OUTPUT_SCHEMA, GoapGraph, TERMINAL_STATUSES } from "../../src/graph/index.js";
import { freshRunState } from "../../src/graph/state.js";

const graph = new GoapGraph([new ActionSpec({ name: "a", effects: { x: true } })], { seed: 7 });
const channels = Object.keys(graph.state.spec).sort();

describe("the state defined once", () => {
  it("a new run starts from every channel's default but the goal and the world", () => {
    const fresh = freshRunState(7);
    expect(Object.keys(fresh).sort()).toEqual(channels.filter((k) => k !== "goal" && k !== "worldState"));
    expect(fresh).toMatchObject({ status: "executing", executionHistory: [], plan: null, rngState: 7, replanCount: 0 });
    // Each call gives fresh containers: a run never shares its lists with another.
    expect(freshRunState(7).blacklistedActions).not.toBe(fresh.blacklistedActions);
  });

  it("createInput writes every channel (the world only when given)", () => {
    expect(Object.keys(graph.createInput({ x: true }, {})).sort()).toEqual(channels);
    expect(Object.keys(graph.createInput({ x: true })).sort()).toEqual(channels.filter((k) => k !== "worldState"));
  });

  it("the served input and output name channels of the Annotation, and the output's statuses are every GoapStatus", () => {
    for (const key of [...Object.keys(GOAP_RUN_INPUT_SCHEMA.shape), ...Object.keys(GOAP_RUN_OUTPUT_SCHEMA.shape)]) {
      expect(channels).toContain(key);
    }
    const statuses = GOAP_RUN_OUTPUT_SCHEMA.shape.status.options as readonly string[];
    for (const terminal of TERMINAL_STATUSES) expect(statuses).toContain(terminal);
    expect(statuses).toContain("awaiting_human");
    expect(statuses).toContain("executing");
  });
});
