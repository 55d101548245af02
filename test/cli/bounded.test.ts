import { spawn } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type BundledScript, bundleScript } from "../support/bundled-script.js";
import { stillClock } from "../support/still-clock.js";
import { cli, ROOT } from "./run-cli.js";

const ADD_TWO = "test/cli/fixtures/add-two.yaml";
const TOGGLES = "test/cli/fixtures/toggles.yaml";

// bin.ts bundled once and run by plain node: through tsx each process first spent seconds compiling the sources.
let bundled: BundledScript | undefined;
beforeAll(async () => {
  bundled = await bundleScript("src/cli/bin.ts");
});
afterAll(() => bundled?.remove());

/**
 * Runs `bin.ts` in a child process, waits until its progress line shows a
 * search or run under way, sends SIGINT (Ctrl-C) and collects what it printed.
 */
function interrupted(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [(bundled as BundledScript).file, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      if (!sent && /langgoap: (searching|running)/.test(stderr)) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("bounded searches in the CLI", () => {
  it("exits 4 when the default budget stops the unsolvable numeric example, with the figures", async () => {
    // Time stands still: the default node budget ends the search, not the default 10 s on a busy machine.
    stillClock();
    const { code, stdout, stderr } = await cli(["plan", ADD_TWO, "-f", "json"]);
    expect(code).toBe(4);
    expect(stderr).toMatch(
      /(^|\n)langgoap: no plan: search stopped by its node budget \(maxNodes 1,000,000\) after 1,000,000 states held, [\d,]+ expansions, [\d,]+ ms, without reaching the goal; .*; the node budget bounds the search's memory\n$/,
    );
    const json = JSON.parse(stdout);
    expect(json).toMatchObject({ status: "budget_exhausted", plan: null, budget: { limit: "nodes", maxNodes: 1_000_000 } });
  });

  it("exits 4 from explain and run too, and documents the code", async () => {
    const explained = await cli(["explain", ADD_TWO, "--budget", "500"]);
    expect(explained.code).toBe(4);
    expect(explained.stdout).toMatch(/^Reachable: {3}no; search stopped by its expansion budget \(maxExpansions 500\)/m);
    const ran = await cli(["run", ADD_TWO, "--strategy", "astar", "--budget", "500"]);
    expect(ran.code).toBe(4);
    expect(ran.stdout).toMatch(/^Run: budget_exhausted \(0 actions executed, 0 replans\)\n/);
    expect(ran.stderr).toMatch(
      /^langgoap: run ended with status budget_exhausted: search stopped by its expansion budget \(maxExpansions 500\)/,
    );
    const help = await cli(["--help"]);
    expect(help.stdout).toMatch(/^ {2}4 {4}Search budget exhausted/m);
    expect(help.stdout).toMatch(/^ {2}130 {2}Aborted by Ctrl-C/m);
  });

  // A child process starts slowly on a busy machine: the limit bounds a hang, it is not a speed claim.
  it("stops a search on Ctrl-C, prints what it reached and exits 130", { timeout: 120_000 }, async () => {
    // The state cap is lifted: under it the search ends in about a second, a race with the progress line. Without
    // pruning: the stubborn sets prove the toggles' space unsolvable in about 120 expansions (see below).
    const { code, stderr } = await interrupted(["plan", TOGGLES, "--budget", "600s", "--max-states", "none", "--pruning", "none"]);
    expect(code).toBe(130);
    expect(stderr).toMatch(
      /langgoap: no plan: search aborted after [\d,]+ expansions \([\d,]+ states generated\) in [\d,]+ ms; no plan found before it stopped\n$/,
    );
  });

  it("stops a run on Ctrl-C, prints the run so far and exits 130", { timeout: 120_000 }, async () => {
    const { code, stdout, stderr } = await interrupted(["run", TOGGLES, "--budget", "600s", "--max-states", "none", "--pruning", "none"]);
    expect(code).toBe(130);
    expect(stderr).toMatch(/langgoap: run ended with status aborted: aborted: AbortError/);
    expect(stdout).toMatch(/^Run: aborted \(0 actions executed, 0 replans\)\n/);
    expect(stdout).toContain("Final state: ");
  });

  it("caps the states a search holds with --max-states and refuses a bad count", async () => {
    const capped = await cli(["plan", TOGGLES, "--max-states", "1000", "--pruning", "none"]);
    expect(capped.code).toBe(4);
    expect(capped.stderr).toMatch(/search stopped by its node budget \(maxNodes 1,000\) after [\d,]+ states held/);
    // run applies search options to the strategy the graph chooses, without --strategy too.
    const ran = await cli(["run", TOGGLES, "--budget", "500", "--pruning", "none"]);
    expect(ran.code).toBe(4);
    expect(ran.stdout).toMatch(/search stopped by its expansion budget \(maxExpansions 500\)/);
    const bad = await cli(["plan", TOGGLES, "--max-states", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-states must be a whole number of at least 1, or none, got "0"');
  });

  it("proves the toggles unsolvable by default: the stubborn sets leave the 40 toggles, which no goal needs, unexpanded", async () => {
    const { code, stderr } = await cli(["plan", TOGGLES, "--max-states", "1000", "--stats"]);
    expect(code).toBe(1);
    expect(stderr).toContain("langgoap: no plan: no plan reaches the goal");
    const stats = JSON.parse(stderr.trim().split("\n").at(-1) as string) as { status: string; expansions: number };
    expect(stats.status).toBe("no_plan");
    expect(stats.expansions).toBeLessThan(200);
  });
});

describe("the time budget counts loading the domain", () => {
  it("gives the search what loading left of the budget, and says loading took part of it", async () => {
    const { longChainProblem } = await import("../../bench/problems.js");
    const { search } = await import("../../src/cli/search.js");
    const { actions, start, goal } = longChainProblem(50);
    const settings = { strategy: undefined, heuristic: undefined, seed: 1, budget: { kind: "time", ms: 500 } as const };
    // Time stands still during these searches: only loadMs spends the budget, however busy the machine.
    stillClock();
    // Loading took the whole budget: no search, and the message says why.
    const spent = await search(start, goal, actions, { ...settings, loadMs: 500 }, undefined);
    expect(spent.status).toBe("budget_exhausted");
    expect(spent.stats).toMatchObject({ nodesExpanded: 0, nodesGenerated: 0 });
    expect(spent.message).toContain("loading the domain took 500 ms of the time budget");
    expect(spent.message).toContain("(--budget 500ms)");
    // With time left, the same search plans.
    const left = await search(start, goal, actions, { ...settings, loadMs: 5 }, undefined);
    expect(left.status).toBe("found");
  });
});
