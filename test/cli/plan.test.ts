import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDomain } from "../../src/core/index.js";
import { plan } from "../../src/planner/index.js";
import { renderDot, renderMermaid } from "../../src/viz/index.js";
import { cli, ROOT } from "./run-cli.js";

const VILLAGE = "examples/domains/village.yaml";

function villagePlan(goal: Record<string, unknown> = { is_hungry: false }, state: Record<string, unknown> = {}) {
  const domain = loadDomain(readFileSync(join(ROOT, VILLAGE), "utf8"));
  return plan({ ...domain.state, ...state }, goal as never, domain.actions)!;
}

describe("langgoap plan", () => {
  it("prints the cheapest plan as a tree with the search counters", async () => {
    const { code, stdout, stderr } = await cli(["plan", VILLAGE]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const lines = stdout.split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "Plan (5 steps, cost=8)",
      "├── [0] go_to_tree  cost=1",
      "├── [1] chop_wood  cost=2  (after: [0])",
      "├── [2] go_to_campfire  cost=1",
      "├── [3] cook_food  cost=3  (after: [1, 2])",
      "└── [4] eat_food  cost=1  (after: [3])",
    ]);
    expect(lines[6]).toMatch(/^\(astar, hmax: 5 nodes expanded in [\d.]+m?s\)$/);
  });

  it("overrides the goal and merges --state over the domain's state", async () => {
    const { code, stdout } = await cli([
      "plan",
      VILLAGE,
      "--goal",
      '{"is_tired": false}',
      "--state",
      '{"is_tired": true}',
      "--format",
      "json",
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.status).toBe("found");
    expect(json.strategy).toBe("astar");
    expect(json.plan.actions).toEqual(["go_to_shelter", "sleep"]);
    expect(json.plan.totalCost).toBe(2);
    expect(json.plan.steps).toEqual([
      { index: 0, action: "go_to_shelter", cost: 1, after: [] },
      { index: 1, action: "sleep", cost: 1, after: [0] },
    ]);
  });

  it("reads --goal from a file with @path", async () => {
    const { code, stdout } = await cli(["plan", VILLAGE, "--goal", "@test/cli/fixtures/shelter-goal.yaml", "-f", "json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).plan.actions).toEqual(["go_to_shelter"]);
  });

  it("renders Mermaid and DOT exactly as the viz renderers do", async () => {
    expect((await cli(["plan", VILLAGE, "-f", "mermaid"])).stdout).toBe(renderMermaid(villagePlan()));
    expect((await cli(["plan", VILLAGE, "-f", "dot"])).stdout).toBe(renderDot(villagePlan()));
  });

  it("exits 1 without a plan and explains why on stderr", async () => {
    const { code, stdout, stderr } = await cli(["plan", VILLAGE, "--state", '{"has_axe": false}']);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      [
        "langgoap: no plan: no plan reaches the goal",
        "Unreachable goal conditions (no sequence of actions makes them true):",
        "  - is_hungry = false",
        "Missing preconditions (required, never true and never produced):",
        "  - has_axe = true",
        "Actions that can never run:",
        "  - chop_wood",
        "  - cook_food",
        "  - eat_food",
        "Suggestion: Goal condition(s) [is_hungry = false] are produced only by actions that can never run here ([eat_food]), because their own preconditions cannot be established. Precondition(s) [has_axe = true] are required by actions but are neither true now nor produced by any action. Set them in the world state or add an action that produces them.",
        "",
      ].join("\n"),
    );
  });

  it("puts the explanation in the JSON output too", async () => {
    const { code, stdout } = await cli(["plan", VILLAGE, "--state", '{"has_axe": false}', "-f", "json"]);
    expect(code).toBe(1);
    const json = JSON.parse(stdout);
    expect(json).toMatchObject({ status: "no_plan", plan: null, message: "no plan reaches the goal" });
    expect(json.explanation.unreachableConditions).toEqual(["is_hungry = false"]);
  });

  it("--pruning stubborn-sets expands one order of independent actions, none every order, at the same cost", async () => {
    const dir = mkdtempSync(join(tmpdir(), "langgoap-cli-pruning-"));
    const lights = Array.from({ length: 8 }, (_, i) => `l${i}`);
    const file = join(dir, "lights.yaml");
    writeFileSync(
      file,
      [
        "actions:",
        ...lights.flatMap((l) => [`  - name: on_${l}`, `    effects: { ${l}: true }`]),
        `state: { ${lights.map((l) => `${l}: false`).join(", ")} }`,
        `goal: { ${lights.map((l) => `${l}: true`).join(", ")} }`,
      ].join("\n"),
    );
    const stats = async (pruning: string) => {
      const { code, stderr } = await cli(["plan", file, "--pruning", pruning, "--stats"]);
      expect(code).toBe(0);
      return JSON.parse(stderr.trim().split("\n").at(-1) as string) as { cost: number; generated: number };
    };
    expect(await stats("stubborn-sets")).toMatchObject({ cost: 8, generated: 9 });
    expect(await stats("none")).toMatchObject({ cost: 8, generated: 1 + (8 * 9) / 2 });
  });

  it("exits 4 when the expansion budget runs out, saying which budget with the figures", async () => {
    const { code, stderr } = await cli(["plan", "test/cli/fixtures/counter.yaml", "--heuristic", "zero", "--budget", "100"]);
    expect(code).toBe(4);
    expect(stderr).toMatch(
      /^langgoap: no plan: search stopped by its expansion budget \(maxExpansions 100\) after 101 states held, 100 expansions, [\d,]+ ms, without reaching the goal; .* \(--budget 100 expansions\)\n$/,
    );
  });

  it("--stats prints the whole call and the search loop apart, and names the heuristic with or without a plan", async () => {
    const statsOf = (stderr: string) => JSON.parse(stderr.trim().split("\n").at(-1) as string);
    const found = await cli(["plan", VILLAGE, "--stats"]);
    expect(found.code).toBe(0);
    const a = statsOf(found.stderr);
    expect(a).toMatchObject({ status: "found", cost: 8, steps: 5, expansions: 5, heuristic: "hmax" });
    expect(Object.keys(a)).toEqual(["status", "cost", "steps", "expansions", "generated", "loadMs", "planMs", "searchMs", "heuristic"]);
    expect(a.searchMs).toBeGreaterThanOrEqual(0);
    expect(a.searchMs).toBeLessThanOrEqual(a.planMs + 0.5);
    // No plan: the heuristic that searched is still named (it was null before), and the loop still timed.
    const stopped = await cli(["plan", "test/cli/fixtures/counter.yaml", "--heuristic", "zero", "--budget", "100", "--stats"]);
    expect(stopped.code).toBe(4);
    const b = statsOf(stopped.stderr);
    expect(b).toMatchObject({ status: "budget_exhausted", cost: null, expansions: 100, heuristic: "zero" });
    expect(typeof b.searchMs).toBe("number");
  });

  it("plans over module exports: an array, a domain object, a factory and the default export", async () => {
    const goal = ["--goal", '{"delivered": true}'];
    for (const ref of ["delivery.ts#actions", "delivery.ts#domain", "delivery.ts#createDomain", "delivery.ts"]) {
      const args = ["plan", `test/cli/fixtures/${ref}`, "-f", "json", ...(ref.endsWith("#actions") ? goal : [])];
      const { code, stdout, stderr } = await cli(args);
      expect({ ref, code, stderr }).toEqual({ ref, code: 0, stderr: "" });
      expect(JSON.parse(stdout).plan.actions).toEqual(["pack", "courier"]);
    }
  });

  it("uses MCTS with a seed and an iteration budget, reproducibly", async () => {
    const run = () => cli(["plan", VILLAGE, "--strategy", "mcts", "--budget", "400", "--seed", "3", "-f", "json"]);
    const first = await run();
    expect(first.code).toBe(0);
    const json = JSON.parse(first.stdout);
    expect(json.strategy).toBe("mcts");
    expect(json.plan.actions.at(-1)).toBe("eat_food");
    const again = JSON.parse((await run()).stdout);
    expect(again.plan.actions).toEqual(json.plan.actions);
    expect(again.plan.metadata.nodesExpanded).toBe(json.plan.metadata.nodesExpanded);
  });

  it("chooses the pipeline for a goal with constraints, which keeps the plan within budget", async () => {
    const auto = JSON.parse((await cli(["plan", "examples/domains/trip.yaml", "-f", "json"])).stdout);
    expect(auto.strategy).toBe("pipeline");
    expect(auto.plan.actions).toEqual(["pack_bag", "take_train"]);
    expect(auto.plan.metadata.csp.status).toBe("optimal");
    expect(auto.plan.metadata.csp.resourceUsage).toContainEqual(
      expect.objectContaining({ key: "usd", total: 95, max: 150, satisfied: true }),
    );
    const fastest = JSON.parse((await cli(["plan", "examples/domains/trip.yaml", "--strategy", "astar", "-f", "json"])).stdout);
    expect(fastest.plan.actions).toEqual(["pack_bag", "fly"]);
    const text = (await cli(["plan", "examples/domains/trip.yaml"])).stdout;
    expect(text).toContain("Resources:\n  usd: 95 / 150  [OK]\n");
  });

  it("writes to --output, inferring the format from the extension", async () => {
    const dir = mkdtempSync(join(tmpdir(), "langgoap-out-"));
    const { code, stdout } = await cli(["plan", VILLAGE, "-o", join(dir, "nested", "plan.mmd")]);
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote mermaid to ${join(dir, "nested", "plan.mmd")}\n`);
    expect(readFileSync(join(dir, "nested", "plan.mmd"), "utf8")).toBe(renderMermaid(villagePlan()));
  });
});
