import { describe, expect, it } from "vitest";
import { cli } from "./run-cli.js";

/** A clock that advances `stepMs` on every reading. */
function steppingClock(stepMs: number): () => number {
  let t = 0;
  return () => {
    t += stepMs;
    return t;
  };
}

const LONG_SEARCH = ["plan", "test/cli/fixtures/counter.yaml", "--heuristic", "zero", "-f", "json"];

describe("progress line", () => {
  it("appears on stderr once a search has run for a second, at doubling intervals in logs", async () => {
    const { code, stderr, stdout } = await cli(LONG_SEARCH, { now: steppingClock(300) });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).plan.actions).toHaveLength(4000);
    const lines = stderr.trimEnd().split("\n");
    expect(lines[0]).toBe("langgoap: searching with astar… 1.2s");
    expect(lines[1]).toBe("langgoap: searching with astar… 2.4s");
    // Doubling: the n-th line comes after about 1.2·2^(n-1) seconds, so there are few lines.
    // The clock is fake and steps 300 ms per read: long searches reach minutes of it.
    for (const line of lines) expect(line).toMatch(/^langgoap: searching with astar… [\d.]+(s|min)$/);
    const seconds = lines.map((line) => {
      const [, value, unit] = /([\d.]+)(s|min)$/.exec(line) ?? [];
      return Number(value) * (unit === "min" ? 60 : 1);
    });
    for (let i = 1; i < seconds.length; i++) expect(seconds[i]).toBeGreaterThanOrEqual(2 * (seconds[i - 1] as number));
  });

  it("names the budget and is redrawn in place, then erased, on a terminal", async () => {
    const { stderr } = await cli([...LONG_SEARCH, "--budget", "10000"], { now: steppingClock(300), stderrIsTTY: true });
    expect(stderr.startsWith("\r\x1b[Klanggoap: searching with astar (budget 10000 expansions)… 1.2s")).toBe(true);
    expect(stderr.endsWith("\r\x1b[K")).toBe(true);
    expect(stderr).not.toContain("\n");
  });

  it("stays silent for searches under a second", async () => {
    const { stderr } = await cli(LONG_SEARCH, { now: steppingClock(1) });
    expect(stderr).toBe("");
  });

  it("stops a search when the signal aborts, exiting 130", async () => {
    const controller = new AbortController();
    controller.abort();
    const { code, stderr } = await cli(LONG_SEARCH, { signal: controller.signal });
    expect(code).toBe(130);
    expect(stderr).toMatch(
      /^langgoap: no plan: search aborted after 0 expansions \(0 states generated\) in \d+ ms; no plan found before it stopped\n$/,
    );
  });
});
