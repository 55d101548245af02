/** The real executable, once, in a child process: `npx tsx src/cli/bin.ts`. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "./run-cli.js";

const run = promisify(execFile);

async function bin(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "src/cli/bin.ts", ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("bin.ts", () => {
  it("starts with a node shebang", () => {
    expect(readFileSync(join(ROOT, "src/cli/bin.ts"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  // Starting tsx in child processes takes seconds on a busy machine; the timeout is generous, not a speed claim.
  it("plans in a child process and exits with the CLI's codes", { timeout: 120_000 }, async () => {
    const [found, bad] = await Promise.all([
      bin(["plan", "examples/domains/village.yaml"]),
      bin(["plan", "examples/domains/village.yaml", "--strategy", "nope"]),
    ]);
    expect(found.code).toBe(0);
    expect(found.stdout.startsWith("Plan (5 steps, cost=8)\n")).toBe(true);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe('langgoap: error: unknown strategy "nope" for plan; expected one of astar, pipeline, mcts');
  });
});
