/**
 * What a browser app pays for langgoap: the import lines a user writes,
 * bundled for the browser with esbuild (`--bundle --minify --format=esm
 * --platform=browser`, tree-shaking on, nothing external) and with Vite (an
 * app build of a one-line entry), minified and gzipped. LangGraph.js's own
 * bundle (`StateGraph, MemorySaver, Annotation` from
 * `@langchain/langgraph/web`) is the baseline: "added" is what the root
 * import costs on top of it. Sizes are in bytes; the budgets are in KB of
 * 1,000 bytes. Used by `npm run bench -- bundle` (bench/suites/05-bundle.ts).
 * Without `--splitting`, esbuild inlines every module an `import()` names, so
 * the layers langgoap loads on first use count in its figure (and each
 * module they reach gets esbuild's lazy-init wrapper). With `--splitting`
 * (esbuildSplitBundle) each of them is an entry point of its own, and
 * esbuild groups modules into chunks by which entry points reach them
 * before tree-shaking: a module both the page (through the root barrel) and
 * a lazy layer reach lands in a shared chunk that the page imports whole,
 * used or not (Vite/Rolldown loads only what is used). The `planningSubpaths`
 * entry reaches no `import()` and is one chunk either way.
 *
 * Which layers are lazy, measured (KB added over LangGraph.js, minified;
 * planning = `ActionSpec, plan` from the root): the optimize layer (the
 * graph's default pipeline) saves Vite ~100 KB up front and costs an
 * esbuild `--splitting` planning page ~65 KB (the planner's shared chunk
 * holds it), so it stays lazy; the store history saves Vite 13 KB and
 * costs that page 16 KB, and stays lazy; javascript-lp-solver (53 KB) is
 * imported by JsLpSolver's first in-process solve, its own chunk everywhere.
 * The nl layer (`invokeNl`) is imported statically: lazy it saved Vite 16 KB
 * but made esbuild `--splitting` load the shared LangGraph/LangChain/zod
 * chunk with the planner (planning 1,027 KB instead of 167 KB, the root
 * page 54 KB more) and cost esbuild without splitting 11 KB of wrappers.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

/** The package's root folder (the entries import its sources). */
export const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The import lines measured, by name: what a browser app would write. */
export const BUNDLE_ENTRIES = {
  /** LangGraph.js alone: the baseline every GoapGraph app pays anyway. */
  langgraph: 'export { StateGraph, MemorySaver, Annotation } from "@langchain/langgraph/web";',
  /** A graph app: planning and GoapGraph from the package root. */
  root: 'export { ActionSpec, plan, GoapGraph } from "./src/index.ts";',
  /** A game that only plans, from the package root. */
  planning: 'export { ActionSpec, plan } from "./src/index.ts";',
  /** The same game importing from the subpaths (`langgoap/core`, `langgoap/planner`): no graph module is reachable. */
  planningSubpaths: 'export { ActionSpec } from "./src/core/index.ts";\nexport { plan } from "./src/planner/index.ts";',
} as const;

/** A measured entry's name. */
export type BundleEntryName = keyof typeof BUNDLE_ENTRIES;

/** The budgets the bundle test holds, in bytes. */
export const BUNDLE_BUDGETS = {
  /** The root import (`ActionSpec, plan, GoapGraph`) minus LangGraph.js's own bundle, minified. */
  addedBytes: 150_000,
  /** `ActionSpec, plan` from the root, minified. */
  planningBytes: 60_000,
} as const;

/** One esbuild bundle. */
export interface EsbuildBundle {
  /** The minified output. */
  readonly code: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  /** Output bytes by source file (paths relative to the package root). */
  readonly inputs: Readonly<Record<string, number>>;
  /** Output bytes by package (`langgoap` for the package's own sources). */
  readonly packages: Readonly<Record<string, number>>;
  /** The metafile, for `esbuild.analyzeMetafile`. */
  readonly metafile: Metafile;
}

/** The npm package a bundled file comes from, or `langgoap` for ours. */
export function packageOf(path: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(path);
  return match ? (match[1] as string) : "langgoap";
}

/** Bundles `source` (import lines, resolved from the package root) as the brief's esbuild command does. */
export async function esbuildBundle(source: string): Promise<EsbuildBundle> {
  const result = await build({
    stdin: { contents: source, resolveDir: PACKAGE_ROOT, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.text ?? "";
  const output = Object.values(result.metafile.outputs)[0] as Metafile["outputs"][string];
  const inputs: Record<string, number> = {};
  const packages: Record<string, number> = {};
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    if (bytesInOutput === 0) continue;
    inputs[path] = bytesInOutput;
    const name = packageOf(path);
    packages[name] = (packages[name] ?? 0) + bytesInOutput;
  }
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).length, inputs, packages, metafile: result.metafile };
}

/** One Vite app build: what the page loads up front, and the chunks it loads on demand. */
export interface ViteBundle {
  /** The entry chunk and the chunks it imports statically (loaded with the page). */
  readonly entryBytes: number;
  readonly entryGzipBytes: number;
  /** Every chunk together (the entry and those it imports dynamically). */
  readonly totalBytes: number;
  readonly totalGzipBytes: number;
  readonly chunks: number;
}

/**
 * An app build with Vite (its default minifier and tree-shaking) of a
 * one-line entry that uses every name `source` exports, so none is dropped.
 */
export async function viteBundle(source: string): Promise<ViteBundle> {
  const { build: viteBuild } = await import("vite");
  const dir = mkdtempSync(join(PACKAGE_ROOT, ".tmp-bundle-"));
  try {
    const names = [...source.matchAll(/export \{([^}]*)\}/g)].flatMap((m) => (m[1] as string).split(",").map((n) => n.trim()));
    const from = [...source.matchAll(/from "([^"]+)"/g)].map((m) => (m[1] as string).replace(/^\.\//, `${PACKAGE_ROOT}/`));
    const lines = source.split("\n").map((line, i) => line.replace(/^export /, "import ").replace(/from "[^"]+"/, `from "${from[i]}"`));
    const entry = join(dir, "entry.js");
    writeFileSync(entry, `${lines.join("\n")}\nglobalThis.__used = [${names.join(", ")}];\n`);
    const built = await viteBuild({
      root: PACKAGE_ROOT,
      configFile: false,
      logLevel: "silent",
      build: { write: false, minify: true, modulePreload: false, rolldownOptions: { input: entry } },
    });
    const chunks = (Array.isArray(built) ? built : [built])
      .flatMap((b) => ("output" in b ? b.output : []))
      .filter((o) => o.type === "chunk");
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    // What the page loads up front: the entry chunk and every chunk it imports statically, transitively.
    const eager = new Set<string>();
    const pending = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (eager.has(name)) continue;
      eager.add(name);
      pending.push(...(byName.get(name)?.imports ?? []));
    }
    const sizes = chunks.map((c) => ({ eager: eager.has(c.fileName), bytes: Buffer.byteLength(c.code), gzip: gzipSync(c.code).length }));
    const sum = (list: typeof sizes, key: "bytes" | "gzip") => list.reduce((total, s) => total + s[key], 0);
    const upFront = sizes.filter((s) => s.eager);
    return {
      entryBytes: sum(upFront, "bytes"),
      entryGzipBytes: sum(upFront, "gzip"),
      totalBytes: sum(sizes, "bytes"),
      totalGzipBytes: sum(sizes, "gzip"),
      chunks: sizes.length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One esbuild build with `--splitting`: what the page loads up front, and every chunk. */
export interface EsbuildSplitBundle {
  /** The entry chunk and the chunks it imports statically, transitively. */
  readonly entryBytes: number;
  readonly entryGzipBytes: number;
  /** Every chunk together (the entry's and those loaded through `import()`). */
  readonly totalBytes: number;
  readonly chunks: number;
}

/** Bundles `source` with the flags of {@link esbuildBundle} plus `--splitting` (an app that lets `import()` make chunks). */
export async function esbuildSplitBundle(source: string): Promise<EsbuildSplitBundle> {
  const outdir = mkdtempSync(join(tmpdir(), "langgoap-split-"));
  try {
    const result = await build({
      stdin: { contents: source, resolveDir: PACKAGE_ROOT, loader: "ts", sourcefile: "entry.ts" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      splitting: true,
      outdir,
      absWorkingDir: PACKAGE_ROOT,
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const text = new Map(result.outputFiles.map((file) => [file.path, file.text]));
    const outputs = result.metafile.outputs;
    const absolute = (path: string) => join(PACKAGE_ROOT, path);
    // The stdin entry's chunk; each module an import() names is an entry point of its own.
    const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === "entry.ts");
    const eager = new Set<string>();
    const pending = entry === undefined ? [] : [entry];
    for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
      if (eager.has(path)) continue;
      eager.add(path);
      for (const imported of outputs[path]?.imports ?? []) if (imported.kind === "import-statement") pending.push(imported.path);
    }
    const code = (path: string) => text.get(absolute(path)) ?? "";
    const jsOutputs = Object.keys(outputs).filter((path) => path.endsWith(".js"));
    const upFront = [...eager].map(code);
    return {
      entryBytes: upFront.reduce((total, c) => total + Buffer.byteLength(c), 0),
      entryGzipBytes: upFront.reduce((total, c) => total + gzipSync(c).length, 0),
      totalBytes: jsOutputs.reduce((total, path) => total + Buffer.byteLength(code(path)), 0),
      chunks: jsOutputs.length,
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
