import { resolve } from "node:path";
import { type CliIo, runCli } from "../../src/cli/index.js";

/** The repository root: commands resolve domains against it. */
export const ROOT = resolve(import.meta.dirname, "../..");

/** What a command printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process with captured output. */
export async function cli(argv: readonly string[], io: Partial<CliIo> = {}): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: ROOT,
    ...io,
  });
  return { code, stdout, stderr };
}
