import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { LangGoapError } from "../core/errors.js";
import type { CommandContext } from "./context.js";
import { openWithDefaultApp } from "./io.js";
import { writeFailure } from "./output-path.js";

const EXTENSIONS: Readonly<Record<string, string>> = {
  html: "html",
  json: "json",
  mermaid: "mmd",
  "mermaid-gantt": "mmd",
  dot: "dot",
  ascii: "txt",
  gantt: "txt",
  png: "png",
  "gantt-png": "png",
};

/**
 * Sends a command's result to `--output` (creating folders) or stdout. A
 * failed write is bad input (`INVALID_OPTION`, exit 2) naming the path.
 * Writing a file prints one line saying where it went. With `--open` the
 * file (a temporary one when there is no `--output`) is then opened in
 * the default application; when that is impossible, the line says so.
 */
export async function deliver(ctx: CommandContext, text: string | Uint8Array): Promise<void> {
  const { output, format, open } = ctx.args;
  if (output === undefined && !open) {
    if (typeof text !== "string") {
      // Binary output would garble a terminal: it needs a file.
      throw new LangGoapError("INVALID_OPTION", `--format ${format} writes a picture: give -o <file.png> or --open`, {
        option: "output",
        usage: true,
      });
    }
    ctx.io.stdout(text);
    return;
  }
  const path =
    output === undefined
      ? join(
          await mkdtemp(join(tmpdir(), "langgoap-")),
          `${ctx.args.domain.replace(/^.*[/\\]/, "").replace(/[^\w.-]+/g, "_")}.${EXTENSIONS[format] ?? "txt"}`,
        )
      : resolve(ctx.cwd, output);
  try {
    await mkdir(dirname(path), { recursive: true });
    await (typeof text === "string" ? writeFile(path, text, "utf8") : writeFile(path, text));
  } catch (error) {
    throw writeFailure(output ?? path, path, error);
  }
  const shown = output ?? path;
  ctx.io.stdout(`wrote ${format} to ${shown}\n`);
  if (!open) return;
  try {
    await (ctx.io.openFile ?? openWithDefaultApp)(path);
    ctx.io.stdout(`opened ${shown}\n`);
  } catch (error) {
    ctx.io.stderr(`langgoap: could not open a browser (${(error as Error).message}); open ${path} yourself\n`);
  }
}

/** JSON as the CLI prints it: two-space indent, trailing newline. */
export function toJsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
