import type { MilpModel } from "./model.js";

/**
 * How a solve ended. `optimal`: optimality proved. `feasible`: a verified
 * solution, not proved optimal (a limit stopped the search). `infeasible`:
 * proved to have no solution. `timeout`: the time limit ran out before any
 * solution. `error`: anything else (unbounded model, solver failure, or an
 * answer that failed verification), explained in `message`.
 */
export type MilpStatus = "optimal" | "feasible" | "infeasible" | "timeout" | "error";

/** Options of one {@link MilpSolver.solve} call. */
export interface MilpSolveOptions {
  /** Wall-clock limit of the solve. @defaultValue the solver's own limit (10 000 ms unless configured) */
  readonly timeLimitMs?: number;
  /**
   * A known solution, by variable name, offered as a warm start. Back-ends
   * that cannot use one ignore it.
   */
  readonly initialSolution?: Readonly<Record<string, number>>;
}

/** The answer of a solver. */
export interface MilpResult {
  readonly status: MilpStatus;
  /**
   * Every variable's value by name when `status` is `optimal` or `feasible`
   * (integer variables are exact integers); empty otherwise.
   */
  readonly values: Readonly<Record<string, number>>;
  /** The objective at `values` (including the constant), or `null` without a solution. */
  readonly objective: number | null;
  /** Back-end name. */
  readonly solver: string;
  readonly solveTimeMs: number;
  /** Why the status is not `optimal`, in words. */
  readonly message?: string;
}

/**
 * A MILP back-end. `solve` never throws for solver-side trouble (that is
 * status `error`); it is always bounded by a time limit.
 *
 * @example
 * ```ts
 * const solver: MilpSolver = createSolver("javascript-lp-solver", { timeLimitMs: 2000 });
 * const { status, values } = await solver.solve(model);
 * ```
 */
export interface MilpSolver {
  /** `highs`, `javascript-lp-solver`, or a custom name. */
  readonly name: string;
  solve(model: MilpModel, options?: MilpSolveOptions): Promise<MilpResult>;
}

/** The built-in back-ends. */
export type SolverName = "highs" | "javascript-lp-solver";

/** A back-end by name, or any object implementing {@link MilpSolver}. */
export type SolverChoice = SolverName | MilpSolver;

/** Per-solve time limit used when nobody says otherwise. */
export const DEFAULT_TIME_LIMIT_MS = 10_000;
