/**
 * A TypeScript entry (the CLI's bin, an example, a helper script) bundled
 * once with esbuild into the repository's `.tmp/` (packages stay external,
 * so bare imports resolve to `node_modules`) and run by plain `node` in a
 * child process: through a TypeScript loader (`tsx`) each process spent
 * seconds of CPU compiling the sources first, which a busy machine turns
 * into tens of seconds.
 */
import { mkdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { build } from "esbuild";
import { ROOT } from "./packed-package.js";

export interface BundledScript {
  /** The bundle: `node <file> ...args` runs the entry. */
  readonly file: string;
  /** Removes the bundle. */
  remove(): void;
}

/** Bundles `entry` (a path from the repository's root); call from `beforeAll`. */
export async function bundleScript(entry: string): Promise<BundledScript> {
  const name = basename(entry).replace(/\.[mc]?ts$/, "");
  const outdir = join(ROOT, ".tmp", `${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(outdir, { recursive: true });
  const file = join(outdir, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  return { file, remove: () => rmSync(outdir, { recursive: true, force: true }) };
}
