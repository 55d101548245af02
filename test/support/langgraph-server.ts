/**
 * Starts and stops real server processes for the deployment tests: the
 * LangGraph API dev server (`langgraphjs dev` from `@langchain/langgraph-cli`)
 * and any other Node entry (a scaffolded project's self-hosted server). Each
 * runs in its own process group on a free loopback port and is stopped by
 * its pid; its output is kept for the failure message.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/** A server process started by a test. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything the process printed so far. */
  output(): string;
  /** Stops the process group by the pid (SIGTERM, then SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const QUIET_ENV = {
  BROWSER: "none",
  LANGGRAPH_CLI_NO_ANALYTICS: "1",
  LANGSMITH_TRACING: "",
  LANGCHAIN_TRACING_V2: "",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
};

/** Our environment minus the `npm_*` variables of an `npm test` that started us (they would steer a child's npm). */
function withoutNpmVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", () => r()));
}

/**
 * Spawns `node ...args` in `cwd` (environment: ours without `npm_*`
 * variables, plus `env`) and waits until `GET ${url}${readyPath}` answers
 * 200. Rejects with the process output when it exits first or is
 * not ready within `timeoutMs`.
 */
export async function startServerProcess(options: {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly port: number;
  readonly readyPath: string;
  /** Ready as soon as the path answers at all (a server without a health route answers 404). @defaultValue false */
  readonly anyStatus?: boolean;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, [...options.args], {
    cwd: options.cwd,
    env: { ...withoutNpmVariables(), ...QUIET_ENV, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const pid = child.pid as number;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, 10_000);
    await exited(child);
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server process exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${log}`);
    }
    try {
      const response = await fetch(`${url}${options.readyPath}`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok || options.anyStatus) return { url, pid, output: () => log, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`server process not ready after ${options.timeoutMs ?? 120_000} ms:\n${log}`);
}

/**
 * `langgraphjs dev` for the project whose `langgraph.json` is `configPath`,
 * run with the given CLI entry (`@langchain/langgraph-cli/dist/cli/cli.mjs`).
 * No browser, no reload; the server keeps its files next to the config.
 */
export function startDevServer(options: {
  readonly cli: string;
  readonly configPath: string;
  readonly cwd: string;
  readonly port: number;
}): Promise<ServerProcess> {
  return startServerProcess({
    args: [
      options.cli,
      "dev",
      "--port",
      String(options.port),
      "--host",
      "127.0.0.1",
      "--no-browser",
      "--no-reload",
      "--config",
      options.configPath,
    ],
    cwd: options.cwd,
    port: options.port,
    readyPath: "/ok",
  });
}
