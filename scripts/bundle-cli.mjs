/**
 * Bundles the `langgoap` command line (src/cli/bin.ts) into
 * dist/cli/bundle/: one entry file plus one chunk per command, loaded when
 * that command runs. A one-off `langgoap plan --pddl …` then reads a few
 * files instead of some four hundred modules, which is most of a small
 * instance's time. Packages stay external (loaded from node_modules, only
 * when a command needs them). Run by `npm run build` after tsc.
 */
import { rmSync } from "node:fs";
import { build } from "esbuild";

rmSync("dist/cli/bundle", { recursive: true, force: true });

await build({
  entryPoints: { langgoap: "src/cli/bin.ts" },
  outdir: "dist/cli/bundle",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // Readable stack traces in bug reports: no renaming, only whitespace and syntax.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});
