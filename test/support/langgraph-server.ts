/**
 * Starts and stops real server processes for the deployment tests: the
 * LangGraph API dev server (`langgraphjs dev` from `@langchain/langgraph-cli`)
 * and any other Node entry (a scaffolded project's self-hosted server). Each
 * runs in its own process group, listens on port 0 (the system picks a free
 * port as it binds: no port is chosen first and bound later, when another
 * process may have taken it) and is ready when it prints the address it
 * bound; it is stopped by its pid, and its output is kept for the failure
 * message.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** A server process started by a test. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything the process printed so far. */
  output(): string;
  /** Stops the process group by the pid (SIGTERM, then SIGKILL after 10 s). */
  stop(): Promise<void>;
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
 * variables, plus `env`) and resolves once it prints the address it listens
 * on: `ready`'s first group is its `host:port`. Rejects with the process
 * output when it exits first. How long a start may take is the calling
 * test's (or hook's) time limit.
 */
export async function startServerProcess(options: {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly ready: RegExp;
  readonly env?: Readonly<Record<string, string>>;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...options.args], {
    cwd: options.cwd,
    env: { ...withoutNpmVariables(), ...QUIET_ENV, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
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
  const address = await new Promise<string>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      log += chunk.toString();
      const match = options.ready.exec(log);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("error", reject);
    child.once("exit", (code, signal) => reject(new Error(`server process exited (${code ?? signal}) before it was ready:\n${log}`)));
  });
  return { url: `http://${address}`, pid, output: () => log, stop };
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
}): Promise<ServerProcess> {
  return startServerProcess({
    args: [options.cli, "dev", "--port", "0", "--host", "127.0.0.1", "--no-browser", "--no-reload", "--config", options.configPath],
    cwd: options.cwd,
    // The API server logs the address it bound (`Server running at 127.0.0.1:PORT`).
    ready: /Server running at (127\.0\.0\.1:\d+)/,
  });
}
