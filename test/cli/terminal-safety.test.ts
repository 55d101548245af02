/**
 * Names and values from a domain reach the user's terminal: every command,
 * in every text format, prints their control, C1 and bidi characters as
 * visible escapes, never raw. JSON output stays valid and equal.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderAscii, renderAsciiGantt } from "../../src/viz/index.js";
import { hostilePlan, NEWLINE_KEY, unsafeChars } from "../viz/hostile.js";
import { cli } from "./run-cli.js";

/** Clears the screen, sets the window title, starts a CSI as a C1 control, reverses text, and fakes a line. */
const NOTE = "\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202egnp.exe\nReachable:   yes\u007f";
const SHOWN = "\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u202egnp.exe\\nReachable:   yes\\u007f";

function hostileDomain(): string {
  const file = join(mkdtempSync(join(tmpdir(), "langgoap-terminal-")), "hostile.json");
  const domain = {
    state: { note: NOTE, ready: true },
    goal: { done: true },
    actions: [
      { name: "finish", preconditions: { ready: true }, effects: { done: true, note: `${NOTE}!` } },
      { name: "never", preconditions: { note: `${NOTE}?` }, effects: { done: true } },
    ],
  };
  writeFileSync(file, JSON.stringify(domain));
  return file;
}

describe("CLI output carries no raw control characters from data", () => {
  const domain = hostileDomain();

  it.each([
    [["explain"], `Start state: note = "${SHOWN}"`],
    [["actions"], `done = true, note = "${SHOWN}!"`],
    [["run"], `Final state: done = true, note = "${SHOWN}!", ready = true`],
    [["plan"], "└── [0] finish"],
    [["explain", "--state", '{"ready": false}'], `  - note = "${SHOWN}?"`],
  ])("langgoap %j prints values as visible escapes", async (argv, expected) => {
    const [command, ...rest] = argv as string[];
    const { stdout, stderr } = await cli([command as string, domain, ...rest]);
    expect(unsafeChars(stdout)).toEqual([]);
    expect(unsafeChars(stderr)).toEqual([]);
    expect(stdout).toContain(expected);
    // The faked line stays inside its value.
    expect(stdout.split("\n").filter((line) => line.startsWith("Reachable:   yes"))).toHaveLength(
      argv[0] === "explain" && argv.length === 1 ? 1 : 0,
    );
  });

  it("keeps JSON output valid and equal to the data, escaped in JSON's own spelling", async () => {
    const { stdout } = await cli(["explain", domain, "--format", "json"]);
    expect(unsafeChars(stdout)).toEqual([]);
    expect(JSON.parse(stdout).startState.note).toBe(NOTE);
  });
});

describe("ASCII renderers escape names, keys and explanations", () => {
  it("draws one line per step and per resource, whatever the keys hold", () => {
    const plan = hostilePlan();
    const text = renderAscii(plan, { showSchedule: false });
    expect(unsafeChars(text)).toEqual([]);
    const lines = text.trimEnd().split("\n");
    // Header, the steps, "Resources:" and two keys, "Infeasibility Explanation:" and the suggestion.
    expect(lines).toHaveLength(1 + plan.length + 3 + 2);
    expect(lines).toContain(`  ${NEWLINE_KEY.replace(/\n/g, "\\n")}: 12 / 10  [VIOLATED]`);
    expect(lines).toContain("  eur\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202egnp.exe: 1");
  });

  it("keeps the text Gantt chart aligned", () => {
    const text = renderAsciiGantt(hostilePlan(), { width: 20 });
    expect(unsafeChars(text)).toEqual([]);
    const bars = text
      .trimEnd()
      .split("\n")
      .map((line) => line.indexOf("|"));
    expect(new Set(bars).size).toBe(1);
  });
});
