import { describeValue, LangGoapError } from "../core/errors.js";
import { nodeBuiltin } from "../core/node-builtin.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { MilpModel } from "./model.js";
import { failedResult, resolveTimeLimit, verifiedResult } from "./solver-result.js";
import { DEFAULT_TIME_LIMIT_MS, type MilpResult, type MilpSolveOptions, type MilpSolver } from "./solver-types.js";

// The package ships one `export default` d.ts without "type": "module", which
// NodeNext reads as CommonJS (TS2349 on the call); the cast below keeps the
// type-checker happy.
type LoadHighs = typeof import("highs") extends { default: infer D } ? D : never;
type Highs = Awaited<ReturnType<LoadHighs>>;

/**
 * The package's loader, required on first use rather than imported: its
 * ES build imports `node:module`, which would stop the root import from
 * bundling for the browser (there this gives NODE_ONLY).
 */
function loadHighs(): ReturnType<LoadHighs> {
  const highsModule = nodeBuiltin("node:module", "HighsSolver").createRequire(import.meta.url)("highs") as { default?: LoadHighs };
  return (highsModule.default ?? (highsModule as unknown as LoadHighs))();
}

let runtime: Promise<Highs> | undefined;

/** Loads the WASM runtime once per process; a failed load is retried next time. */
function highsRuntime(): Promise<Highs> {
  runtime ??= Promise.resolve()
    .then(loadHighs)
    .catch((error: unknown) => {
      runtime = undefined;
      throw error;
    });
  return runtime;
}

/** Options of {@link HighsSolver}. */
export interface HighsSolverOptions {
  /** Default time limit of each solve. @defaultValue 10 000 */
  readonly timeLimitMs?: number;
  /**
   * Relative MIP gap at which HiGHS stops. Tiny by default because
   * lexicographic optimisation fixes each level at its optimum, and a 1e-4
   * gap (HiGHS's default) could let a worse plan through. @defaultValue 1e-9
   */
  readonly relativeGap?: number;
}

const SOLVER = "highs";

const HIGHS_SOLVER_OPTIONS_KEYS = { timeLimitMs: true, relativeGap: true } as const satisfies OptionKeys<HighsSolverOptions>;

const MILP_SOLVE_OPTIONS_KEYS = { timeLimitMs: true, initialSolution: true } as const satisfies OptionKeys<MilpSolveOptions>;

/**
 * The HiGHS back-end (WebAssembly): the default, and the only bundled solver
 * that proves optimality on hard models. The runtime loads once and is
 * reused. `solve` is synchronous inside (it blocks the event loop for the
 * duration of the solve), so every call carries a time limit.
 *
 * @example
 * ```ts
 * const highs = new HighsSolver({ timeLimitMs: 5000 });
 * const result = await highs.solve(model);
 * if (result.status === "optimal") console.log(result.objective);
 * ```
 */
export class HighsSolver implements MilpSolver {
  readonly name = SOLVER;
  readonly #timeLimitMs: number;
  readonly #relativeGap: number;

  constructor(options: HighsSolverOptions = {}) {
    checkOptionKeys(options, HIGHS_SOLVER_OPTIONS_KEYS, "new HighsSolver()");
    this.#timeLimitMs = resolveTimeLimit(options, DEFAULT_TIME_LIMIT_MS);
    const gap = options.relativeGap ?? 1e-9;
    if (typeof gap !== "number" || !(gap >= 0) || !Number.isFinite(gap)) {
      throw new LangGoapError("INVALID_OPTION", `HighsSolver relativeGap must be a finite number >= 0, got ${describeValue(gap)}`);
    }
    this.#relativeGap = gap;
  }

  async solve(model: MilpModel, options: MilpSolveOptions = {}): Promise<MilpResult> {
    checkOptionKeys(options, MILP_SOLVE_OPTIONS_KEYS, "HighsSolver.solve()");
    const limitMs = resolveTimeLimit(options, this.#timeLimitMs);
    if (model.variables.length === 0) return solveEmpty(model, performance.now());
    let highs: Highs;
    try {
      highs = await highsRuntime();
    } catch (error) {
      return failedResult(
        "error",
        SOLVER,
        performance.now(),
        `could not load the HiGHS WebAssembly runtime: ${(error as Error)?.message ?? error}`,
      );
    }
    // Timed from here: the one-off WebAssembly load is not part of any solve.
    const started = performance.now();
    try {
      return this.#run(highs, model, limitMs, options, started);
    } catch (error) {
      return failedResult("error", SOLVER, started, `HiGHS failed: ${(error as Error)?.message ?? error}`);
    }
  }

  #run(highs: Highs, model: MilpModel, limitMs: number, options: MilpSolveOptions, started: number): MilpResult {
    const status = highs.constants.modelStatus;
    const instance = highs.createModel(toHighsData(highs, model));
    try {
      instance.options.set({
        output_flag: false,
        time_limit: limitMs / 1000,
        mip_rel_gap: this.#relativeGap,
        mip_abs_gap: 1e-9,
      });
      if (options.initialSolution) offerStart(instance, model, options.initialSolution);
      const code = instance.run().modelStatus;
      const hasSolution = Number(instance.info.get("primal_solution_status")) === 2;
      const values = () => instance.getSolution().colValue;
      if (code === status.optimal) return verifiedResult(model, values(), "optimal", SOLVER, started);
      if (code === status.infeasible) return failedResult("infeasible", SOLVER, started, "HiGHS proved the model infeasible");
      if (code === status.unbounded) return failedResult("error", SOLVER, started, "the objective is unbounded");
      if (code === status.unboundedOrInfeasible) return this.#disambiguate(highs, model, limitMs, started);
      if (hasSolution && code !== status.notSet) {
        const gap = Number(instance.info.get("mip_gap"));
        const why = code === status.timeLimit ? `time limit of ${limitMs} ms reached` : `HiGHS stopped early (model status ${code})`;
        return verifiedResult(
          model,
          values(),
          "feasible",
          SOLVER,
          started,
          `${why}; best solution kept, optimality not proved (gap ${gap})`,
        );
      }
      if (code === status.timeLimit) {
        return failedResult("timeout", SOLVER, started, `time limit of ${limitMs} ms reached before any solution was found`);
      }
      return failedResult("error", SOLVER, started, `HiGHS ended with model status ${code}`);
    } finally {
      instance.dispose();
    }
  }

  /** Presolve sometimes cannot tell infeasible from unbounded; a zero objective decides. */
  #disambiguate(highs: Highs, model: MilpModel, limitMs: number, started: number): MilpResult {
    const remaining = Math.max(1, limitMs - (performance.now() - started));
    const probe = highs.createModel(toHighsData(highs, { ...model, objective: { sense: "minimize", terms: [], constant: 0 } }));
    try {
      probe.options.set({ output_flag: false, time_limit: remaining / 1000 });
      const code = probe.run().modelStatus;
      if (code === highs.constants.modelStatus.infeasible)
        return failedResult("infeasible", SOLVER, started, "HiGHS proved the model infeasible");
      if (code === highs.constants.modelStatus.optimal) return failedResult("error", SOLVER, started, "the objective is unbounded");
      return failedResult("error", SOLVER, started, "HiGHS could not tell whether the model is infeasible or unbounded");
    } finally {
      probe.dispose();
    }
  }
}

/** A model without variables: feasible iff every (empty) row admits 0. */
function solveEmpty(model: MilpModel, started: number): MilpResult {
  const broken = model.constraints.find((c) => c.lower > 0 || c.upper < 0);
  if (broken) return failedResult("infeasible", SOLVER, started, `constraint "${broken.name}" cannot hold: it has no variables`);
  return verifiedResult(model, [], "optimal", SOLVER, started);
}

function toHighsData(highs: Highs, model: MilpModel) {
  const n = model.variables.length;
  const colCost = new Float64Array(n);
  for (const t of model.objective.terms) colCost[t.variable] = t.coefficient;
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (const c of model.constraints) {
    for (const t of c.terms) {
      indices.push(t.variable);
      values.push(t.coefficient);
    }
    starts.push(indices.length);
  }
  const { variableType, objectiveSense } = highs.constants;
  return {
    numCols: n,
    numRows: model.constraints.length,
    sense: model.objective.sense === "maximize" ? objectiveSense.maximize : objectiveSense.minimize,
    offset: model.objective.constant,
    colCost,
    colLower: model.variables.map((v) => v.lower),
    colUpper: model.variables.map((v) => v.upper),
    rowLower: model.constraints.map((c) => c.lower),
    rowUpper: model.constraints.map((c) => c.upper),
    matrix: { format: "csr" as const, numRows: model.constraints.length, numCols: n, starts, indices, values },
    integrality: model.variables.map((v) => (v.integer ? variableType.integer : variableType.continuous)),
  };
}

/** Offers a warm start; HiGHS checks it itself, and a rejected start is simply not used. */
function offerStart(
  instance: { setSolution(s: { indices: number[]; values: number[] }): unknown },
  model: MilpModel,
  start: Readonly<Record<string, number>>,
): void {
  const indices: number[] = [];
  const values: number[] = [];
  model.variables.forEach((v, j) => {
    const x = start[v.name];
    if (typeof x === "number" && Number.isFinite(x)) {
      indices.push(j);
      values.push(x);
    }
  });
  if (indices.length === 0) return;
  try {
    instance.setSolution({ indices, values });
  } catch {
    // A start HiGHS cannot use only costs the warm start, never the solve.
  }
}
