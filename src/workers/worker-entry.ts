/**
 * @internal Where the pool's worker threads start. From `dist` the entry is
 * the compiled `plan-worker.js`. From `src` (tests, benchmarks, `tsx`) it is
 * `plan-worker.ts`, which a worker thread can only load through a
 * TypeScript loader: tsx's, which is added to the worker's `execArgv`
 * unless the process already runs under it (then workers inherit it).
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

export interface WorkerEntry {
  readonly filename: string;
  /** Undefined: inherit the process's `execArgv`. */
  readonly execArgv: string[] | undefined;
}

export function workerEntry(): WorkerEntry {
  const fromSource = import.meta.url.endsWith(".ts");
  const filename = new URL(`./plan-worker.${fromSource ? "ts" : "js"}`, import.meta.url).href;
  if (!fromSource || process.execArgv.some((arg) => arg.includes("tsx"))) return { filename, execArgv: undefined };
  const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return { filename, execArgv: [...process.execArgv, "--import", loader] };
}
