/**
 * A game developer bundles only `ActionSpec` + `plan` for the browser. With
 * `"sideEffects": false` and a planning path that never imports the zod
 * domain loader, the bundle is the planner alone: no zod, no yaml.
 */
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
import { BUNDLE_ENTRIES, esbuildSplitBundle } from "../../bench/bundle-size.js";

const ROOT = new URL("../..", import.meta.url).pathname;
/**
 * A guard against a layer leaking in, not a diet: the planner alone was ~78 KB
 * minified, ~86 KB once it paced its compile steps, checked start states
 * as JSON and compared numbers with a tolerance, and ~96 KB with LM-cut's
 * per-state graph trimming and the search loop's own time in the stats,
 * ~104 KB with the packed-bits engine's successor generator (a decision
 * tree over precondition bits, 0.4-0.9x the scan's CPU time on IPC tasks)
 * and slices that shorten while the cores are busy, ~107 KB with blind
 * search's bucket open list and one-word scan (chain-XL blind 2x faster),
 * ~113 KB with strong stubborn sets (3 KB: woodworking-opt08 p05 in 30 ms
 * instead of 15 s) and LM-cut's first pass on its own bucket queue (1.3
 * KB); another layer would add far more.
 */
const LIMIT_BYTES = 116 * 1024;
const USE =
  'export const found = plan({}, { warm: true }, [new ActionSpec({ name: "light_fire", effects: { warm: true } })])?.actionNames;';

interface Bundle {
  readonly code: string;
  /** Bytes each package contributes to the minified output. */
  readonly packages: Record<string, number>;
}

/**
 * Bundles for the browser with nothing external: the root barrel imports no
 * Node built-in (root-bundle.browser.test.ts runs the full graph bundle).
 */
async function bundle(imports: string): Promise<Bundle> {
  const result = await build({
    stdin: { contents: `${imports}\n${USE}`, resolveDir: ROOT, loader: "ts", sourcefile: "game.ts" },
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const output = Object.values((result.metafile as Metafile).outputs)[0] as Metafile["outputs"][string];
  const packages: Record<string, number> = {};
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const name = match ? (match[1] as string) : "langgoap";
    if (bytesInOutput > 0) packages[name] = (packages[name] ?? 0) + bytesInOutput;
  }
  return { code: (result.outputFiles?.[0]?.text as string) ?? "", packages };
}

/** Runs the bundle and returns what it planned. */
async function run(code: string): Promise<unknown> {
  return ((await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { found: unknown }).found;
}

describe("a browser bundle of ActionSpec + plan", () => {
  it("from langgoap/core and langgoap/planner holds the planner only, under 116 KB minified, and plans", async () => {
    const { code, packages } = await bundle(
      'import { ActionSpec } from "./src/core/index.ts";\nimport { plan } from "./src/planner/index.ts";',
    );
    expect(Object.keys(packages)).toEqual(["langgoap"]);
    expect(code).not.toContain("node:");
    expect(code.length).toBeLessThan(LIMIT_BYTES);
    expect(await run(code)).toEqual(["light_fire"]);
  });

  it("from the root entry drops every other layer and stays under 116 KB", async () => {
    const { code, packages } = await bundle('import { ActionSpec, plan } from "./src/index.ts";');
    expect(Object.keys(packages)).toEqual(["langgoap"]);
    expect(code).not.toContain("node:");
    expect(code.length).toBeLessThan(LIMIT_BYTES);
    expect(await run(code)).toEqual(["light_fire"]);
  });

  it("from the root entry with esbuild --splitting loads the planner's chunks only, not LangGraph's (under 186 KB up front)", async () => {
    // esbuild chunks by which entry points reach a module before tree-shaking, and this page imports every chunk
    // holding a module it reaches: 181 KB, the planner's chunk shared with the lazy optimize layer and the store
    // history's. A lazy layer that reaches LangChain (the nl layer once was) put LangGraph, LangChain and zod in
    // such a chunk: 1,027 KB.
    const split = await esbuildSplitBundle(BUNDLE_ENTRIES.planning);
    expect(split.entryBytes).toBeLessThan(186_000);
  });
});
