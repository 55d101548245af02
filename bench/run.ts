/**
 * `npm run bench`: runs every suite in bench/suites (sorted by file name) and
 * prints one JSON line per measurement. `npm run bench -- <filter>` runs only
 * suites whose file name contains the filter.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const suites = readdirSync(join(here, "suites"))
  .filter((f) => f.endsWith(".ts") && (!filter || f.includes(filter)))
  .sort();
for (const file of suites) {
  const mod = (await import(pathToFileURL(join(here, "suites", file)).href)) as { default: () => Promise<void> };
  process.stderr.write(`# suite ${file}\n`);
  await mod.default();
}
