import { describeValue, LangGoapError } from "../core/errors.js";
import { groupDigits } from "../core/group-digits.js";

/**
 * Time budget of a search when none is given: 10 seconds. A safety net
 * against searches that can never finish (an unsolvable numeric goal has
 * infinitely many states); pass `timeBudgetMs: Infinity` to lift it.
 */
export const DEFAULT_TIME_BUDGET_MS = 10_000;

/**
 * Node budget of a search when none is given: at most 1,000,000 states held
 * in memory, and fewer when states are wide, so that the search's arrays
 * stay within {@link DEFAULT_SEARCH_MEMORY_BYTES} (a state of `w` slots is
 * counted as 2·8·w + 152 bytes: see `bytesPerNode`). Measured with
 * `npm run bench -- bounded` (`default-budget`, whole-process peak RSS): an
 * unsolvable boolean problem over 2^42 states stops at 1,000,000 states
 * with a peak of 160–210 MB; a numeric one with 40 facts at 338,933 states
 * and 250–350 MB; the unsolvable `add_two` example at 1,000,000 states in
 * under a second. Pass `maxNodes: Infinity` to lift it.
 */
export const DEFAULT_MAX_NODES = 1_000_000;

/** Search memory the default node budget allows: 256 MB (LM-cut's remembered landmarks add at most 128 MB). */
export const DEFAULT_SEARCH_MEMORY_BYTES = 256 * 1024 * 1024;

/**
 * Budgets of a game-loop planner call (`GoapAgent`, `StupSelector`) when
 * none is given: a frame cannot wait ten seconds for one agent.
 */
export const AGENT_PLAN_BUDGET = Object.freeze({ maxNodes: 100_000, timeBudgetMs: 100 });

/** Which budget stopped a search. */
export type BudgetLimit = "nodes" | "expansions" | "time";

/** The figures of a search stopped by a budget. JSON-serializable. */
export interface BudgetExhaustion {
  /** The budget that ran out first. */
  readonly limit: BudgetLimit;
  readonly maxNodes: number;
  readonly maxExpansions: number;
  readonly timeBudgetMs: number;
  readonly nodesExpanded: number;
  /** States held in memory when the search stopped. */
  readonly nodesStored: number;
  readonly elapsedMs: number;
  /** One sentence with the figures, for people. */
  readonly message: string;
}

/** The budgets a search runs under, defaults filled in. */
export interface ResolvedBudget {
  readonly maxNodes: number;
  readonly maxExpansions: number;
  readonly timeBudgetMs: number;
  /** True when `maxNodes` was not given: the engine may lower it to fit {@link DEFAULT_SEARCH_MEMORY_BYTES}. */
  readonly defaultNodes: boolean;
}

/** Budget fields as options carry them. */
export interface BudgetOptions {
  readonly maxNodes?: number;
  readonly maxExpansions?: number;
  readonly timeBudgetMs?: number;
}

/** @internal Checks budget fields (numbers >= 0, `Infinity` allowed). `where` names the owner for errors. */
export function checkBudget(options: BudgetOptions, where: string): void {
  for (const field of ["maxNodes", "maxExpansions", "timeBudgetMs"] as const) {
    const value = options[field];
    if (value !== undefined && !(typeof value === "number" && value >= 0)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `${where}: ${field} must be a number >= 0 (Infinity for no limit), got ${describeValue(value)}`,
        {
          field,
          value,
        },
      );
    }
  }
}

/** @internal The budgets of a search, defaults filled in. */
export function resolveBudget(options: BudgetOptions): ResolvedBudget {
  return {
    maxNodes: options.maxNodes ?? DEFAULT_MAX_NODES,
    maxExpansions: options.maxExpansions ?? Number.POSITIVE_INFINITY,
    timeBudgetMs: options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS,
    defaultNodes: options.maxNodes === undefined,
  };
}

/** @internal The node budget an engine applies: the default shrinks so wide states fit the memory allowance. */
export function nodeLimit(maxNodes: number, isDefault: boolean, bytesPerNode: number): number {
  if (!isDefault) return maxNodes;
  return Math.max(1, Math.min(maxNodes, Math.floor(DEFAULT_SEARCH_MEMORY_BYTES / bytesPerNode)));
}

const count = (n: number) => (Number.isFinite(n) ? groupDigits(n) : "unlimited");

/**
 * @internal The figures and sentence of a budget stop, e.g. "search stopped by
 * its node budget: 1,000,000 states held (maxNodes 1,000,000) after 52,113
 * expansions and 3,412 ms".
 */
export function budgetExhaustion(
  limit: BudgetLimit,
  budget: { maxNodes: number; maxExpansions: number; timeBudgetMs: number },
  figures: { nodesExpanded: number; nodesStored: number; elapsedMs: number },
): BudgetExhaustion {
  const spent = `${count(figures.nodesStored)} states held, ${count(figures.nodesExpanded)} expansions, ${count(figures.elapsedMs)} ms`;
  const which =
    limit === "nodes"
      ? `its node budget (maxNodes ${count(budget.maxNodes)})`
      : limit === "expansions"
        ? `its expansion budget (maxExpansions ${count(budget.maxExpansions)})`
        : `its time budget (timeBudgetMs ${count(budget.timeBudgetMs)})`;
  return {
    limit,
    maxNodes: budget.maxNodes,
    maxExpansions: budget.maxExpansions,
    timeBudgetMs: budget.timeBudgetMs,
    ...figures,
    message: `search stopped by ${which} after ${spent}, without reaching the goal; the goal may be unreachable (e.g. a numeric goal no sequence of steps hits) or need a larger budget`,
  };
}
