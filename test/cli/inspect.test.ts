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

/** Waits until the command printed the inspector's address. */
async function addressOf(out: () => string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const match = /Inspector: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out());
    if (match) return match[1] as string;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no inspector address printed: ${out()}`);
}

describe("langgoap inspect", () => {
  it("serves the run, its search and the history until Ctrl-C, then exits 0", { timeout: 60_000 }, async () => {
    const controller = new AbortController();
    let stdout = "";
    const history = join(dir, "runs.sqlite");
    const done = cli(["inspect", "examples/domains/village.yaml", "--history", history, "--step-delay", "10ms"], {
      signal: controller.signal,
      stdout: (t) => {
        stdout += t;
      },
    });
    const url = await addressOf(() => stdout);
    // The run ends, then the command keeps serving.
    for (let i = 0; i < 600 && !stdout.includes("Run: "); i++) await new Promise((r) => setTimeout(r, 50));
    expect(stdout).toContain("Run: goal_achieved\n");
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
