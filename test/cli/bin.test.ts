/**
 * The real executable, once, in a child process: `src/cli/bin.ts` bundled
 * with esbuild (packages stay external, as in the published build) and run
 * by plain `node`. Through `npx tsx` each process spent seconds compiling
 * the sources first (62 s for this test on a busy machine).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BundledScript, bundleScript } from "../support/bundled-script.js";
import { ROOT } from "./run-cli.js";

const run = promisify(execFile);
let bundled: BundledScript | undefined;
beforeAll(async () => {
  bundled = await bundleScript("src/cli/bin.ts");
});
afterAll(() => bundled?.remove());

async function bin(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [(bundled as BundledScript).file, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
    });
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

  // Child processes start slowly on a busy machine: the limit bounds a hang, it is not a speed claim.
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
