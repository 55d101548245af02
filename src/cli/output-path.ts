import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { LangGoapError } from "../core/errors.js";

function refuse(output: string, reason: string, path: string): LangGoapError {
  return new LangGoapError("INVALID_OPTION", `--output "${output}": ${reason}`, { option: "output", value: output, path, usage: true });
}

/**
 * Checks `--output` before any work is done, so a long search never ends in
 * a failed write: the path must not be a folder (or end in a slash), and
 * the nearest existing ancestor must be a folder (not a file that the path
 * would run through). Missing folders are fine: `deliver` creates them.
 *
 * @example
 * ```ts
 * await checkOutputPath("reports/plan.html", process.cwd()); // ok, reports/ is created later
 * await checkOutputPath("README.md/plan.html", process.cwd()); // throws INVALID_OPTION
 * ```
 * @throws LangGoapError `INVALID_OPTION` naming the path and the reason.
 */
export async function checkOutputPath(output: string, cwd: string): Promise<void> {
  if (output.trim() === "") throw refuse(output, "is empty; give a file path", output);
  if (output.includes("\0")) throw refuse(output.replaceAll("\0", "\\0"), "holds a NUL character", output);
  const path = resolve(cwd, output);
  if (/[/\\]$/.test(output)) throw refuse(output, "names a folder; give a file path inside it", path);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) throw refuse(output, "is a folder; give a file path inside it", path);
  if (info) return;
  for (let parent = dirname(path); ; parent = dirname(parent)) {
    const up = await stat(parent).catch((error: NodeJS.ErrnoException) => (error.code === "ENOTDIR" ? "not-a-folder" : undefined));
    if (up === "not-a-folder") continue;
    if (up) {
      if (!up.isDirectory()) throw refuse(output, `"${parent}" is a file, not a folder, so nothing can be written under it`, path);
      return;
    }
    if (dirname(parent) === parent) return;
  }
}

/** Turns a failed write of `--output` into bad input (exit 2) with the reason, instead of an internal error. */
export function writeFailure(output: string, path: string, error: unknown): LangGoapError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reasons: Readonly<Record<string, string>> = {
    EISDIR: "is a folder; give a file path inside it",
    ENOTDIR: "runs through a file, not a folder",
    EACCES: "is not writable (permission denied)",
    EPERM: "is not writable (operation not permitted)",
    EROFS: "is on a read-only file system",
    ENOSPC: "cannot be written: the disk is full",
    ENAMETOOLONG: "is too long a path",
  };
  const reason = (code && reasons[code]) ?? `cannot be written: ${(error as Error)?.message ?? String(error)}`;
  return new LangGoapError("INVALID_OPTION", `--output "${output}": ${reason}`, { option: "output", value: output, path, errno: code });
}
