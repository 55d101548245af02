/**
 * The package as users install it: `npm pack`, installed from the tarball
 * with its peers into a fresh project, then used from ESM, CommonJS,
 * TypeScript, the `langgoap` command and a browser bundler; and a project
 * scaffolded by the installed `langgoap deploy-init`, installed and served
 * by its own LangGraph API server (and, with PostgreSQL, by two self-hosted
 * server processes sharing one database).
 *
 * Needs npm and the registry (or a warm npm cache) and takes a minute or
 * two, so it runs when LANGGOAP_REQUIRE_PACKAGE=1 (CI sets it) and is
 * skipped with one printed line otherwise.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { Client } from "@langchain/langgraph-sdk";
import { build, type Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreExecutionHistory } from "../../src/graph/index.js";
import { type ServerProcess, startDevServer, startServerProcess } from "../support/langgraph-server.js";
import { installInFreshProject, npmInstall, type OwnPackage, ownPackage, packTarball, ROOT, sh } from "../support/packed-package.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { requirePostgres } from "../support/requirements.js";
import { checkApprovalAndHistory, checkGoalAchieved, checkReplanStream, checkSchemas } from "../support/served-scenario.js";

const REQUIRED = process.env.LANGGOAP_REQUIRE_PACKAGE === "1";
if (!REQUIRED) {
  process.stderr.write(
    '[skipped] test/package/package.test.ts "the package installed from its tarball": it packs and installs with npm (the registry or a warm cache). To run it: LANGGOAP_REQUIRE_PACKAGE=1.\n',
  );
}
// Only asked when the file runs at all, so a plain `npm test` prints one line for it.
const WITH_POSTGRES = REQUIRED && requirePostgres("two self-hosted servers on one database").available;

const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

let own: OwnPackage;
let tarball: string;
let project: string;
const installed = () => join(project, "node_modules/langgoap");
const subpaths = () => Object.keys(own.exports).filter((key) => key !== "./package.json");
const specifier = (subpath: string) => (subpath === "." ? "langgoap" : `langgoap/${subpath.slice(2)}`);

/** Runs a script file with the project's node. */
async function node(file: string, args: readonly string[] = []): Promise<string> {
  return (await sh(process.execPath, [...args, file], project)).stdout;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  if (!REQUIRED) return;
  own = await ownPackage();
  tarball = await packTarball();
  project = await installInFreshProject(tarball);
}, 300_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
  if (tarball) await rm(dirname(tarball), { recursive: true, force: true });
}, 60_000);

describe.runIf(REQUIRED)("the package installed from its tarball", () => {
  it("exports the root and one subpath per layer, integrations included", () => {
    expect(subpaths()).toEqual([
      ".",
      "./core",
      "./planner",
      "./optimize",
      "./utility",
      "./tracing",
      "./graph",
      "./nl",
      "./integrations",
      "./viz",
      "./pddl",
      "./cli",
      "./node",
      "./inspect",
      "./testing",
    ]);
  });

  it("imports the root and every subpath from ESM and from CommonJS, with the same exports", { timeout: 60_000 }, async () => {
    const names = JSON.stringify(subpaths().map(specifier));
    await writeFile(
      join(project, "esm.mjs"),
      `const out = {};\nfor (const s of ${names}) out[s] = Object.keys(await import(s)).sort();\nconsole.log(JSON.stringify(out));\n`,
    );
    await writeFile(
      join(project, "cjs.cjs"),
      `const out = {};\nfor (const s of ${names}) out[s] = Object.keys(require(s)).filter((k) => k !== "__esModule" && k !== "module.exports").sort();\nconsole.log(JSON.stringify(out));\n`,
    );
    const esm = JSON.parse(await node("esm.mjs")) as Record<string, string[]>;
    const cjs = JSON.parse(await node("cjs.cjs")) as Record<string, string[]>;
    expect(cjs).toEqual(esm);
    expect(esm.langgoap).toEqual(expect.arrayContaining(["ActionSpec", "GoapGraph", "plan", "LangGoapError"]));
    // Engine internals stay inside the package (see test/package/exports.test.ts).
    for (const internal of ["RelaxedModel", "createHeuristic", "compileProblem"]) {
      expect(esm.langgoap).not.toContain(internal);
      expect(esm["langgoap/planner"]).not.toContain(internal);
    }
    expect(esm["langgoap/integrations"]).toEqual(
      expect.arrayContaining(["createGoapAgent", "goapifyTool", "createDeploymentGraph", "scaffoldDeployment", "StoreThreadSaver"]),
    );
    expect(esm["langgoap/graph"]).toEqual(expect.arrayContaining(["GoapGraph", "compileServedGraph", "GOAP_RUN_INPUT_SCHEMA"]));
    expect(esm["langgoap/testing"]).toEqual(["FakeStructuredChatModel"]);

    await writeFile(
      join(project, "plan.cjs"),
      `const { ActionSpec, plan } = require("langgoap");\nconst found = plan({}, { warm: true }, [new ActionSpec({ name: "light_fire", effects: { warm: true } })]);\nconsole.log(found.actionNames.join(","));\n`,
    );
    expect((await node("plan.cjs")).trim()).toBe("light_fire");
  });

  it("type-checks a TypeScript program against the installed types", async () => {
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          types: ["node"],
        },
        files: ["consumer.ts"],
      }),
    );
    await writeFile(
      join(project, "consumer.ts"),
      `import { ActionSpec, GoapGraph, LangGoapError, plan, type WorldState } from "langgoap";
import { planDetailed, type SearchStatus } from "langgoap/planner";
import { compileServedGraph, type ServedGoapGraph } from "langgoap/graph";
import { scaffoldDeployment, StoreThreadSaver, type ScaffoldedDeployment } from "langgoap/integrations";
import { runCli } from "langgoap/cli";
import { FakeStructuredChatModel } from "langgoap/testing";
import { InMemoryStore } from "@langchain/langgraph";

const start: WorldState = { has_axe: false };
const chop = new ActionSpec({ name: "chop", effects: { wood: true }, cost: 1 });
const names: readonly string[] | undefined = plan(start, { wood: true }, [chop])?.actionNames;
const status: SearchStatus = planDetailed(start, { wood: true }, [chop]).status;
const served: ServedGoapGraph = compileServedGraph(new GoapGraph([chop]));
const threads = new StoreThreadSaver(new InMemoryStore());
const scaffold: Promise<ScaffoldedDeployment> = scaffoldDeployment("app");
const code: Promise<number> = runCli(["--version"], { stdout: () => {}, stderr: () => {} });
const error: string = new LangGoapError("INVALID_OPTION", "x").code;
void [names, status, served, threads, scaffold, code, error, FakeStructuredChatModel];

// @ts-expect-error a cost is a number or a function
new ActionSpec({ name: "bad", cost: "high" });
// @ts-expect-error plan returns a Plan or null
const wrong: number = plan({}, { a: true }, []);
void wrong;
`,
    );
    // The @ts-expect-error lines fail the check if the types were missing or \`any\` (an unused one is an error).
    await sh(process.execPath, [TSC, "-p", "tsconfig.json"], project);
  }, 120_000);

  it("runs the installed langgoap command, whose help names files that are shipped", { timeout: 60_000 }, async () => {
    const bin = join(project, "node_modules/.bin/langgoap");
    expect((await sh(bin, ["--version"], project)).stdout).toBe(`${own.version}\n`);
    const help = (await sh(bin, ["--help"], project)).stdout;
    const paths = [...new Set([...help.matchAll(/(\S*examples\/domains\/[\w-]+\.(?:yaml|json))/g)].map((m) => m[1] as string))];
    expect(paths).toContain("node_modules/langgoap/examples/domains/village.yaml");
    for (const path of paths) expect(existsSync(resolve(project, path)), path).toBe(true);
    const planned = await sh(bin, ["plan", "node_modules/langgoap/examples/domains/village.yaml", "--format", "json"], project);
    expect((JSON.parse(planned.stdout) as { status: string }).status).toBe("found");
  });

  it("ships its sources and LICENSE: every source map resolves, stack traces name files that exist", { timeout: 60_000 }, async () => {
    expect(readFileSync(join(installed(), "LICENSE"), "utf8")).toMatch(/^MIT License/);
    const maps = filesUnder(join(installed(), "dist")).filter((f) => f.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(100);
    for (const map of maps) {
      for (const source of (JSON.parse(readFileSync(map, "utf8")) as { sources: string[] }).sources) {
        expect(existsSync(resolve(dirname(map), source)), `${relative(installed(), map)} -> ${source}`).toBe(true);
      }
    }
    await writeFile(
      join(project, "trace.mjs"),
      `import { ActionSpec } from "langgoap";\ntry { new ActionSpec({ name: "x", cost: -1 }); } catch (e) { console.log(e.stack); }\n`,
    );
    const stack = await node("trace.mjs", ["--enable-source-maps"]);
    const frames = [...stack.matchAll(/\((\/[^():]+\.ts):\d+:\d+\)/g)].map((m) => m[1] as string);
    expect(frames.length).toBeGreaterThan(0);
    for (const file of frames) expect(existsSync(file), file).toBe(true);
    expect(frames[0]).toBe(join(installed(), "src/core/action.ts"));
  });

  it("declares caret ranges for its runtime dependencies and no side effects", async () => {
    const pkg = JSON.parse(await readFile(join(installed(), "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      sideEffects: unknown;
    };
    for (const [name, range] of Object.entries(pkg.dependencies)) expect(range, name).toMatch(/^(\^|>=)/);
    expect(pkg.sideEffects).toBe(false);
  });

  it("bundles ActionSpec + plan from the installed root for the browser under 116 KB, without zod or yaml", {
    timeout: 60_000,
  }, async () => {
    const result = await build({
      stdin: {
        contents:
          'import { ActionSpec, plan } from "langgoap";\nexport const found = plan({}, { a: true }, [new ActionSpec({ name: "x", effects: { a: true } })]);',
        resolveDir: project,
        sourcefile: "game.js",
      },
      bundle: true,
      minify: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const output = Object.values((result.metafile as Metafile).outputs)[0] as Metafile["outputs"][string];
    const packages = new Set(
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? "(entry)"),
    );
    expect([...packages].sort()).toEqual(["(entry)", "langgoap"]);
    // The same guard as test/package/browser-bundle.test.ts (a layer leaking in, not a diet): ~101 KB with the
    // successor generator and load-adapted slices, ~104 KB with blind search's bucket list and one-word scan.
    expect(output.bytes).toBeLessThan(116 * 1024);
    expect(result.outputFiles?.[0]?.text).not.toContain("node:");
  });

  it("bundles ActionSpec, plan and GoapGraph from the installed root for the browser: every module resolved, nothing external", {
    timeout: 60_000,
  }, async () => {
    // Through the package's exports and its installed peers (LangGraph's "browser" condition), as an app's bundler sees them;
    // test/package/root-bundle.browser.test.ts runs the same import in Chromium.
    const result = await build({
      stdin: {
        contents:
          'import { ActionSpec, GoapGraph, plan } from "langgoap";\nconst actions = [new ActionSpec({ name: "x", effects: { a: true } })];\nexport const found = plan({}, { a: true }, actions);\nexport const graph = new GoapGraph(actions).compile();',
        resolveDir: project,
        sourcefile: "app.js",
      },
      bundle: true,
      minify: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const output = Object.values((result.metafile as Metafile).outputs)[0] as Metafile["outputs"][string];
    expect(output.imports.filter((i) => i.external).map((i) => i.path)).toEqual([]);
    // ~1.6 MB: LangGraph.js, LangChain core, LangSmith and zod are most of it; a guard against a layer (solvers' WASM, the server) leaking in.
    expect(output.bytes).toBeLessThan(2 * 1024 * 1024);
  });
});

describe.runIf(REQUIRED)("a project scaffolded by the installed langgoap deploy-init", () => {
  let app: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    const bin = join(project, "node_modules/.bin/langgoap");
    await sh(bin, ["deploy-init", "news-agent", "--langgoap", `file:${tarball}`], project);
    app = join(project, "news-agent");
    await npmInstall(app);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it("type-checks with its own TypeScript", async () => {
    await sh("npm", ["run", "typecheck", "--silent"], app);
  }, 120_000);

  it("is served by its own LangGraph API server: schemas, goal, replan, approval and history through the SDK", async () => {
    const gitignore = await readFile(join(app, ".gitignore"), "utf8");
    const cli = join(app, "node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs");
    server = await startDevServer({ cli, configPath: join(app, "langgraph.json"), cwd: app });
    const client = new Client({ apiUrl: server.url });
    await checkSchemas(client, "news_agent", app);
    await checkGoalAchieved(client, "news_agent");
    await checkReplanStream(client, "news_agent");
    await checkApprovalAndHistory(client, "news_agent");
    await server.stop();
    expect(await readFile(join(app, ".gitignore"), "utf8")).toBe(gitignore);
  }, 180_000);

  describe.runIf(WITH_POSTGRES)("self-hosted on PostgreSQL", () => {
    let postgres: PostgresServer | undefined;
    const schema = uniqueSchema("langgoap_selfhost");
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      postgres = await usePostgres();
    }, 120_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      if (postgres) {
        await dropSchema(postgres.url, schema);
        await postgres.stop();
      }
    }, 60_000);

    async function selfHosted(): Promise<ServerProcess> {
      const started = await startServerProcess({
        args: [join(app, "node_modules/tsx/dist/cli.mjs"), "src/server.ts"],
        cwd: app,
        // The scaffolded server prints `news_agent: listening on http://HOST:PORT` with the port it bound.
        ready: /listening on http:\/\/([^\s/]+:\d+)/,
        env: { DATABASE_URL: (postgres as PostgresServer).url, DATABASE_SCHEMA: schema, PORT: "0" },
      });
      servers.push(started);
      return started;
    }

    it("pauses a run for approval on one server process and finishes it on another", async () => {
      const first = await selfHosted();
      const second = await selfHosted();
      const a = new Client({ apiUrl: first.url });
      const b = new Client({ apiUrl: second.url });

      const thread = await a.threads.create();
      const interrupts: unknown[] = [];
      for await (const chunk of a.runs.stream(thread.thread_id, "news_agent", {
        input: { goal: { newsletter_sent: true }, worldState: { topic: "GOAP" } },
        streamMode: "updates",
      })) {
        if (chunk.event === "error") throw new Error(JSON.stringify(chunk.data));
        const data = chunk.data as { __interrupt__?: { value: unknown }[] };
        if (chunk.event === "updates" && data.__interrupt__) interrupts.push(...data.__interrupt__.map((i) => i.value));
      }
      expect(interrupts).toMatchObject([{ type: "goap_action_approval", action: "send_newsletter" }]);
      await first.stop(); // the first process is gone: only the database remembers the run

      expect((await b.threads.getState(thread.thread_id)).next).toEqual(["executor"]);
      let runId: string | undefined;
      for await (const chunk of b.runs.stream(thread.thread_id, "news_agent", { command: { resume: true }, streamMode: "values" })) {
        if (chunk.event === "error") throw new Error(JSON.stringify(chunk.data));
        if (chunk.event === "metadata") runId = (chunk.data as { run_id: string }).run_id;
      }
      const state = await b.threads.getState<{ status: string; executionHistory: { actionName: string }[] }>(thread.thread_id);
      expect(state.values.status).toBe("goal_achieved");
      expect(state.values.executionHistory.map((r) => r.actionName)).toEqual(["research", "write_fast", "publish", "send_newsletter"]);
      // Oldest first: the input, the planner, three steps going straight on, the step announcing the question (observed),
      // the approved step (observed: the goal holds) and the end. Both server processes wrote to this one history.
      const history = await b.threads.getHistory(thread.thread_id, { limit: 100 });
      expect(history.map((c) => c.next.join("|")).reverse()).toEqual([
        "__start__",
        "planner",
        "executor",
        "executor",
        "executor",
        "executor",
        "observer",
        "executor",
        "observer",
        "",
      ]);

      // The finished run's execution record is in the shared PostgresStore, under this thread and the resuming run.
      const store = PostgresStore.fromConnString((postgres as PostgresServer).url, { schema });
      try {
        const records = await new StoreExecutionHistory(store).queryByThread(thread.thread_id);
        expect(records).toMatchObject([{ status: "goal_achieved", threadId: thread.thread_id, runId }]);
      } finally {
        await store.stop();
      }
    }, 180_000);
  });
});
