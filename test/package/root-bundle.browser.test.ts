/**
 * The root import in a browser: `import { ActionSpec, plan, GoapGraph } from
 * "langgoap"` bundled by esbuild for the browser with nothing marked
 * external, then run in headless Chromium: one plan, and one `GoapGraph` run
 * on a `MemorySaver` thread. A Node-only feature reached from the same
 * import (`savePlan`) answers with a coded `NODE_ONLY` error instead of
 * breaking the bundle. The page is served over plain http (not a secure
 * context, so `crypto.randomUUID` is absent and run ids come from
 * `getRandomValues`) and may make no network request. Without Chromium the
 * browser half skips with one printed line (fails under
 * LANGGOAP_REQUIRE_BROWSER=1); the bundling half always runs, and also
 * bundles every other entry point but the Node-only ones (all exports of
 * each), so a `node:` import added to any layer fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Message, type Metafile } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBrowser } from "../support/requirements.js";
import { launchChromium, openPage } from "../viz/chromium.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const ORIGIN = "http://langgoap.test";
/**
 * A guard against a layer leaking in (the MILP solvers' WebAssembly, Mermaid,
 * the server), not a diet: the bundle is ~1.6 MB minified, most of it
 * LangGraph.js, LangChain core, LangSmith and zod, which `GoapGraph` needs.
 */
const LIMIT_BYTES = 2 * 1024 * 1024;

/** The page's program: what a browser app importing the package root would write. */
const PROGRAM = `
import { MemorySaver } from "@langchain/langgraph";
import { ActionSpec, GoapGraph, plan, savePlan } from "./src/index.ts";

async function main() {
  const actions = [
    new ActionSpec({ name: "buy_axe", preconditions: { gold: { gte: 5 } }, effects: { has_axe: true, gold: { dec: 5 } }, cost: 1 }),
    new ActionSpec({ name: "chop", preconditions: { has_axe: true }, effects: { wood: { inc: 2 } }, cost: 2 }),
    new ActionSpec({ name: "build_fire", preconditions: { wood: { gte: 3 } }, effects: { warm: true, wood: { dec: 3 } }, cost: 1 }),
  ];
  const start = { gold: 7, wood: 0, has_axe: false, warm: false };
  const found = plan(start, { warm: true }, actions);

  const graph = new GoapGraph(actions);
  const app = graph.compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "browser" } };
  const result = await app.invoke(graph.createInput({ warm: true }, start), config);
  const saved = await app.getState(config);

  let nodeOnly = null;
  try {
    await savePlan(found, "plan.json");
  } catch (error) {
    nodeOnly = { code: error.code, message: error.message };
  }
  return {
    secureContext: globalThis.isSecureContext,
    planned: found?.actionNames,
    plannedCost: found?.totalCost,
    status: result.status,
    executed: result.executionHistory.map((r) => r.actionName + ":" + r.success),
    worldState: result.worldState,
    runId: result.runId,
    checkpointStatus: saved.values.status,
    checkpointId: saved.config.configurable?.checkpoint_id ?? null,
    nodeOnly,
  };
}
globalThis.__langgoap = main().catch((error) => ({ error: String(error && error.stack || error) }));
`;

interface Bundled {
  readonly code: string;
  /** Imports the bundle leaves for the runtime to load (what esbuild could not or would not bundle). */
  readonly external: readonly string[];
  readonly errors: readonly Message[];
  readonly warnings: readonly Message[];
}

/** Bundles {@link PROGRAM} for the browser; resolve failures come back as messages, not a throw. */
async function bundle(): Promise<Bundled> {
  try {
    const result = await build({
      stdin: { contents: PROGRAM, resolveDir: ROOT, loader: "ts", sourcefile: "app.ts" },
      bundle: true,
      minify: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const output = Object.values((result.metafile as Metafile).outputs)[0];
    const external = (output?.imports ?? []).filter((i) => i.external).map((i) => i.path);
    return { code: result.outputFiles[0]?.text ?? "", external, errors: result.errors, warnings: result.warnings };
  } catch (error) {
    const failure = error as { errors?: Message[]; warnings?: Message[] };
    return { code: "", external: [], errors: failure.errors ?? [], warnings: failure.warnings ?? [] };
  }
}

/** What a browser bundle of `contents` could not resolve or left external (empty when it bundles cleanly). */
async function unresolved(contents: string): Promise<string[]> {
  try {
    const result = await build({
      stdin: { contents, resolveDir: ROOT, loader: "ts", sourcefile: "entry.ts" },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const output = Object.values((result.metafile as Metafile).outputs)[0];
    return [...result.warnings.map(where), ...(output?.imports ?? []).filter((i) => i.external).map((i) => `external ${i.path}`)];
  } catch (error) {
    return ((error as { errors?: Message[] }).errors ?? [{ text: String(error) } as Message]).map(where);
  }
}

const where = (m: Message) => `${m.text} (${m.location?.file ?? "?"}:${m.location?.line ?? "?"})`;

let bundled: Bundled;

beforeAll(async () => {
  bundled = await bundle();
}, 120_000);

describe("the root import bundled for the browser", () => {
  it("resolves every module: no error, no warning, nothing left external for the runtime to load", () => {
    expect(bundled.errors.map(where)).toEqual([]);
    expect(bundled.warnings.map(where)).toEqual([]);
    expect(bundled.external).toEqual([]);
    expect(bundled.code.length).toBeGreaterThan(0);
    expect(bundled.code.length).toBeLessThan(LIMIT_BYTES);
    expect(gzipSync(bundled.code).length).toBeLessThan(bundled.code.length / 2);
  });
});

/** Entry points that are Node-only by design: the file system, the command line, the inspector's HTTP server. */
const NODE_ONLY_SUBPATHS = ["./node", "./cli", "./inspect"];

describe("every other entry point bundled for the browser", () => {
  it("resolves every module of each layer's subpath (all its exports), nothing external", { timeout: 300_000 }, async () => {
    const exportsMap = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports as Record<string, unknown>;
    const subpaths = Object.keys(exportsMap).filter((key) => key !== "./package.json" && !NODE_ONLY_SUBPATHS.includes(key));
    expect(subpaths).toContain(".");
    expect(subpaths).toContain("./graph");
    const failures: Record<string, string[]> = {};
    for (const subpath of subpaths) {
      const source = subpath === "." ? "./src/index.ts" : `./src/${subpath.slice(2)}/index.ts`;
      const problems = await unresolved(`export * from ${JSON.stringify(source)};`);
      if (problems.length > 0) failures[subpath] = problems;
    }
    expect(failures).toEqual({});
  });
});

const chromiumHere = requireBrowser("the root import's bundle in Chromium");

describe.runIf(chromiumHere.available)("the root import's bundle in Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(chromiumHere);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("plans, runs a GoapGraph on a MemorySaver thread, and answers savePlan with NODE_ONLY", async () => {
    expect(bundled.errors.map(where)).toEqual([]);
    const page = await openPage(browser);
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.route("**/*", async (route) => {
      const url = route.request().url();
      if (url === `${ORIGIN}/`) {
        await route.fulfill({
          contentType: "text/html",
          body: '<!doctype html><title>langgoap</title><script type="module" src="/app.js"></script>',
        });
      } else if (url === `${ORIGIN}/app.js`) {
        await route.fulfill({ contentType: "text/javascript", body: bundled.code });
      } else {
        problems.push(`network request: ${url}`);
        await route.abort();
      }
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => "__langgoap" in globalThis);
    const outcome = (await page.evaluate(() => (globalThis as { __langgoap?: Promise<unknown> }).__langgoap)) as Record<string, unknown>;
    await page.close();

    expect(outcome.error).toBeUndefined();
    expect(outcome.secureContext).toBe(false);
    expect(outcome.planned).toEqual(["buy_axe", "chop", "chop", "build_fire"]);
    expect(outcome.plannedCost).toBe(6);
    expect(outcome.status).toBe("goal_achieved");
    expect(outcome.executed).toEqual(["buy_axe:true", "chop:true", "chop:true", "build_fire:true"]);
    expect(outcome.worldState).toEqual({ gold: 2, wood: 1, has_axe: true, warm: true });
    expect(outcome.runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(outcome.checkpointStatus).toBe("goal_achieved");
    expect(outcome.checkpointId).toEqual(expect.any(String));
    expect(outcome.nodeOnly).toEqual({
      code: "NODE_ONLY",
      message: expect.stringContaining("savePlan needs Node.js"),
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
