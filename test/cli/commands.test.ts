import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./run-cli.js";

const VILLAGE = "examples/domains/village.yaml";
const KITCHEN = "examples/domains/kitchen.yaml";

describe("langgoap explain", () => {
  it("says the goal is reachable with the plan's length and cost", async () => {
    const { code, stdout } = await cli(["explain", VILLAGE]);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "Goal:        is_hungry = false",
        "Start state: has_axe = true, has_food = false, has_wood = false, is_hungry = true, is_tired = false, near_campfire = false, near_shelter = false, near_tree = false",
        "Reachable:   yes; a plan of 5 steps (cost 8): go_to_tree → chop_wood → go_to_campfire → cook_food → eat_food",
        "",
      ].join("\n"),
    );
  });

  it("explains an unreachable goal on stdout and exits 1", async () => {
    const { code, stdout } = await cli(["explain", VILLAGE, "--state", '{"has_axe": false}']);
    expect(code).toBe(1);
    expect(stdout).toContain(
      "Reachable:   no; no plan reaches the goal\nUnreachable goal conditions (no sequence of actions makes them true):\n  - is_hungry = false\n",
    );
    const json = JSON.parse((await cli(["explain", VILLAGE, "--state", '{"has_axe": false}', "-f", "json"])).stdout);
    expect(json).toMatchObject({ reachable: false, status: "no_plan", goal: { is_hungry: false } });
    expect(json.explanation.missingPreconditions).toEqual(["has_axe = true"]);
  });

  it("says when the goal already holds", async () => {
    const { code, stdout } = await cli(["explain", VILLAGE, "--goal", '{"has_axe": true}']);
    expect(code).toBe(0);
    expect(stdout).toContain("Reachable:   yes; the goal already holds (empty plan).\n");
  });
});

describe("langgoap actions", () => {
  it("lists actions as a table with durations when any action has one", async () => {
    const { code, stdout } = await cli(["actions", KITCHEN]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^name {13}cost {2}duration {2}preconditions +effects$/);
    expect(lines[1]).toMatch(/^boil_water {7}1 {5}8s {8}\(none\) +water_boiling = true$/);
    expect(lines.at(-2)).toBe("7 actions");
  });

  it("prints numeric effects and JSON", async () => {
    const text = (await cli(["actions", "examples/domains/woodcutter.json"])).stdout;
    expect(text).toContain("buy_axe          2     gold >= 3       has_axe = true, gold -= 3\n");
    const json = JSON.parse((await cli(["actions", "examples/domains/woodcutter.json", "-f", "json"])).stdout);
    expect(json.map((a: { name: string }) => a.name)).toEqual(["buy_axe", "gather_branches", "chop_tree", "build_house"]);
    expect(json[3]).toEqual({
      name: "build_house",
      preconditions: { wood: { gte: 6 } },
      effects: { house_built: true, wood: { dec: 6 } },
      cost: 4,
    });
  });
});

describe("langgoap visualize", () => {
  it("draws Mermaid by default", async () => {
    const { code, stdout } = await cli(["visualize", VILLAGE]);
    expect(code).toBe(0);
    expect(stdout.startsWith("flowchart TD\n")).toBe(true);
    expect(stdout).toContain("    s1_chop_wood --> s3_cook_food\n");
  });

  it("schedules durative actions for the Gantt formats", async () => {
    const { code, stdout } = await cli(["visualize", KITCHEN, "--format", "gantt", "--width", "19"]);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "action           |-------------------|  0..19s",
        "boil_water       |########           |  0-8s",
        "chop_vegetables  |#####              |  0-5s",
        "set_table        |##                 |  0-2s",
        "simmer_sauce     |     ############  |  5s-17s",
        "toss_salad       |     ###           |  5s-8s",
        "cook_pasta       |        ########## |  8s-18s",
        "serve_dinner     |                  #|  18s-19s",
        "",
      ].join("\n"),
    );
    const mermaid = (await cli(["visualize", KITCHEN, "--format", "mermaid-gantt"])).stdout;
    expect(mermaid).toContain("    cook_pasta :t2, 8000, 10000ms\n");
  });

  it("writes a self-contained HTML report with every action", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "langgoap-viz-")), "plan.html");
    const { code, stdout } = await cli(["visualize", KITCHEN, "--format", "html", "-o", file, "--title", "Dinner"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote html to ${file}\n`);
    const html = readFileSync(file, "utf8");
    expect(html).toContain("<title>Dinner</title>");
    for (const name of ["boil_water", "cook_pasta", "chop_vegetables", "simmer_sauce", "toss_salad", "set_table", "serve_dinner"]) {
      expect(html).toContain(`<code class="action-name">${name}</code>`);
    }
    expect(html).toContain("Schedule from constraint refinement");
    expect(html).toContain("<b>19s</b><span>makespan</span>");
  });

  it("exports the A* search tree as DOT, even when there is no plan", async () => {
    const found = await cli(["visualize", VILLAGE, "--search-tree"]);
    expect(found.code).toBe(0);
    expect(found.stdout.startsWith("digraph SearchTree {\n")).toBe(true);
    expect(found.stdout).toContain('    goal [label="goal via eat_food\\ng=8"');
    const none = await cli(["visualize", VILLAGE, "--search-tree", "--goal", '{"is_hungry": false, "has_axe": false}']);
    expect(none.code).toBe(1);
    expect(none.stdout.startsWith("digraph SearchTree {\n")).toBe(true);
    expect(none.stderr).toContain("langgoap: no plan:");
  });
});

describe("langgoap run", () => {
  it("runs the plan through the graph and reports each action", async () => {
    const { code, stdout } = await cli(["run", VILLAGE]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toBe("Run: goal_achieved (5 actions executed, 0 replans)");
    expect(
      lines.slice(1, 6).map((l) =>
        l
          .trim()
          .split(/\s+/)
          .filter((_, i) => i !== 2),
      ),
    ).toEqual([
      ["1.", "go_to_tree", "succeeded"],
      ["2.", "chop_wood", "succeeded"],
      ["3.", "go_to_campfire", "succeeded"],
      ["4.", "cook_food", "succeeded"],
      ["5.", "eat_food", "succeeded"],
    ]);
    expect(lines[6]).toContain("is_hungry = false");
  });

  it("replans around a failing action and shows it in JSON and HTML", async () => {
    const json = JSON.parse((await cli(["run", "test/cli/fixtures/delivery.ts#flakyDomain", "-f", "json"])).stdout);
    expect(json.status).toBe("goal_achieved");
    expect(json.replanCount).toBe(1);
    expect(json.executed.map((r: { actionName: string; success: boolean }) => [r.actionName, r.success])).toEqual([
      ["pack", true],
      ["courier", false],
      ["drone", true],
    ]);
    expect(json.executed[1].error).toContain("courier van broke down");

    const file = join(mkdtempSync(join(tmpdir(), "langgoap-run-")), "run.html");
    expect((await cli(["run", "test/cli/fixtures/delivery.ts#flakyDomain", "-o", file])).code).toBe(0);
    const html = readFileSync(file, "utf8");
    expect(html).toContain("<p>2 planning round(s), 1 replan(s).</p>");
    expect(html).toContain('<g class="node succeeded" data-step="0"');
    expect(html).toContain("courier van broke down");
    expect(html).toContain('data-hook-filter="onReplan"');
  });

  it("exits 1 when the goal cannot be reached, with the explanation", async () => {
    const { code, stdout, stderr } = await cli(["run", VILLAGE, "--state", '{"has_axe": false}']);
    expect(code).toBe(1);
    expect(stdout.split("\n")[0]).toBe("Run: no_plan (0 actions executed, 0 replans)");
    expect(stderr).toContain("langgoap: run ended with status no_plan");
    expect(stderr).toContain("  - is_hungry = false\n");
  });
});

describe("--open", () => {
  it("writes the HTML report to a temporary file and opens it", async () => {
    const opened: string[] = [];
    const { code, stdout } = await cli(["visualize", VILLAGE, "--open"], {
      openFile: async (path) => {
        opened.push(path);
      },
    });
    expect(code).toBe(0);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/langgoap-[^/\\]+[/\\]village\.yaml\.html$/);
    expect(stdout).toBe(`wrote html to ${opened[0]}\nopened ${opened[0]}\n`);
    expect(readFileSync(opened[0] as string, "utf8")).toContain('<code class="action-name">eat_food</code>');
  });

  it("says where the file is when no browser can be opened", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "langgoap-open-")), "run.html");
    const { code, stdout, stderr } = await cli(["run", VILLAGE, "-o", file, "--open"], {
      openFile: () => Promise.reject(new Error("spawn xdg-open ENOENT")),
    });
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote html to ${file}\n`);
    expect(stderr).toBe(`langgoap: could not open a browser (spawn xdg-open ENOENT); open ${file} yourself\n`);
  });
});
