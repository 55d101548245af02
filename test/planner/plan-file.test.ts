import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVillageActions, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec, HardSoftScore, type LangGoapError } from "../../src/core/index.js";
import { loadPlan, savePlan } from "../../src/graph/index.js";
import { deserializePlan, Plan, plan, serializePlan } from "../../src/planner/index.js";
import { ChildBundle } from "../support/bundled-child.js";

const dir = mkdtempSync(join(tmpdir(), "langgoap-plan-json-"));
// The fresh process is bundled once and run by plain node (a TypeScript loader would spend seconds compiling the sources).
const reader = new ChildBundle("plan-file-child");
let removeReader: () => void = () => {};
beforeAll(async () => {
  removeReader = await reader.build();
});
afterAll(() => {
  removeReader();
  rmSync(dir, { recursive: true, force: true });
});

const errorOf = (fn: () => unknown): LangGoapError => {
  try {
    fn();
  } catch (error) {
    return error as LangGoapError;
  }
  throw new Error("expected an error");
};

describe("plan files", () => {
  const actions = createVillageActions();
  const found = plan(villageStartState(), { is_hungry: false }, actions) as Plan;

  it("round-trips actions, states, cost, score and metadata", () => {
    const json = JSON.parse(JSON.stringify(serializePlan(found)));
    expect(json).toMatchObject({ format: "langgoap.plan", version: 1, actions: found.actionNames, totalCost: found.totalCost });
    const again = deserializePlan(json, createVillageActions());
    expect(again.actionNames).toEqual(found.actionNames);
    expect(again.expectedStates).toEqual(found.expectedStates);
    expect(again.startState).toEqual(found.startState);
    expect(again.totalCost).toBe(found.totalCost);
    expect(String(again.score)).toBe(String(found.score));
    expect(again.metadata.strategy).toBe(found.metadata.strategy);
    const scored = deserializePlan({ ...json, score: { kind: "hard-soft", hard: -1, soft: 4 } }, actions);
    expect(scored.score).toEqual(new HardSoftScore(-1, 4));
  });

  it("round-trips through a file read by a fresh process", async () => {
    const file = join(dir, "dinner.plan.json");
    await savePlan(found, file);
    const child = reader.spawn(file, { stdin: "ignore" });
    const { code } = await child.closed;
    expect(code, child.stderr()).toBe(0);
    expect(JSON.parse(child.lines.at(-1) as string)).toEqual({
      actions: found.actionNames,
      cost: found.totalCost,
      final: found.finalState,
    });
    expect(JSON.parse(readFileSync(file, "utf8")).actions).toEqual(found.actionNames);
  });

  it("refuses malformed files, unknown actions and plans the live actions do not replay, naming the place", async () => {
    const json = serializePlan(found);
    expect(errorOf(() => deserializePlan("nope", actions)).message).toBe('deserializePlan: $: expected a plan object, got "nope"');
    expect(errorOf(() => deserializePlan({ ...json, version: 2 }, actions)).message).toBe(
      "deserializePlan: $.version: expected version 1, got 2",
    );
    const unknown = errorOf(() => deserializePlan({ ...json, actions: ["teleport", ...json.actions.slice(1)] }, actions));
    expect(unknown.code).toBe("INVALID_PLAN");
    expect(unknown.message).toMatch(/^deserializePlan: \$\.actions\[0\]: unknown action "teleport"; known: /);
    expect(errorOf(() => deserializePlan({ ...json, score: { kind: "odd" } }, actions)).message).toMatch(
      /^deserializePlan: \$\.score: expected/,
    );
    expect(errorOf(() => deserializePlan({ ...json, expectedStates: [] }, actions)).message).toMatch(
      /\$\.expectedStates: expected one state per action/,
    );
    // The same names bound to different behaviour: the replay check catches it.
    const changed = actions.map((a) => (a.name === json.actions[0] ? a.with({ effects: { unexpected: true } }) : a));
    expect(errorOf(() => deserializePlan(json, changed)).message).toMatch(/^deserializePlan: \$\.(expectedStates\[0\]|actions\[1\])/);
    expect(deserializePlan(json, changed, { verify: false }).actionNames).toEqual(found.actionNames);
    writeFileSync(join(dir, "broken.json"), "{ not json");
    await expect(loadPlan(join(dir, "broken.json"), actions)).rejects.toThrow(/broken\.json is not JSON/);
    const empty = deserializePlan(serializePlan(Plan.empty({ a: true })), [new ActionSpec({ name: "x" })]);
    expect(empty.isEmpty).toBe(true);
  });
});
