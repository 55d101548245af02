/**
 * Hostile command lines (issue 11, §4): each used to pass, plan "no plan"
 * (exit 1), report "already satisfied" (exit 0) or end in an internal error
 * with a stack trace (exit 3). Now: exit 2, one message naming the culprit.
 */
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./run-cli.js";

const VILLAGE = "examples/domains/village.yaml";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "langgoap-hostile-"));
}

function tempFile(name: string, content: string): string {
  const file = join(tempDir(), name);
  writeFileSync(file, content);
  return file;
}

/** Exit 2, nothing on stdout, one error line (plus maybe a usage hint), and never a stack trace. */
async function badInput(argv: readonly string[], message: string | RegExp): Promise<void> {
  const result = await cli(argv);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  const first = result.stderr.split("\n")[0] as string;
  if (typeof message === "string") expect(first).toBe(`langgoap: error: ${message}`);
  else expect(first).toMatch(message);
}

/** A domain without declared facts, so any fact name reaches the planner. */
const OPEN_DOMAIN = "actions:\n  - { name: finish, effects: { done: true } }\n";

describe("hostile input at the command line", () => {
  it("a goal on an inherited member is refused or planned honestly, never 'already satisfied'", async () => {
    const file = tempFile("open.yaml", OPEN_DOMAIN);
    await badInput(
      ["plan", file, "--goal", '{"constructor": {"ne": null}}'],
      /^langgoap: error: --goal: goal conditions: fact name "constructor" is reserved/,
    );
    await badInput(["plan", file, "--goal", '{"__proto__": {"ne": null}}'], /fact name "__proto__" is reserved/);
    const inherited = await cli(["plan", file, "--goal", '{"toString": {"ne": false}}']);
    expect(inherited.code).toBe(1);
    await badInput(
      ["plan", file, "--state", '{"prototype": 1}', "--goal", '{"done": true}'],
      /^langgoap: error: --state: fact name "prototype"/,
    );
  });

  it("a goal whose conditions is a string is bad input naming $.goal.conditions", async () => {
    const file = tempFile("string-goal.yaml", `goal: { conditions: done }\n${OPEN_DOMAIN}`);
    await badInput(["plan", file], `${file}: $.goal.conditions: Invalid input: expected record, received string`);
    await badInput(
      ["plan", tempFile("open.yaml", OPEN_DOMAIN), "--goal", '{"conditions": "done"}'],
      '--goal: $.conditions must be an object of conditions like {"has_food": true}, got "done"',
    );
  });

  it("a nested policy error names its full path", async () => {
    const file = tempFile("policy.yaml", `goal: { conditions: { done: true }, policy: { maxReplans: -1 } }\n${OPEN_DOMAIN}`);
    await badInput(["plan", file], `${file}: $.goal.policy.maxReplans: Too small: expected number to be >=0`);
  });

  it("a .json domain with a trailing comma, and an unknown YAML tag", async () => {
    const json = tempFile("comma.json", '{"goal": {"done": true}, "actions": [{"name": "finish", "effects": {"done": true}},]}');
    await badInput(["plan", json], `${json}: not valid JSON (line 1, column 84): Unexpected token ']'`);
    const yaml = tempFile("tag.yaml", `goal: { done: !secret true }\n${OPEN_DOMAIN}`);
    await badInput(["plan", yaml], `${yaml}: not valid YAML (line 1, column 15): Unresolved tag: !secret [TAG_RESOLVE_FAILED]`);
  });

  it("names with invisible characters, and costs that could overflow", async () => {
    const invisible = tempFile("zw.yaml", `goal: { done: true }\nactions:\n  - { name: "finish\\u200b", effects: { done: true } }\n`);
    await badInput(["plan", invisible], /holds the invisible or control character U\+200B at index 6$/);
    const costly = tempFile(
      "costly.yaml",
      "goal: { b: true }\nactions:\n  - { name: a, effects: { a: true }, cost: 1e308 }\n  - { name: b, preconditions: { a: true }, effects: { b: true }, cost: 1e308 }\n",
    );
    await badInput(["plan", costly], /\$\.actions\[0\]: action "a": cost 1e\+308 exceeds the limit of 1000000000000 \(MAX_ACTION_COST\)/);
  });

  it.each([
    ["empty", ""],
    ["only a comment", "# nothing yet\n"],
    ["null", "null\n"],
    ["~", "~\n"],
  ])("a domain file that is %s is bad input (exit 2), not a TypeError", async (_, content) => {
    const file = tempFile("empty.yaml", content);
    await badInput(
      ["plan", file],
      `${file}: $: expected a domain (a mapping with "actions", and optionally "state", "goal", "facts"), got an empty document (no text, only comments, \`null\` or \`~\`)`,
    );
  });

  it("a domain file that is a list or a number says what it got", async () => {
    await badInput(["plan", tempFile("list.yaml", "- a\n- b\n")], /: \$: expected a domain \(a mapping with "actions".*\), got a list$/);
    await badInput(["plan", tempFile("n.json", "42")], /: \$: expected a domain \(a mapping with "actions".*\), got 42$/);
  });

  it("a blank-rendering name in a domain file is refused", async () => {
    const braille = tempFile("blank.yaml", `goal: { done: true }\nactions:\n  - { name: "\\u2800", effects: { done: true } }\n`);
    await badInput(["plan", braille], /name "\u2800" holds the blank character U\+2800 at index 0/);
    const nbsp = tempFile(
      "nbsp.yaml",
      `goal: { "has\\u00a0food": true }\nactions:\n  - { name: eat, effects: { "has\\u00a0food": true } }\n`,
    );
    await badInput(["plan", nbsp], /fact name "has\u00a0food" holds the blank character U\+00A0 at index 3/);
  });

  it("duplicate keys in a domain file, --goal and --state are refused with the key and its position", async () => {
    const twice = tempFile(
      "twice.json",
      '{"goal": {"done": true}, "goal": {"done": false}, "actions": [{"name": "finish", "effects": {"done": true}}]}',
    );
    await badInput(
      ["plan", twice],
      `${twice}: JSON (line 1, column 26): $: key "goal" is given twice; keys must be unique (the first value would be silently dropped)`,
    );
    const file = tempFile("open.yaml", OPEN_DOMAIN);
    await badInput(
      ["plan", file, "--goal", '{"done": false, "done": true}'],
      '--goal: JSON (line 1, column 17): $: key "done" is given twice; keys must be unique (the first value would be silently dropped)',
    );
    await badInput(
      ["plan", file, "--goal", '{"done": true}', "--state", '{"a": false, "\\u0061": true}'],
      '--state: JSON (line 1, column 14): $: key "a" is given twice; keys must be unique (the first value would be silently dropped)',
    );
    const stateFile = tempFile("state.json", '{"x": {"y": 1, "y": 2}}');
    await badInput(
      ["plan", file, "--goal", '{"done": true}', "--state", `@${stateFile}`],
      `--state: "${stateFile}": JSON (line 1, column 16): $.x: key "y" is given twice; keys must be unique (the first value would be silently dropped)`,
    );
  });

  it("integers beyond 2^53 are refused, not rounded into 'already satisfied'", async () => {
    const file = tempFile("big.yaml", "actions:\n  - { name: bump, effects: { n: { inc: 1 } } }\n");
    const rounded =
      "would be rounded to 9007199254740992; write a smaller integer, a string, or an exponent form like 1e20 for an approximate number";
    await badInput(
      ["plan", file, "--state", '{"n": 9007199254740992}', "--goal", '{"n": 9007199254740993}'],
      `--goal: JSON (line 1, column 7): $.n: the integer 9007199254740993 is beyond ±9007199254740991 (Number.MAX_SAFE_INTEGER) and ${rounded}`,
    );
    const yaml = tempFile(
      "big-state.yaml",
      "state: { n: 9007199254740993 }\ngoal: { n: 1 }\nactions:\n  - { name: bump, effects: { n: { inc: 1 } } }\n",
    );
    await badInput(
      ["plan", yaml],
      `${yaml}: YAML (line 1, column 13): $.state.n: the integer 9007199254740993 is beyond ±9007199254740991 (Number.MAX_SAFE_INTEGER) and ${rounded}`,
    );
  });

  it("deeply nested --goal states the limit", async () => {
    await badInput(
      ["plan", VILLAGE, "--goal", `{"is_hungry": ${"[".repeat(800)}${"]".repeat(800)}}`],
      // Depth 65 is reached by the 64th "[" after the outer "{".
      `--goal: JSON (line 1, column ${'{"is_hungry": '.length + 64}) nests objects and arrays more than 64 levels deep; the limit is 64 (MAX_NESTING_DEPTH)`,
    );
  });

  it("--width 1e9 is refused before rendering", async () => {
    await badInput(["plan", VILLAGE, "--format", "gantt", "--width", "1e9"], '--width must be a whole number from 10 to 1000, got "1e9"');
    await badInput(
      ["visualize", VILLAGE, "--search-tree", "--max-nodes", "1e12"],
      /^langgoap: error: --max-nodes must be a whole number from 1 to 100000/,
    );
  });

  it("-o naming a folder, or a path under a file, is refused before planning", async () => {
    const dir = tempDir();
    await badInput(["plan", VILLAGE, "-o", dir], `--output "${dir}": is a folder; give a file path inside it`);
    await badInput(["plan", VILLAGE, "-o", `${dir}/`], `--output "${dir}/": names a folder; give a file path inside it`);
    const file = tempFile("plan.txt", "already here");
    await badInput(
      ["plan", VILLAGE, "-o", join(file, "deeper", "plan.json")],
      `--output "${join(file, "deeper", "plan.json")}": "${file}" is a file, not a folder, so nothing can be written under it`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("-o into a new folder still works", async () => {
    const out = join(tempDir(), "reports", "plan.json");
    const result = await cli(["plan", VILLAGE, "-o", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`wrote json to ${out}\n`);
  });
});
