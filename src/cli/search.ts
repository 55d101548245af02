import type { ActionSpec } from "../core/action.js";
import { LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import {
  AStarStrategy,
  type BudgetExhaustion,
  DEFAULT_TIME_BUDGET_MS,
  explainNoPlan,
  type HeuristicName,
  MCTSStrategy,
  type NoPlanExplanation,
  type Plan,
  type PlanningStrategy,
  type PruningName,
  planDetailedAsync,
  type SearchRecord,
  type SearchStats,
  type StrategyResult,
} from "../planner/index.js";
import { describeBudget, type SearchBudget } from "./budget.js";

/** Strategies the CLI offers. */
export const STRATEGIES = ["astar", "pipeline", "mcts"] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** MCTS iterations when no budget is given: a fixed count keeps runs reproducible. */
export const DEFAULT_MCTS_ITERATIONS = 1000;

/** What the user asked of the search. */
export interface SearchSettings {
  /** `undefined`: astar, or pipeline for goals with constraints, objectives or metrics (as the graph chooses). */
  readonly strategy: StrategyName | undefined;
  readonly heuristic: HeuristicName | undefined;
  /** `--pruning`; `undefined`: the planner's default (`auto`). */
  readonly pruning?: PruningName;
  readonly budget: SearchBudget | undefined;
  readonly seed: number;
  /** States an A* search may hold (`--max-states`); `undefined`: the planner's default cap. */
  readonly maxStates?: number;
  /** Record A* expansions for the search-tree export. */
  readonly recordExpansions?: boolean;
  /** Time already spent loading the domain, which an A* time budget counts (see `CommandContext.loadMs`). @defaultValue 0 */
  readonly loadMs?: number;
}

/** How a CLI search ended. `not_found`: an incomplete strategy gave up without proving there is no plan. */
export type CliSearchStatus = "found" | "no_plan" | "budget_exhausted" | "aborted" | "not_found";

/** The result of {@link search}. */
export interface SearchOutcome {
  /** The strategy that searched. */
  readonly strategy: StrategyName;
  readonly plan: Plan | null;
  readonly status: CliSearchStatus;
  readonly stats?: SearchStats;
  readonly explanation?: NoPlanExplanation;
  /** The figures of the budget that stopped a `budget_exhausted` search. */
  readonly budget?: BudgetExhaustion;
  readonly expansions?: readonly SearchRecord[];
  /** One line on why there is no plan, for stderr. */
  readonly message?: string;
}

/** The strategy a search uses: the one asked for, or the graph's choice for this goal. */
export function resolveStrategy(settings: SearchSettings, goal: GoalSpec): StrategyName {
  return settings.strategy ?? (goal.needsOptimization ? "pipeline" : "astar");
}

/** The optimizer and its MILP solvers load only when the pipeline is used. */
async function loadOptimize() {
  return import("../optimize/index.js");
}

/** The strategy object a `run` gives the graph. */
export async function createStrategy(settings: SearchSettings, strategy: StrategyName): Promise<PlanningStrategy> {
  const { budget } = settings;
  if (strategy === "pipeline") {
    const { TwoPhasePipelineStrategy } = await loadOptimize();
    return new TwoPhasePipelineStrategy({
      ...(settings.heuristic ? { heuristic: settings.heuristic } : {}),
      ...(budget?.kind === "time" ? { timeLimitMs: budget.ms } : {}),
    });
  }
  if (strategy === "mcts") {
    return new MCTSStrategy({
      seed: settings.seed,
      ...(budget?.kind === "time"
        ? { iterations: Number.POSITIVE_INFINITY, wallClockMs: budget.ms }
        : { iterations: budget?.steps ?? DEFAULT_MCTS_ITERATIONS, wallClockMs: Number.POSITIVE_INFINITY }),
    });
  }
  return new AStarStrategy({
    ...(settings.heuristic ? { heuristic: settings.heuristic } : {}),
    ...(settings.pruning ? { pruning: settings.pruning } : {}),
    ...(budget?.kind === "steps" ? { maxExpansions: budget.steps } : {}),
    ...(budget?.kind === "time" ? { timeBudgetMs: budget.ms } : {}),
    ...(settings.maxStates !== undefined ? { maxNodes: settings.maxStates } : {}),
  });
}

/** Checks option combinations a strategy cannot honour. */
export function checkSettings(settings: SearchSettings, strategy: StrategyName): void {
  if (strategy !== "astar" && settings.pruning) {
    throw new LangGoapError("INVALID_OPTION", `--pruning applies to the astar strategy, not to --strategy ${strategy}`, {
      option: "pruning",
    });
  }
  if (strategy === "mcts" && settings.heuristic) {
    throw new LangGoapError("INVALID_OPTION", "--heuristic applies to the astar strategy; mcts estimates states by rollouts", {
      option: "heuristic",
    });
  }
  if (settings.recordExpansions && strategy !== "astar") {
    throw new LangGoapError("INVALID_OPTION", `--search-tree draws the A* search; it is not available with --strategy ${strategy}`, {
      option: "search-tree",
    });
  }
  if (strategy === "pipeline" && settings.budget?.kind === "steps") {
    throw new LangGoapError(
      "INVALID_OPTION",
      `--budget ${settings.budget.steps}: the pipeline takes a time budget (e.g. 2s), which bounds each solver phase`,
      { option: "budget" },
    );
  }
}

/** Counters of a search cut short, for people: what it reached before it stopped. */
function reached(stats: SearchStats | undefined): string {
  if (!stats) return "";
  const ms = Math.round(stats.planningTimeMs).toLocaleString("en-US");
  return ` after ${stats.nodesExpanded.toLocaleString("en-US")} expansions (${stats.nodesGenerated.toLocaleString("en-US")} states generated) in ${ms} ms`;
}

/**
 * Runs the chosen strategy once. A* reports its status, counters and (on
 * request) its expansions; the pipeline's first phase is a complete A*, so
 * its status is A*'s; MCTS, which cannot prove that no plan exists,
 * reports `not_found` unless relaxed reachability shows the goal is
 * unreachable. Searches are asynchronous: Ctrl-C (the `signal`) stops them,
 * and every search is bounded (A*: 10 s or 1,000,000 states by default).
 */
export async function search(
  start: Readonly<WorldState>,
  goal: GoalSpec,
  actions: readonly ActionSpec[],
  settings: SearchSettings,
  signal: AbortSignal | undefined,
): Promise<SearchOutcome> {
  const strategy = resolveStrategy(settings, goal);
  checkSettings(settings, strategy);
  const { budget } = settings;
  if (strategy === "astar" || strategy === "pipeline") {
    const result: StrategyResult & { readonly expansions?: readonly SearchRecord[] } =
      strategy === "astar"
        ? await planDetailedAsync(start, goal, actions, {
            ...(settings.heuristic ? { heuristic: settings.heuristic } : {}),
            ...(settings.pruning ? { pruning: settings.pruning } : {}),
            ...(budget?.kind === "steps" ? { maxExpansions: budget.steps } : {}),
            // The budget runs from the command's start: loading the domain used part of it.
            timeBudgetMs: Math.max(0, (budget?.kind === "time" ? budget.ms : DEFAULT_TIME_BUDGET_MS) - (settings.loadMs ?? 0)),
            ...(settings.maxStates !== undefined ? { maxNodes: settings.maxStates } : {}),
            ...(signal ? { signal } : {}),
            ...(settings.recordExpansions ? { recordExpansions: true } : {}),
          })
        : await (await loadOptimize()).pipelinePlanDetailed(start, goal, actions, {
            ...(settings.heuristic ? { heuristic: settings.heuristic } : {}),
            ...(budget?.kind === "time" ? { timeLimitMs: budget.ms } : {}),
            ...(signal ? { signal } : {}),
          });
    const base = {
      strategy,
      plan: result.plan,
      status: result.status,
      ...(result.stats ? { stats: result.stats } : {}),
      ...(result.expansions ? { expansions: result.expansions } : {}),
    };
    switch (result.status) {
      case "found":
        return base;
      case "no_plan": {
        const explanation = result.explanation ?? explainNoPlan(start, goal, actions);
        return { ...base, explanation, message: "no plan reaches the goal" };
      }
      case "budget_exhausted": {
        const figures = result.budget ? result.budget.message : `search budget exhausted${reached(result.stats)} without reaching the goal`;
        const loading =
          settings.loadMs && settings.loadMs >= 1 ? `; loading the domain took ${Math.round(settings.loadMs)} ms of the time budget` : "";
        const hint =
          result.budget?.limit === "nodes"
            ? "; the node budget bounds the search's memory"
            : budget
              ? ` (--budget ${describeBudget(budget, "expansions")})`
              : "; give a larger --budget (e.g. 60s) to search longer";
        return { ...base, ...(result.budget ? { budget: result.budget } : {}), message: `${figures}${loading}${hint}` };
      }
      default:
        return { ...base, message: `search aborted${reached(result.stats)}; no plan found before it stopped` };
    }
  }
  const plan = await (await createStrategy(settings, strategy)).plan(start, goal, actions, signal ? { signal } : {});
  if (plan) return { strategy, plan, status: "found" };
  if (signal?.aborted) return { strategy, plan: null, status: "aborted", message: "search aborted; no plan found before it stopped" };
  const explanation = explainNoPlan(start, goal, actions);
  const provenUnreachable = explanation.unreachableConditions.length > 0;
  const spent = settings.budget ? describeBudget(settings.budget, "iterations") : `${DEFAULT_MCTS_ITERATIONS} iterations`;
  return provenUnreachable
    ? { strategy, plan: null, status: "no_plan", explanation, message: "no plan reaches the goal" }
    : {
        strategy,
        plan: null,
        status: "not_found",
        explanation,
        message: `mcts found no plan within ${spent}; try a larger --budget or --strategy astar`,
      };
}
