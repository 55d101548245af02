import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { CommandContext } from "./context.js";

/**
 * Sends a command's result to `--output` (creating folders) or stdout.
 * Writing a file prints one line saying where it went.
 */
export async function deliver(ctx: CommandContext, text: string): Promise<void> {
  const { output, format } = ctx.args;
  if (output === undefined) {
    ctx.io.stdout(text);
    return;
  }
  const path = resolve(ctx.cwd, output);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, "utf8");
  ctx.io.stdout(`wrote ${format} to ${output}\n`);
}

/** JSON as the CLI prints it: two-space indent, trailing newline. */
export function toJsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
