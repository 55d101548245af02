/**
 * Features that need Node reach its built-ins only when they run (so the root
 * import bundles for the browser). Where there are none, as in a browser,
 * each says so with a `NODE_ONLY` `LangGoapError` naming the feature, and
 * the rest (planning, a graph run on a MemorySaver thread) works. The
 * browser is simulated by hiding `process.getBuiltinModule`, the one door
 * every feature goes through; the real browser run is in
 * test/package/root-bundle.browser.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { nodeBuiltin } from "../../src/core/node-builtin.js";
import { GoapGraph, loadPlan, SqliteStore, savePlan } from "../../src/graph/index.js";
import { thisProcess } from "../../src/graph/process-identity.js";
import { scaffoldDeployment } from "../../src/integrations/index.js";
import { HighsSolver, JsLpSolver, MilpModelBuilder } from "../../src/optimize/index.js";
import { plan } from "../../src/planner/index.js";
import { renderPlanPng } from "../../src/viz/index.js";

const actions = [new ActionSpec({ name: "light_fire", effects: { warm: true } })];
const found = plan({}, { warm: true }, actions);
const model = (() => {
  const b = new MilpModelBuilder();
  const x = b.addBinary("x");
  b.setObjective("maximize", [[x, 1]]);
  return b.build();
})();

const real = process.getBuiltinModule;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "langgoap-node-only-"));
  // What a browser (or any runtime without Node's loader) looks like to nodeBuiltin.
  (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
});

afterEach(() => {
  process.getBuiltinModule = real;
  rmSync(dir, { recursive: true, force: true });
});

/** The NODE_ONLY error `run` fails with (synchronously or not), or a description of what happened instead. */
async function nodeOnly(run: () => unknown): Promise<{ code: string; feature: unknown } | string> {
  try {
    await run();
    return "no error";
  } catch (error) {
    if (!(error instanceof LangGoapError)) return `not a LangGoapError: ${String(error)}`;
    return { code: error.code, feature: error.details.feature };
  }
}

describe("Node-only features without Node's built-ins", () => {
  it("each throws NODE_ONLY naming the feature, before touching anything", async () => {
    const path = join(dir, "plan.json");
    expect(await nodeOnly(() => savePlan(found!, path))).toEqual({ code: "NODE_ONLY", feature: "savePlan" });
    expect(await nodeOnly(() => loadPlan(path, actions))).toEqual({ code: "NODE_ONLY", feature: "loadPlan" });
    expect(await nodeOnly(() => SqliteStore.open(":memory:"))).toEqual({ code: "NODE_ONLY", feature: "SqliteStore" });
    expect(await nodeOnly(() => renderPlanPng(found!))).toEqual({ code: "NODE_ONLY", feature: "PNG output" });
    expect(await nodeOnly(() => scaffoldDeployment(join(dir, "app")))).toEqual({ code: "NODE_ONLY", feature: "scaffoldDeployment" });
    process.getBuiltinModule = real;
    expect(() => nodeBuiltin("node:fs", "x")).not.toThrow();
  });

  it("the MILP solvers answer with an error result that says Node is needed", async () => {
    const highs = await new HighsSolver({ timeLimitMs: 5000 }).solve(model);
    expect(highs.status).toBe("error");
    expect(highs.message).toContain("HighsSolver needs Node.js");
    const jslp = await new JsLpSolver({ timeLimitMs: 5000 }).solve(model);
    expect(jslp.status).toBe("error");
    expect(jslp.message).toContain("JsLpSolver needs Node.js");
  });

  it("planning, a GoapGraph run on a MemorySaver thread and recover of a finished one still work; telling processes apart says NODE_ONLY", async () => {
    expect(found?.actionNames).toEqual(["light_fire"]);
    const graph = new GoapGraph(actions);
    const app = graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const result = await app.invoke(graph.createInput({ warm: true }, {}), config);
    expect(result.status).toBe("goal_achieved");
    expect(result.worldState).toEqual({ warm: true });
    expect((await graph.recover(config)).status).toBe("goal_achieved");
    // Recovering an interrupted run takes a lease that names this process (host, pid): that needs Node.
    expect(await nodeOnly(() => thisProcess())).toEqual({ code: "NODE_ONLY", feature: "recover" });
    process.getBuiltinModule = real;
    expect((await thisProcess()).pid).toBe(process.pid);
  });
});
