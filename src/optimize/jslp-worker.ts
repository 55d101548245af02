/**
 * @internal javascript-lp-solver in a worker thread. Its `timeout` option is
 * only checked between branch-and-bound nodes: on a large model a single
 * LP relaxation ran for more than ten minutes past a 10 s limit in our
 * benchmark. A worker can be stopped at any moment, so the time limit
 * becomes a guarantee. One worker is kept (unreferenced, so it never holds
 * the process open) and reused; requests are served one at a time; a
 * worker that had to be stopped is replaced on the next request.
 */
import type { Worker } from "node:worker_threads";
import { nodeBuiltin } from "../core/node-builtin.js";

/** What became of one isolated solve. */
export type IsolatedOutcome =
  | { readonly kind: "answer"; readonly answer: unknown; readonly elapsedMs: number }
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "stopped"; readonly afterMs: number };

interface Reply {
  readonly id: number;
  readonly answer: unknown;
  readonly error: string | null;
  readonly elapsedMs: number;
}

// Plain CommonJS so the worker needs no TypeScript loader, wherever it runs.
function workerSource(): string {
  // Not imported: the root import must bundle for the browser, where this gives NODE_ONLY.
  const entry = nodeBuiltin("node:module", "JsLpSolver")
    .createRequire(import.meta.url)
    .resolve("javascript-lp-solver");
  return `
const { parentPort } = require("node:worker_threads");
const lib = require(${JSON.stringify(entry)});
const solver = lib.default ?? lib;
parentPort.on("message", ({ id, model }) => {
  const started = performance.now();
  let answer = null;
  let error = null;
  try {
    answer = solver.Solve(model);
  } catch (e) {
    error = String((e && e.message) || e);
  }
  parentPort.postMessage({ id, answer, error, elapsedMs: performance.now() - started });
});`;
}

class JsLpWorker {
  #worker: Worker | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 1;

  /** Solves `model` in the worker; stops the worker when it runs past `hardLimitMs`. */
  run(model: object, hardLimitMs: number): Promise<IsolatedOutcome> {
    const task = this.#queue.then(() => this.#dispatch(model, hardLimitMs));
    this.#queue = task.catch(() => undefined);
    return task;
  }

  #spawn(): Worker {
    if (this.#worker) return this.#worker;
    const { Worker } = nodeBuiltin("node:worker_threads", "JsLpSolver");
    const worker = new Worker(workerSource(), { eval: true });
    worker.unref();
    worker.on("exit", () => {
      if (this.#worker === worker) this.#worker = null;
    });
    this.#worker = worker;
    return worker;
  }

  #discard(worker: Worker): void {
    if (this.#worker === worker) this.#worker = null;
    void worker.terminate();
  }

  #dispatch(model: object, hardLimitMs: number): Promise<IsolatedOutcome> {
    let worker: Worker;
    try {
      worker = this.#spawn();
    } catch (error) {
      return Promise.resolve({ kind: "error", message: `could not start a worker thread: ${(error as Error)?.message ?? error}` });
    }
    const id = this.#nextId++;
    const started = performance.now();
    return new Promise<IsolatedOutcome>((resolve) => {
      const settle = (outcome: IsolatedOutcome) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        resolve(outcome);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        settle(
          reply.error !== null
            ? { kind: "error", message: reply.error }
            : { kind: "answer", answer: reply.answer, elapsedMs: reply.elapsedMs },
        );
      };
      const onError = (error: Error) => {
        this.#discard(worker);
        settle({ kind: "error", message: `the worker failed: ${error.message}` });
      };
      // This timer is referenced, so the process waits for the answer (the worker itself is not).
      const timer = setTimeout(() => {
        this.#discard(worker);
        settle({ kind: "stopped", afterMs: performance.now() - started });
      }, hardLimitMs);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.postMessage({ id, model });
    });
  }
}

/** The shared worker. */
export const jsLpWorker = new JsLpWorker();
