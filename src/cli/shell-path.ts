import { isAbsolute, join, relative } from "node:path";
import { packageRoot } from "./package-root.js";

/** A path as a shell needs it typed: single-quoted when it holds anything but plain path characters. */
export function shellPath(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

/**
 * The sample domains shipped with the package (`examples/domains`), as the
 * user would type the path from `cwd`: relative when below it (in the
 * repository, `examples/domains`; in a project, `node_modules/langgoap/...`),
 * absolute otherwise. Help text names files that exist wherever it runs.
 */
export function sampleDomainsDir(cwd: string): string {
  const dir = join(packageRoot().dir, "examples", "domains");
  const rel = relative(cwd, dir);
  return shellPath(rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : dir);
}
