import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./run-cli.js";

const VILLAGE = "examples/domains/village.yaml";

function tempFile(name: string, content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "langgoap-cli-")), name);
  writeFileSync(file, content);
  return file;
}

/** Every bad input exits 2 with one error line naming the problem, and prints nothing on stdout. */
async function rejects(argv: readonly string[], message: string | RegExp) {
  const result = await cli(argv);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  const first = result.stderr.split("\n")[0] as string;
  expect(first.startsWith("langgoap: error: ")).toBe(true);
  if (typeof message === "string") expect(first).toBe(`langgoap: error: ${message}`);
  else expect(first).toMatch(message);
  return result;
}

describe("bad input exits 2 with a message naming the problem", () => {
  it("a missing domain file", async () => {
    await rejects(
      ["plan", "examples/domains/missing.yaml"],
      /^langgoap: error: domain file "examples\/domains\/missing\.yaml" not found \(looked for .*missing\.yaml\)$/,
    );
  });

  it("invalid YAML, with the file, line and column", async () => {
    const file = tempFile("broken.yaml", "goal: { done: true }\nactions:\n  - name: finish\n    effects: { done: [true, }\n");
    await rejects(
      ["plan", file],
      new RegExp(`^langgoap: error: ${file.replace(/[.\\/]/g, "\\$&")}: not valid YAML \\(line 4, column \\d+\\)`),
    );
  });

  it("a schema error, with the file and the JSON path", async () => {
    const file = tempFile(
      "negative.json",
      JSON.stringify({ goal: { done: true }, actions: [{ name: "finish", effects: { done: true }, cost: -1 }] }),
    );
    await rejects(["plan", file], `${file}: $.actions[0].cost: Too small: expected number to be >=0`);
  });

  it("an unknown fact in the domain file's goal", async () => {
    await rejects(
      ["plan", "test/cli/fixtures/unknown-goal-fact.yaml"],
      'test/cli/fixtures/unknown-goal-fact.yaml: $.goal.door_opened (goal): unknown fact "door_opened"; declared facts are [door_open]',
    );
  });

  it("an unknown fact in --goal and in --state", async () => {
    await rejects(
      ["plan", VILLAGE, "--goal", '{"has_gold": true}'],
      '--goal: unknown fact "has_gold"; declared facts are [has_axe, has_wood, has_food, near_tree, near_campfire, near_shelter, is_hungry, is_tired]',
    );
    await rejects(
      ["explain", VILLAGE, "--state", '{"hungry": true}'],
      /^langgoap: error: --state: unknown fact "hungry"; declared facts are \[/,
    );
    await rejects(["plan", VILLAGE, "--state", '{"is_hungry": 3}'], '--state: fact "is_hungry" is a boolean, got 3');
  });

  it("an unknown fact in a module's goal when the module declares facts", async () => {
    await rejects(
      ["plan", "test/cli/fixtures/delivery.ts#typedDomain", "--goal", '{"shipped": true}'],
      '--goal: unknown fact "shipped"; declared facts are [packed, delivered]',
    );
  });

  it("an unknown strategy, heuristic or format, with the allowed values", async () => {
    const strategy = await rejects(
      ["plan", VILLAGE, "--strategy", "dijkstra"],
      'unknown strategy "dijkstra" for plan; expected one of astar, pipeline, mcts',
    );
    expect(strategy.stderr).toContain('Run "langgoap plan --help" for usage.');
    await rejects(["plan", VILLAGE, "-s", "bfs"], 'unknown strategy "bfs" for plan; expected one of astar, pipeline, mcts');
    await rejects(
      ["plan", VILLAGE, "--heuristic", "manhattan"],
      'unknown heuristic "manhattan" for plan; expected one of zero, goal-count, hmax, hadd, hff, lmcut, opcount',
    );
    await rejects(["plan", VILLAGE, "--pruning", "por"], 'unknown pruning "por" for plan; expected one of auto, none, stubborn-sets');
    await rejects(
      ["plan", VILLAGE, "--format", "pdf"],
      'unknown format "pdf" for plan; expected one of ascii, json, mermaid, dot, gantt, mermaid-gantt, html, png, gantt-png, ipc',
    );
    await rejects(["run", VILLAGE, "--format", "dot"], 'unknown format "dot" for run; expected one of ascii, json, html');
    await rejects(["actions", VILLAGE, "-f", "html"], 'unknown format "html" for actions; expected one of ascii, json');
  });

  it("unparsable --goal, --state and --budget values", async () => {
    await rejects(
      ["plan", VILLAGE, "--goal", "{is_hungry: false"],
      /^langgoap: error: --goal: not valid JSON \(line 1, column 2\): .*; write it like/,
    );
    await rejects(
      ["plan", VILLAGE, "--goal", "[1, 2]"],
      '--goal: expected an object of goal conditions like {"has_food": true}, got [1,2]',
    );
    await rejects(["plan", VILLAGE, "--goal", '{"is_hungry": {"gte": "x"}}'], /^langgoap: error: --goal: goal conditions key "is_hungry"/);
    await rejects(["plan", VILLAGE, "--state", '"hungry"'], '--state: expected an object of facts like {"has_axe": true}, got "hungry"');
    await rejects(["plan", VILLAGE, "--goal", "@nowhere.json"], '--goal: cannot read "nowhere.json": no such file');
    await rejects(
      ["plan", VILLAGE, "--budget", "lots"],
      '--budget: expected a positive step count like 5000, or a time like 500ms or 2s, got "lots"',
    );
    await rejects(["plan", VILLAGE, "--budget", "2.5"], '--budget: a step count must be a whole number, got "2.5" (add ms or s for time)');
    await rejects(["plan", VILLAGE, "--width", "5"], '--width must be a whole number from 10 to 1000, got "5"');
    await rejects(["plan", VILLAGE, "--seed", "abc"], '--seed must be a number, got "abc"');
  });

  it("unknown commands and options, and a missing or extra domain", async () => {
    await rejects(
      ["plna", VILLAGE],
      'unknown command "plna"; did you mean plan? Commands: plan, actions, explain, visualize, run, inspect, deploy-init',
    );
    await rejects(["plan", VILLAGE, "--frobnicate"], "Unknown option '--frobnicate'");
    await rejects(["plan"], "plan: missing <domain> (a .yaml/.json domain file or module.js#export)");
    await rejects(["plan", VILLAGE, VILLAGE], `plan: expected one <domain>, got 2: ${VILLAGE} ${VILLAGE}`);
    await rejects(
      ["plan", "README.md"],
      '"README.md" is neither a domain file (.json, .yaml, .yml) nor a module reference (file.js#export, file.ts#export)',
    );
  });

  it("a domain without a goal when none is given", async () => {
    const file = tempFile("no-goal.yaml", "actions:\n  - { name: wave, effects: { waved: true } }\n");
    await rejects(["plan", file], `${file} declares no goal; give one with --goal '{"fact": value}'`);
    expect((await cli(["actions", file])).code).toBe(0);
  });

  it("bad module references", async () => {
    await rejects(
      ["plan", "test/cli/fixtures/nowhere.ts#actions"],
      /^langgoap: error: module "test\/cli\/fixtures\/nowhere\.ts#actions" not found/,
    );
    await rejects(
      ["plan", "test/cli/fixtures/delivery.ts#missing"],
      /^langgoap: error: module "test\/cli\/fixtures\/delivery\.ts#missing" has no export "missing"; it exports \[.*actions.*\]$/,
    );
    await rejects(
      ["plan", "test/cli/fixtures/delivery.ts#notADomain"],
      "test/cli/fixtures/delivery.ts#notADomain: expected an array of actions or a domain object { actions, state?, goal?, facts? }, got 42",
    );
    await rejects(
      ["plan", "test/cli/fixtures/delivery.ts#plainActions", "--goal", '{"delivered": true}'],
      'test/cli/fixtures/delivery.ts#plainActions: actions[1]: action "ship": cost must be a finite number >= 0 or a function, got -3',
    );
    await rejects(
      ["plan", "test/cli/fixtures/broken-module.ts"],
      /^langgoap: error: cannot load module "test\/cli\/fixtures\/broken-module\.ts": this module fails while loading$/,
    );
  });

  it("option combinations a strategy cannot honour", async () => {
    await rejects(
      ["plan", VILLAGE, "--strategy", "mcts", "--heuristic", "hff"],
      "--heuristic applies to the astar strategy; mcts estimates states by rollouts",
    );
    await rejects(
      ["plan", VILLAGE, "--strategy", "mcts", "--pruning", "none"],
      "--pruning applies to the astar strategy, not to --strategy mcts",
    );
    await rejects(
      ["plan", VILLAGE, "--strategy", "pipeline", "--budget", "500"],
      "--budget 500: the pipeline takes a time budget (e.g. 2s), which bounds each solver phase",
    );
    await rejects(
      ["visualize", VILLAGE, "--search-tree", "--strategy", "mcts"],
      "--search-tree draws the A* search; it is not available with --strategy mcts",
    );
    await rejects(
      ["visualize", VILLAGE, "--search-tree", "--format", "html"],
      "--search-tree renders DOT; --format html is not available for it",
    );
    await rejects(
      ["visualize", VILLAGE, "--search-tree", "--format", "mermaid"],
      "--search-tree renders DOT; --format mermaid is not available for it",
    );
  });

  it("a Gantt chart of a plan without durations", async () => {
    await rejects(
      ["plan", VILLAGE, "--format", "gantt"],
      "--format gantt: needs actions with durationMs; none of the plan's actions [go_to_tree, chop_wood, go_to_campfire, cook_food, eat_food] declares one",
    );
  });
});
