import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { jsLpWorker } from "./jslp-worker.js";
import type { MilpModel } from "./model.js";
import { failedResult, resolveTimeLimit, verifiedResult } from "./solver-result.js";
import { DEFAULT_TIME_LIMIT_MS, type MilpResult, type MilpSolveOptions, type MilpSolver } from "./solver-types.js";

// Same NodeNext typing workaround as for highs: the package's single default
// export is read as CommonJS by the type-checker, while Node loads its .mjs.
type JsLp = typeof import("javascript-lp-solver") extends { default: infer D } ? D : never;

let loading: Promise<JsLp> | undefined;

/**
 * The solver's module, imported on the first in-process solve (`isolate:
 * false`, as in a browser): 53 KB minified that an app whose pipeline uses
 * HiGHS, or solves in a worker, never loads (a chunk of its own where the
 * bundler splits dynamic imports). A failed load is tried again next time.
 */
function loadJsLp(): Promise<JsLp> {
  loading ??= import("javascript-lp-solver").then(
    (module) => ((module as unknown as { default?: JsLp }).default ?? module) as unknown as JsLp,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

interface JsLpBound {
  min?: number;
  max?: number;
  equal?: number;
}

interface JsLpModel {
  optimize: string;
  opType: "min" | "max";
  constraints: Record<string, JsLpBound>;
  variables: Record<string, Record<string, number>>;
  ints: Record<string, 1>;
  binaries: Record<string, 1>;
  options: { timeout: number };
}

interface JsLpAnswer {
  feasible?: boolean;
  bounded?: boolean;
  [variable: string]: unknown;
}

/** Options of {@link JsLpSolver}. */
export interface JsLpSolverOptions {
  /** Default time limit of each solve; javascript-lp-solver always runs with one. @defaultValue 10 000 */
  readonly timeLimitMs?: number;
  /**
   * Solve in a worker thread that is stopped when the solver overruns its
   * time limit (it only checks it between branch-and-bound nodes). `false`
   * solves on the calling thread, where an overrun cannot be interrupted.
   * @defaultValue true
   */
  readonly isolate?: boolean;
}

const SOLVER = "javascript-lp-solver";
// Internal names never collide with each other: javascript-lp-solver silently
// reports a model infeasible when the objective shares a constraint's name.
const OBJECTIVE = "objective";

function bound(lower: number, upper: number): JsLpBound | null {
  if (lower === upper) return { equal: lower };
  const b: JsLpBound = {};
  if (Number.isFinite(lower)) b.min = lower;
  if (Number.isFinite(upper)) b.max = upper;
  return b.min === undefined && b.max === undefined ? null : b;
}

/** How one model variable is represented: `offset + Σ sign · part`. */
interface Encoding {
  readonly offset: number;
  readonly parts: readonly (readonly [id: string, sign: 1 | -1])[];
}

/** A power of two near the largest coefficient of a row (1 for an empty row). */
function rowScale(terms: readonly { readonly coefficient: number }[]): number {
  const largest = terms.reduce((m, t) => Math.max(m, Math.abs(t.coefficient)), 0);
  return largest > 0 ? 2 ** Math.round(Math.log2(largest)) : 1;
}

/**
 * Translates the neutral model. javascript-lp-solver mishandles integer
 * variables declared `unrestricted` (it returned 1 where -3 was optimal in
 * our tests), so every variable is rewritten over non-negative parts: a
 * finite lower bound L is shifted out (x = L + x', x' >= 0, constants move
 * to the right-hand sides and the objective), and a variable without a lower
 * bound is split as x = p - n. Rows are `r<i>`, bound rows `b<j>`.
 */
function toJsLp(model: MilpModel, timeout: number): { jsModel: JsLpModel; encodings: Encoding[] } {
  const jsModel: JsLpModel = {
    optimize: OBJECTIVE,
    opType: model.objective.sense === "maximize" ? "max" : "min",
    constraints: {},
    variables: {},
    ints: {},
    binaries: {},
    options: { timeout },
  };
  const encodings: Encoding[] = model.variables.map((v, j) => {
    const free = v.lower === Number.NEGATIVE_INFINITY;
    const offset = free ? 0 : v.lower;
    const parts: [string, 1 | -1][] = free
      ? [
          [`p${j}`, 1],
          [`n${j}`, -1],
        ]
      : [[`v${j}`, 1]];
    for (const [id] of parts) {
      jsModel.variables[id] = {};
      if (v.integer && !free && v.upper - offset === 1) jsModel.binaries[id] = 1;
      else if (v.integer) jsModel.ints[id] = 1;
    }
    const upper = v.upper - offset;
    if (Number.isFinite(upper) && !jsModel.binaries[`v${j}`]) {
      jsModel.constraints[`b${j}`] = upper === 0 && !free ? { equal: 0 } : { max: upper };
      for (const [id, sign] of parts) (jsModel.variables[id] as Record<string, number>)[`b${j}`] = sign;
    }
    return { offset, parts };
  });
  const add = (j: number, row: string, coefficient: number) => {
    if (coefficient === 0) return;
    for (const [id, sign] of (encodings[j] as Encoding).parts) (jsModel.variables[id] as Record<string, number>)[row] = sign * coefficient;
  };
  // The objective's constant shift does not change the argmin; the result's
  // objective is recomputed from the original model. Rows and the objective
  // are divided by a power of two near their largest coefficient (exact in
  // floating point): javascript-lp-solver's tolerances are absolute.
  const objectiveScale = rowScale(model.objective.terms);
  for (const t of model.objective.terms) add(t.variable, OBJECTIVE, t.coefficient / objectiveScale);
  model.constraints.forEach((c, i) => {
    const scale = rowScale(c.terms);
    const shift = c.terms.reduce((sum, t) => sum + t.coefficient * (encodings[t.variable] as Encoding).offset, 0);
    const b = bound((c.lower - shift) / scale, (c.upper - shift) / scale);
    if (!b) return;
    jsModel.constraints[`r${i}`] = b;
    for (const t of c.terms) add(t.variable, `r${i}`, t.coefficient / scale);
  });
  return { jsModel, encodings };
}

const JS_LP_SOLVER_OPTIONS_KEYS = { timeLimitMs: true, isolate: true } as const satisfies OptionKeys<JsLpSolverOptions>;

const MILP_SOLVE_OPTIONS_KEYS = { timeLimitMs: true, initialSolution: true } as const satisfies OptionKeys<MilpSolveOptions>;

/**
 * The javascript-lp-solver back-end: pure JavaScript, no WebAssembly. Always
 * run with a timeout, in a worker thread that is stopped if the solver
 * overruns it. Its known failure modes are guarded: variables it
 * leaves out of the answer are zeros; the garbage values it returns for an
 * infeasible model are dropped; and after a timeout it may return its LP
 * relaxation as "feasible", which verification turns into status `error`
 * (a fractional integer variable is never reported as a solution).
 *
 * @example
 * ```ts
 * const result = await new JsLpSolver({ timeLimitMs: 2000 }).solve(model);
 * ```
 */
export class JsLpSolver implements MilpSolver {
  readonly name = SOLVER;
  readonly #timeLimitMs: number;

  readonly #isolate: boolean;

  constructor(options: JsLpSolverOptions = {}) {
    checkOptionKeys(options, JS_LP_SOLVER_OPTIONS_KEYS, "new JsLpSolver()");
    this.#timeLimitMs = resolveTimeLimit(options, DEFAULT_TIME_LIMIT_MS);
    this.#isolate = options.isolate ?? true;
  }

  async solve(model: MilpModel, options: MilpSolveOptions = {}): Promise<MilpResult> {
    checkOptionKeys(options, MILP_SOLVE_OPTIONS_KEYS, "JsLpSolver.solve()");
    // Loaded before the clock starts: the first solve's time limit is the solve's alone.
    let jsLp: JsLp | undefined;
    if (!this.#isolate) {
      try {
        jsLp = await loadJsLp();
      } catch (error) {
        return failedResult(
          "error",
          SOLVER,
          performance.now(),
          `javascript-lp-solver could not be loaded: ${(error as Error)?.message ?? error}`,
        );
      }
    }
    const started = performance.now();
    const limitMs = resolveTimeLimit(options, this.#timeLimitMs);
    const translated = toJsLp(model, limitMs);
    let answer: JsLpAnswer;
    let elapsedMs: number;
    if (this.#isolate) {
      // The solver's own timeout plus a grace period; past it the worker is stopped.
      const outcome = await jsLpWorker.run(translated.jsModel, limitMs + Math.max(1000, limitMs / 10));
      if (outcome.kind === "stopped") {
        return failedResult(
          "timeout",
          SOLVER,
          started,
          `javascript-lp-solver did not stop at its time limit of ${limitMs} ms; its worker was stopped after ${Math.round(outcome.afterMs)} ms`,
        );
      }
      if (outcome.kind === "error") return failedResult("error", SOLVER, started, `javascript-lp-solver failed: ${outcome.message}`);
      answer = outcome.answer as JsLpAnswer;
      elapsedMs = outcome.elapsedMs;
    } else {
      try {
        answer = (jsLp as JsLp).Solve(translated.jsModel as Parameters<JsLp["Solve"]>[0]) as JsLpAnswer;
      } catch (error) {
        return failedResult("error", SOLVER, started, `javascript-lp-solver failed: ${(error as Error)?.message ?? error}`);
      }
      elapsedMs = performance.now() - started;
    }
    const timedOut = elapsedMs >= limitMs;
    if (answer.feasible !== true) {
      return timedOut
        ? failedResult("timeout", SOLVER, started, `time limit of ${limitMs} ms reached before any solution was found`)
        : failedResult("infeasible", SOLVER, started, "javascript-lp-solver found the model infeasible");
    }
    if (answer.bounded === false) return failedResult("error", SOLVER, started, "the objective is unbounded");
    const part = (id: string) => {
      const x = answer[id];
      return typeof x === "number" ? x : 0; // zeros are omitted from the answer
    };
    const raw = translated.encodings.map((e) => e.parts.reduce((sum, [id, sign]) => sum + sign * part(id), e.offset));
    const result = verifiedResult(
      model,
      raw,
      timedOut ? "feasible" : "optimal",
      SOLVER,
      started,
      timedOut ? `time limit of ${limitMs} ms reached; optimality not proved` : undefined,
    );
    if (result.status === "error" && timedOut) {
      return failedResult(
        "error",
        SOLVER,
        started,
        `javascript-lp-solver hit its time limit of ${limitMs} ms and returned an answer that is not a solution (${result.message})`,
      );
    }
    return result;
  }
}
