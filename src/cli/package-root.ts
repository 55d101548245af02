import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let found: { dir: string; version: string } | undefined;

/**
 * The langgoap package's folder and version: the nearest folder above this
 * module whose package.json is langgoap's. Found by walking up rather than
 * by a fixed `../..`, because the command line also runs bundled
 * (dist/cli/bundle/, with chunks one level deeper still).
 */
export function packageRoot(): { dir: string; version: string } {
  if (found) return found;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (json.name === "langgoap") {
        found = { dir, version: json.version ?? "0.0.0" };
        return found;
      }
    }
    if (dirname(dir) === dir) throw new Error("langgoap: cannot find the package's own package.json above its command line");
  }
}
