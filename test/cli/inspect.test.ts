/**
 * `langgoap inspect`: serves the inspector on loopback while the domain's
 * goal runs through a real graph, shows the first planning call's search,
 * records the run in a SQLite history and lists it, and stops on its own
 * (`--serve-for`) or on Ctrl-C (the abort signal).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "langgoap-inspect-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What the command printed so far, and a promise for the first match of a
 * pattern in it, which rejects with the output when the command ends
 * without printing it.
 */
function output(): {
  write: (text: string) => void;
  end: () => void;
  printed: (pattern: RegExp) => Promise<RegExpExecArray>;
} {
  let text = "";
  let ended = false;
  const waiting: { pattern: RegExp; resolve: (match: RegExpExecArray) => void; reject: (error: Error) => void }[] = [];
  const check = () => {
    for (const wait of [...waiting]) {
      const match = wait.pattern.exec(text);
      if (match) wait.resolve(match);
      else if (ended) wait.reject(new Error(`the command ended without printing ${wait.pattern}:\n${text}`));
      else continue;
      waiting.splice(waiting.indexOf(wait), 1);
    }
  };
  return {
    write: (chunk) => {
      text += chunk;
      check();
    },
    end: () => {
      ended = true;
      check();
    },
    printed: (pattern) =>
      new Promise((resolve, reject) => {
        waiting.push({ pattern, resolve, reject });
        check();
      }),
  };
}

describe("langgoap inspect", () => {
  it("serves the run, its search and the history until Ctrl-C, then exits 0", { timeout: 60_000 }, async () => {
    const controller = new AbortController();
    const stdout = output();
    const history = join(dir, "runs.sqlite");
    const done = cli(["inspect", "examples/domains/village.yaml", "--history", history, "--step-delay", "10ms"], {
      signal: controller.signal,
      stdout: stdout.write,
    }).finally(stdout.end);
    const url = (await stdout.printed(/Inspector: (http:\/\/127\.0\.0\.1:\d+\/)/))[1] as string;
    // The run ends, then the command keeps serving.
    expect((await stdout.printed(/Run: .*\n/))[0]).toBe("Run: goal_achieved\n");
    const state = (await (await fetch(`${url}api/state`)).json()) as { views: Record<string, { data: Record<string, unknown> }> };
    const run = state.views["run:run"]?.data as { status: string; plan: { steps: { name: string; status: string }[] } };
    expect(run.status).toBe("goal_achieved");
    expect(run.plan.steps.map((s) => [s.name, s.status])).toEqual([
      ["go_to_tree", "succeeded"],
      ["chop_wood", "succeeded"],
      ["go_to_campfire", "succeeded"],
      ["cook_food", "succeeded"],
      ["eat_food", "succeeded"],
    ]);
    const search = state.views["search:first planning call"]?.data as { status: string; plan: { actions: string[] }; nodes: unknown[] };
    expect(search.status).toBe("found");
    expect(search.plan.actions).toEqual(["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"]);
    expect(search.nodes.length).toBeGreaterThan(0);
    const records = (state.views.history as { data: { records: { status: string }[] } }).data.records;
    expect(records.map((r) => r.status)).toEqual(["goal_achieved"]);
    expect((await fetch(url)).status).toBe(200);
    controller.abort();
    const result = await done;
    expect(result.code).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("stops by itself after --serve-for and exits 1 when there is no plan", { timeout: 60_000 }, async () => {
    const result = await cli([
      "inspect",
      "examples/domains/village.yaml",
      "--goal",
      '{"has_wood": true}',
      "--state",
      '{"has_axe": false}',
      "--serve-for",
      "100ms",
    ]);
    expect(result.stdout).toMatch(/^Inspector: http:\/\/127\.0\.0\.1:\d+\/\nRun: no_plan/);
    expect(result.code).toBe(1);
  });

  it("refuses a bad port or duration", async () => {
    expect((await cli(["inspect", "examples/domains/village.yaml", "--port", "70000"])).stderr).toContain(
      "--port must be a whole number from 0 to 65535",
    );
    expect((await cli(["inspect", "examples/domains/village.yaml", "--serve-for", "soon"])).code).toBe(2);
  });
});
