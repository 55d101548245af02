import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli, ROOT } from "./run-cli.js";

const OWN = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
};
const FILES = [
  "package.json",
  "langgraph.json",
  "tsconfig.json",
  ".gitignore",
  "README.md",
  "src/actions.ts",
  "src/graph.ts",
  "src/server.ts",
];

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "langgoap-deploy-init-"));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

const json = async (path: string) => JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;

describe("langgoap deploy-init", () => {
  it("writes a project whose langgraph.json serves the graph module, and says what to do next", async () => {
    const { code, stdout, stderr } = await cli(["deploy-init", "news-agent"], { cwd: work });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout.split("\n").slice(0, FILES.length + 1)).toEqual([
      'wrote a LangGraph API server project for graph "news_agent" to news-agent:',
      ...FILES.map((f) => `  ${f}`),
    ]);
    expect(stdout).toContain("cd news-agent\n  npm install\n  npm run dev");

    const dir = join(work, "news-agent");
    expect(await json(join(dir, "langgraph.json"))).toEqual({
      $schema: "https://langgra.ph/schema.json",
      node_version: "20",
      dependencies: ["."],
      graphs: { news_agent: "./src/graph.ts:graph" },
      env: {},
    });
    const pkg = (await json(join(dir, "package.json"))) as {
      name: string;
      type: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.name).toBe("news-agent");
    expect(pkg.type).toBe("module");
    expect(pkg.scripts).toEqual({ dev: "langgraphjs dev --no-browser", start: "tsx src/server.ts", typecheck: "tsc --noEmit" });
    expect(pkg.dependencies.langgoap).toBe(`^${OWN.version}`);
    for (const peer of ["@langchain/core", "@langchain/langgraph", "@langchain/langgraph-checkpoint-postgres"]) {
      expect(pkg.dependencies[peer]).toBe(OWN.peerDependencies[peer]);
    }
    expect(Object.keys(pkg.devDependencies)).toEqual(["@langchain/langgraph-cli", "@types/node", "typescript"]);

    const graph = await readFile(join(dir, "src/graph.ts"), "utf8");
    expect(graph).toContain('export const graph = compileServedGraph(new GoapGraph(actions), { name: "news_agent" });');
    const server = await readFile(join(dir, "src/server.ts"), "utf8");
    expect(server).toContain('graph: { "news_agent": graph } as unknown as ServedGraphs,');
    expect(server).toContain("threads: new StoreThreadSaver(store, { checkpointer })");
    expect(server).toContain("const fleet = new FleetWorker({");
    expect(server).toContain('app.post("/fleet/runs"');
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toContain(".langgraph_api/");
    expect(await readFile(join(dir, "README.md"), "utf8")).toContain('client.runs.wait(thread.thread_id, "news_agent"');
  });

  it("takes a graph id and a langgoap version (a tarball for local builds)", async () => {
    const { code } = await cli(["deploy-init", "svc", "--graph-id", "publisher", "--langgoap", "file:../langgoap-0.1.0.tgz"], {
      cwd: work,
    });
    expect(code).toBe(0);
    expect(((await json(join(work, "svc/langgraph.json"))) as { graphs: unknown }).graphs).toEqual({ publisher: "./src/graph.ts:graph" });
    expect(((await json(join(work, "svc/package.json"))) as { dependencies: Record<string, string> }).dependencies.langgoap).toBe(
      "file:../langgoap-0.1.0.tgz",
    );
  });

  it("never overwrites a file unless --force is given", async () => {
    expect((await cli(["deploy-init", "app"], { cwd: work })).code).toBe(0);
    await writeFile(join(work, "app/src/actions.ts"), "// my actions\n");
    const refused = await cli(["deploy-init", "app"], { cwd: work });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `langgoap: error: ${join(work, "app/package.json")} already exists; choose an empty folder or overwrite with --force\n`,
    );
    expect(await readFile(join(work, "app/src/actions.ts"), "utf8")).toBe("// my actions\n");

    expect((await cli(["deploy-init", "app", "--force"], { cwd: work })).code).toBe(0);
    expect(await readFile(join(work, "app/src/actions.ts"), "utf8")).toContain('name: "send_newsletter"');
  });

  it("rejects a missing folder, extra arguments and a bad graph id with exit code 2", async () => {
    const missing = await cli(["deploy-init"], { cwd: work });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'langgoap: error: deploy-init: missing <dir> (the folder to write the project into)\nRun "langgoap deploy-init --help" for usage.\n',
    );
    expect((await cli(["deploy-init", "a", "b"], { cwd: work })).stderr).toContain("deploy-init: expected one <dir>, got 2: a b");
    const bad = await cli(["deploy-init", "app", "--graph-id", "my agent!"], { cwd: work });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'graph id must start with a letter or _ and hold only letters, digits, _ and - (at most 64), got "my agent!"',
    );
  });

  it("derives a valid graph id and package name from any folder name", async () => {
    expect((await cli(["deploy-init", "2 Fast Agents"], { cwd: work })).stdout).toContain(
      "wrote a LangGraph API server project for graph \"goap_2_Fast_Agents\" to '2 Fast Agents':",
    );
    expect(((await json(join(work, "2 Fast Agents/package.json"))) as { name: string }).name).toBe("2-fast-agents");
  });

  it("documents itself in --help", async () => {
    const { code, stdout } = await cli(["deploy-init", "--help"], { cwd: work });
    expect(code).toBe(0);
    expect(
      stdout.startsWith("Write a project that serves your actions with the LangGraph API server.\n\nUsage:\n  langgoap deploy-init <dir>"),
    ).toBe(true);
    for (const option of ["--graph-id <id>", "--langgoap <version>", "--force"]) expect(stdout).toContain(option);
    expect(stdout).not.toContain("Domain:");
  });
});
