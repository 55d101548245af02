import { describeValue, LangGoapError } from "../core/errors.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { HighsSolver } from "./highs-solver.js";
import { JsLpSolver } from "./jslp-solver.js";
import type { MilpSolver, SolverChoice } from "./solver-types.js";

/** Options of {@link createSolver}. */
export interface CreateSolverOptions {
  /** Default per-solve time limit. @defaultValue 10 000 */
  readonly timeLimitMs?: number;
}

const CREATE_SOLVER_OPTIONS_KEYS = { timeLimitMs: true } as const satisfies OptionKeys<CreateSolverOptions>;

/**
 * A solver by name (`highs` or `javascript-lp-solver`); a {@link MilpSolver}
 * object passes through unchanged. Without a choice: HiGHS on Node.js, and
 * where there is no Node (a browser, whose bundle cannot load HiGHS's
 * runtime) `javascript-lp-solver` in-process (`isolate: false`), so a
 * graph's default pipeline solves there too.
 *
 * @example
 * ```ts
 * const solver = createSolver("javascript-lp-solver", { timeLimitMs: 2000 });
 * const same = createSolver(solver); // passes through
 * ```
 */
export function createSolver(choice?: SolverChoice, options: CreateSolverOptions = {}): MilpSolver {
  checkOptionKeys(options, CREATE_SOLVER_OPTIONS_KEYS, "createSolver()");
  if (choice === undefined) return hasNodeBuiltins() ? new HighsSolver(options) : new JsLpSolver({ ...options, isolate: false });
  if (typeof choice === "object" && choice !== null && typeof choice.solve === "function" && typeof choice.name === "string") return choice;
  if (choice === "highs") return new HighsSolver(options);
  if (choice === "javascript-lp-solver") return new JsLpSolver(options);
  throw new LangGoapError(
    "INVALID_OPTION",
    `unknown solver ${describeValue(choice)}; expected "highs", "javascript-lp-solver" or an object with name and solve(model)`,
    { solver: choice },
  );
}

/** Whether Node's built-ins can be loaded here (what HiGHS's loader and the isolated solver need). */
function hasNodeBuiltins(): boolean {
  return typeof (globalThis as { process?: { getBuiltinModule?: unknown } }).process?.getBuiltinModule === "function";
}
