/**
 * Browser bundle sizes (`npm run bench -- bundle`): each entry of
 * bench/bundle-size.ts bundled by esbuild (without and with `--splitting`)
 * and by Vite, minified and gzip, and what the root import adds on top of
 * LangGraph.js's own bundle (for split builds, what the page loads up
 * front). One
 * JSON line per entry and bundler, then one with the added bytes and one
 * with the biggest of our files in the root bundle.
 */
import { BUNDLE_BUDGETS, BUNDLE_ENTRIES, type BundleEntryName, esbuildBundle, esbuildSplitBundle, viteBundle } from "../bundle-size.js";
import { emit } from "../emit.js";

const KB = 1000;
const kb = (bytes: number) => Math.round(bytes / 100) / 10;

export default async function bundleBench(): Promise<void> {
  const esbuild: Partial<Record<BundleEntryName, { bytes: number; gzipBytes: number }>> = {};
  const vite: Partial<Record<BundleEntryName, { entryBytes: number; entryGzipBytes: number }>> = {};
  const esbuildSplit: Partial<Record<BundleEntryName, { entryBytes: number; entryGzipBytes: number }>> = {};
  let ours: Record<string, number> = {};
  for (const [name, source] of Object.entries(BUNDLE_ENTRIES) as [BundleEntryName, string][]) {
    const e = await esbuildBundle(source);
    esbuild[name] = e;
    if (name === "root") ours = e.inputs;
    emit({
      suite: "bundle",
      bundler: "esbuild",
      entry: name,
      minifiedKB: kb(e.bytes),
      gzipKB: kb(e.gzipBytes),
      packagesKB: mapKB(e.packages),
    });
    const split = await esbuildSplitBundle(source);
    esbuildSplit[name] = split;
    emit({
      suite: "bundle",
      bundler: "esbuild --splitting",
      entry: name,
      minifiedKB: kb(split.entryBytes),
      gzipKB: kb(split.entryGzipBytes),
      allChunksKB: kb(split.totalBytes),
      chunks: split.chunks,
    });
    const v = await viteBundle(source);
    vite[name] = v;
    emit({
      suite: "bundle",
      bundler: "vite",
      entry: name,
      minifiedKB: kb(v.entryBytes),
      gzipKB: kb(v.entryGzipBytes),
      allChunksKB: kb(v.totalBytes),
      chunks: v.chunks,
    });
  }
  const added = (m: typeof esbuild, key: "bytes" | "gzipBytes") => (m.root?.[key] ?? 0) - (m.langgraph?.[key] ?? 0);
  emit({
    suite: "bundle",
    measure: "added over LangGraph.js",
    esbuildKB: kb(added(esbuild, "bytes")),
    esbuildGzipKB: kb(added(esbuild, "gzipBytes")),
    esbuildSplitKB: kb((esbuildSplit.root?.entryBytes ?? 0) - (esbuildSplit.langgraph?.entryBytes ?? 0)),
    esbuildSplitGzipKB: kb((esbuildSplit.root?.entryGzipBytes ?? 0) - (esbuildSplit.langgraph?.entryGzipBytes ?? 0)),
    viteKB: kb((vite.root?.entryBytes ?? 0) - (vite.langgraph?.entryBytes ?? 0)),
    viteGzipKB: kb((vite.root?.entryGzipBytes ?? 0) - (vite.langgraph?.entryGzipBytes ?? 0)),
    budgetKB: BUNDLE_BUDGETS.addedBytes / KB,
    planningBudgetKB: BUNDLE_BUDGETS.planningBytes / KB,
  });
  const biggest = Object.entries(ours)
    .filter(([path]) => path.startsWith("src/"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15);
  emit({ suite: "bundle", measure: "biggest of ours in root (esbuild)", filesKB: Object.fromEntries(biggest.map(([p, b]) => [p, kb(b)])) });
}

function mapKB(record: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(record)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => [k, kb(v)]),
  );
}
