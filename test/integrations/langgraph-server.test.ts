/**
 * The repository's langgraph.json served for real: `langgraphjs dev` from
 * the project's own `@langchain/langgraph-cli`, on a loopback port, driven
 * through `@langchain/langgraph-sdk`. The server runs from a temporary copy
 * of langgraph.json (graph paths pointed back at this repository), so its
 * files (.gitignore, .langgraph_api/) land there and no tracked file
 * changes.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startDevServer } from "../support/langgraph-server.js";
import { checkChatTurns } from "../support/served-chat.js";
import {
  checkApprovalAndHistory,
  checkGoalAchieved,
  checkReplanStream,
  checkRunsOnOneThread,
  checkSchemas,
} from "../support/served-scenario.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs");
const GRAPH_ID = "langgoap_publishing";
const CHAT_GRAPH_ID = "langgoap_chat";

/** Tracked files' state, when this is a git checkout (a tarball of the sources has none). */
function trackedChanges(): string | undefined {
  if (!existsSync(join(ROOT, ".git"))) return undefined;
  try {
    return execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT, encoding: "utf8" });
  } catch {
    return undefined;
  }
}

let work: string;
let server: ServerProcess | undefined;
let client: Client;
let trackedBefore: string | undefined;

beforeAll(async () => {
  trackedBefore = trackedChanges();
  work = await mkdtemp(join(tmpdir(), "langgoap-server-"));
  const config = JSON.parse(readFileSync(join(ROOT, "langgraph.json"), "utf8")) as { graphs: Record<string, string> };
  const graphs = Object.fromEntries(
    Object.entries(config.graphs).map(([id, spec]) => {
      const [file, name] = spec.split(":") as [string, string];
      return [id, `./${relative(work, join(ROOT, file))}:${name}`];
    }),
  );
  const configPath = join(work, "langgraph.json");
  await writeFile(configPath, JSON.stringify({ ...config, graphs }, null, 2));
  server = await startDevServer({ cli: CLI, configPath, cwd: dirname(configPath) });
  client = new Client({ apiUrl: server.url });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
}, 60_000);

describe("the LangGraph API server serving langgraph.json", () => {
  it("answers the schema request with the run's input and output at once, naming no source file", async () => {
    await checkSchemas(client, GRAPH_ID, ROOT);
  });

  it("runs the publishing graph to goal_achieved and records the run in its store", async () => {
    await checkGoalAchieved(client, GRAPH_ID);
  });

  it("streams updates of a run that replans around a failing writer", async () => {
    await checkReplanStream(client, GRAPH_ID);
  });

  it("pauses at a human approval, resumes it, and serves the thread's history", async () => {
    await checkApprovalAndHistory(client, GRAPH_ID);
  });

  it("chats with the chat agent on one thread: replies stream in streamMode messages, the world carries over, an approval resumes", async () => {
    await checkChatTurns(client, CHAT_GRAPH_ID);
  });

  it("runs twice on one thread: the second run starts fresh, both are recorded; a paused thread refuses a new input", async () => {
    await checkRunsOnOneThread(client, GRAPH_ID);
  });

  it("stops by its pid and leaves tracked files untouched", async () => {
    await server?.stop();
    // Gone by its pid (its loopback port may already serve another test's stub: ports are reused).
    expect(() => process.kill(server?.pid as number, 0)).toThrow();
    expect(existsSync(join(work, ".gitignore"))).toBe(true); // the CLI's own edit went to the temporary project
    expect(trackedChanges()).toBe(trackedBefore);
  });
});
