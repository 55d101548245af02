import { maxOf } from "../core/extremes.js";
import {
  type ActionSpec,
  createRng,
  describeValue,
  type GoalLike,
  type GoalSpec,
  LangGoapError,
  type Rng,
  toGoalSpec,
  validateActions,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { AGENT_PLAN_BUDGET, Plan, type PlanOptions, planDetailed, type SearchStatus } from "../planner/index.js";
import { cutOff } from "./cut-off.js";
import type { PlanCache } from "./plan-cache.js";

/** A goal STUP can choose. */
export interface StupGoalOptions {
  /** Unique name, shown in the table. */
  readonly name: string;
  /** The conditions to reach. */
  readonly goal: GoalLike;
  /** How much the goal matters now: a number or a function of the state. Goals scoring <= 0 are dropped. */
  readonly score: number | ((state: Readonly<WorldState>) => number);
  /** Scales the score into utility (utility = score × multiplier). @defaultValue 1 */
  readonly multiplier?: number;
  /** Only goals of the highest rank among those scoring > 0 are considered. @defaultValue 0 */
  readonly rank?: number;
}

/**
 * What happens to a goal that already holds (its plan is empty, cost 0):
 * `skip` leaves it out of the draw, since there is nothing to do for it;
 * `hold` keeps it as a free goal, so the agent keeps what it has.
 */
export type SatisfiedGoalPolicy = "skip" | "hold";

const STUP_GOAL_OPTIONS_KEYS = {
  name: true,
  goal: true,
  score: true,
  multiplier: true,
  rank: true,
} as const satisfies OptionKeys<StupGoalOptions>;

/** Options of {@link StupSelector}. */
export interface StupSelectorOptions {
  readonly goals: readonly StupGoalOptions[];
  /** The actions plans are made of. */
  readonly actions: readonly ActionSpec[];
  /** Between 0 and 1; see {@link cutOff}. @defaultValue 0.2 (the seed's example) */
  readonly cutOffRatio?: number;
  /** Seed of the draw, when no `rng` is given. @defaultValue 0 */
  readonly seed?: number;
  /** The generator of the draw (shared with the caller's run). @defaultValue createRng(seed) */
  readonly rng?: Rng;
  /** @defaultValue "skip" */
  readonly satisfiedGoals?: SatisfiedGoalPolicy;
  /**
   * Options of every planner call. Budgets not given default to a frame's
   * worth, `{ maxNodes: 100_000, timeBudgetMs: 100 }` ({@link AGENT_PLAN_BUDGET});
   * a goal whose search runs out of them gets status `budget_exhausted`.
   * @defaultValue { maxNodes: 100000, timeBudgetMs: 100 }
   */
  readonly planOptions?: PlanOptions;
  /** Shares plans across calls and agents. */
  readonly cache?: PlanCache;
  /**
   * When no goal of the highest rank is left after planning (none has a
   * plan, or all already hold and are skipped), consider the next rank
   * down, and so on. Off by default, as in the seed: ranks are removed
   * before planning, so an unplannable top-rank goal leaves the agent with
   * nothing to do (a guard that cannot reach the enemy stands still rather
   * than watch TV). Turn it on to fall back to what is possible.
   * @defaultValue false
   */
  readonly fallThroughRanks?: boolean;
}

/**
 * Where a goal ended up in a selection. `no_plan`: the planner proved there
 * is none; `budget_exhausted`: its search stopped on a budget first;
 * `aborted`: a signal in `planOptions` stopped it.
 */
export type StupStatus =
  | "chosen"
  | "candidate"
  | "non_positive_score"
  | "lower_rank"
  | "satisfied"
  | "no_plan"
  | "budget_exhausted"
  | "aborted"
  | "cut_off";

/** Every number STUP computed for one goal, for debugging. */
export interface StupRow {
  readonly name: string;
  readonly rank: number;
  readonly score: number;
  readonly multiplier: number;
  /** score × multiplier. */
  readonly utility: number;
  /** The plan's cost, when one was made. */
  readonly cost: number | null;
  /** utility / cost; `Infinity` for a free plan (cost 0), null when not planned. */
  readonly utilityPerCost: number | null;
  /** Chance of being drawn (0 unless it reached the draw). */
  readonly probability: number;
  /** The planner's status, when the goal was planned. */
  readonly planStatus: SearchStatus | null;
  readonly status: StupStatus;
}

/** The result of {@link StupSelector.select}. */
export interface StupSelection {
  /** The chosen goal's name, or null when no goal survived. */
  readonly name: string | null;
  readonly goal: GoalSpec | null;
  readonly plan: Plan | null;
  /** One row per goal, in declaration order. */
  readonly table: readonly StupRow[];
}

/** A goal as the selector holds it: options checked, defaults filled in. */
export interface StupGoal {
  readonly name: string;
  readonly goal: GoalSpec;
  readonly score: number | ((state: Readonly<WorldState>) => number);
  readonly multiplier: number;
  readonly rank: number;
}

/** Steps 1–5 of a selection (see {@link StupSelector.evaluate}). */
export interface StupEvaluation {
  /** One row per goal, in declaration order; the goals left for the draw have status `candidate`. */
  readonly table: readonly StupRow[];
  /** The plans of the candidates, by goal name. */
  readonly plans: ReadonlyMap<string, Plan>;
}

type MutableRow = { -readonly [K in keyof StupRow]: StupRow[K] } & { plan: Plan | null };

/** A candidate's weight in the cut-off and the draw: utility per cost, or utility among free goals. */
function drawWeight(row: Pick<StupRow, "utility" | "utilityPerCost">): number {
  return row.utilityPerCost === Number.POSITIVE_INFINITY ? row.utility : (row.utilityPerCost as number);
}

function finite(name: string, field: string, value: unknown, predicate: (v: number) => boolean, expected: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || !predicate(value)) {
    throw new LangGoapError("INVALID_OPTION", `STUP goal "${name}": ${field} must be ${expected}, got ${describeValue(value)}`, {
      goal: name,
      field,
      value,
    });
  }
  return value;
}

const STUP_SELECTOR_OPTIONS_KEYS = {
  goals: true,
  actions: true,
  cutOffRatio: true,
  seed: true,
  rng: true,
  satisfiedGoals: true,
  planOptions: true,
  cache: true,
  fallThroughRanks: true,
} as const satisfies OptionKeys<StupSelectorOptions>;

/**
 * STUP, Robin Hardy's utility planner: picks which goal an agent pursues,
 * and hands back its plan.
 *
 * 1. Goals scoring <= 0 are dropped.
 * 2. Only the highest rank among the rest survives (no TV while an enemy shoots).
 * 3. Each survivor is planned; goals without a plan drop out (status
 *    `no_plan`, or `budget_exhausted` when the search ran out of budget).
 * 4. utility per cost = score × multiplier / plan cost.
 * 5. The {@link cutOff} rule removes insignificant goals, unless together they matter.
 * 6. A weighted random draw by utility per cost, with the seeded generator.
 *
 * Cost 0 never divides by zero. A goal that already holds is skipped (or,
 * with `satisfiedGoals: "hold"`, kept as a free goal). A free plan — cost 0,
 * from a held goal or free actions — has utility per cost `Infinity`: as the
 * limit of utility / ε, free goals outrank every costed goal, and among
 * themselves are weighed (cut off and drawn) by utility.
 *
 * @example
 * ```ts
 * const stup = new StupSelector({
 *   actions,
 *   seed: 7,
 *   goals: [
 *     { name: "eat", goal: { is_hungry: false }, score: (s) => (s.hunger as number) },
 *     { name: "fight", goal: { enemy_alive: false }, score: (s) => (s.enemy_near ? 1 : 0), rank: 1 },
 *   ],
 * });
 * const { name, plan, table } = stup.select(worldState);
 * ```
 */
export class StupSelector {
  readonly goals: readonly StupGoal[];
  readonly actions: readonly ActionSpec[];
  readonly cutOffRatio: number;
  readonly satisfiedGoals: SatisfiedGoalPolicy;
  readonly rng: Rng;
  readonly fallThroughRanks: boolean;
  readonly #planOptions: PlanOptions;
  readonly #cache: PlanCache | undefined;

  constructor(options: StupSelectorOptions) {
    checkOptionKeys(options, STUP_SELECTOR_OPTIONS_KEYS, "new StupSelector()");
    if (typeof options !== "object" || options === null || !Array.isArray(options.goals) || options.goals.length === 0) {
      throw new LangGoapError("INVALID_OPTION", "StupSelector: goals must be a non-empty array of { name, goal, score }");
    }
    this.actions = validateActions(options.actions);
    const seen = new Set<string>();
    this.goals = Object.freeze(
      options.goals.map((g, i) => {
        checkOptionKeys(g, STUP_GOAL_OPTIONS_KEYS, `new StupSelector() goals[${i}]`);
        if (typeof g?.name !== "string" || g.name === "") {
          throw new LangGoapError(
            "INVALID_OPTION",
            `StupSelector: goals[${i}].name must be a non-empty string, got ${describeValue(g?.name)}`,
          );
        }
        if (seen.has(g.name)) throw new LangGoapError("INVALID_OPTION", `StupSelector: duplicate goal name "${g.name}"`, { goal: g.name });
        seen.add(g.name);
        if (typeof g.score !== "function") finite(g.name, "score", g.score, () => true, "a finite number or a function of the state");
        return Object.freeze({
          name: g.name,
          goal: toGoalSpec(g.goal),
          score: g.score,
          multiplier: finite(g.name, "multiplier", g.multiplier ?? 1, (v) => v > 0, "a finite number > 0"),
          rank: finite(g.name, "rank", g.rank ?? 0, () => true, "a finite number"),
        });
      }),
    );
    const ratio = options.cutOffRatio ?? 0.2;
    if (typeof ratio !== "number" || !(ratio >= 0 && ratio <= 1)) {
      throw new LangGoapError("INVALID_OPTION", `StupSelector: cutOffRatio must be between 0 and 1, got ${describeValue(ratio)}`);
    }
    this.cutOffRatio = ratio;
    const policy = options.satisfiedGoals ?? "skip";
    if (policy !== "skip" && policy !== "hold") {
      throw new LangGoapError("INVALID_OPTION", `StupSelector: satisfiedGoals must be "skip" or "hold", got ${describeValue(policy)}`);
    }
    this.satisfiedGoals = policy;
    this.rng = options.rng ?? createRng(options.seed ?? 0);
    if (options.fallThroughRanks !== undefined && typeof options.fallThroughRanks !== "boolean") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `StupSelector: fallThroughRanks must be a boolean, got ${describeValue(options.fallThroughRanks)}`,
      );
    }
    this.fallThroughRanks = options.fallThroughRanks ?? false;
    this.#planOptions = { ...AGENT_PLAN_BUDGET, ...options.planOptions };
    this.#cache = options.cache;
  }

  /** Runs the six steps on `state` and draws a goal (see the class summary). */
  select(state: Readonly<WorldState>): StupSelection {
    return this.draw(this.evaluate(state));
  }

  /**
   * Steps 1–5: every goal's numbers, and the goals left for the draw (status
   * `candidate`, with their probability) and their plans. Draw from it with
   * {@link StupSelector.draw}, as often as you like, without planning again.
   */
  evaluate(state: Readonly<WorldState>): StupEvaluation {
    const rows: MutableRow[] = this.goals.map((g) => {
      const score = this.#score(g, state);
      return {
        name: g.name,
        rank: g.rank,
        score,
        multiplier: g.multiplier,
        utility: score * g.multiplier,
        cost: null,
        utilityPerCost: null,
        probability: 0,
        planStatus: null,
        status: score > 0 ? "candidate" : "non_positive_score",
        plan: null,
      };
    });

    // Highest rank first; lower ranks wait (and with fallThroughRanks, get their turn when a rank yields nothing).
    const ranks = [...new Set(rows.filter((r) => r.status === "candidate").map((r) => r.rank))].sort((a, b) => b - a);
    for (const row of rows) if (row.status === "candidate" && row.rank < (ranks[0] as number)) row.status = "lower_rank";
    for (const [level, rank] of ranks.entries()) {
      if (level > 0) for (const row of rows) if (row.status === "lower_rank" && row.rank === rank) row.status = "candidate";
      for (const [i, row] of rows.entries()) {
        if (row.status === "candidate" && row.rank === rank) this.#planRow(row, (this.goals[i] as StupGoal).goal, state);
      }
      if (!this.fallThroughRanks || rows.some((r) => r.status === "candidate")) break;
    }

    let pool = rows.filter((r) => r.status === "candidate");
    const free = pool.filter((r) => r.utilityPerCost === Number.POSITIVE_INFINITY);
    if (free.length > 0) {
      for (const r of pool) if (r.utilityPerCost !== Number.POSITIVE_INFINITY) r.status = "cut_off";
      pool = free;
    }
    const keep = cutOff(pool.map(drawWeight), this.cutOffRatio);
    pool.forEach((r, i) => {
      if (!keep[i]) r.status = "cut_off";
    });
    pool = pool.filter((_, i) => keep[i]);
    const total = pool.reduce((sum, r) => sum + drawWeight(r), 0);
    for (const r of pool) r.probability = drawWeight(r) / total;

    const plans = new Map<string, Plan>();
    for (const r of pool) plans.set(r.name, r.plan as Plan);
    const table = rows.map(({ plan: _plan, ...row }) => Object.freeze(row));
    return { table: Object.freeze(table), plans };
  }

  /** Step 6: the weighted random pick among an evaluation's candidates, with this selector's generator. */
  draw(evaluation: StupEvaluation): StupSelection {
    const candidates = evaluation.table.filter((r) => r.status === "candidate");
    if (candidates.length === 0) return { name: null, goal: null, plan: null, table: evaluation.table };
    const chosen = candidates[this.rng.weightedIndex(candidates.map(drawWeight))] as StupRow;
    const entry = this.goals.find((g) => g.name === chosen.name) as StupGoal;
    const plan = evaluation.plans.get(chosen.name) as Plan;
    const table = evaluation.table.map((r) => (r === chosen ? Object.freeze({ ...r, status: "chosen" as const }) : r));
    return { name: chosen.name, goal: entry.goal, plan, table };
  }

  #score(g: StupGoal, state: Readonly<WorldState>): number {
    if (typeof g.score === "number") return g.score;
    let value: unknown;
    try {
      value = g.score(state);
    } catch (error) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `STUP goal "${g.name}": score function threw: ${(error as Error)?.message ?? error}`,
        { goal: g.name },
        { cause: error },
      );
    }
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `STUP goal "${g.name}": score function returned ${describeValue(value)}; expected a finite number`,
        {
          goal: g.name,
          value,
        },
      );
    }
    return value;
  }

  #planRow(row: MutableRow, goal: GoalSpec, state: Readonly<WorldState>): void {
    if (goal.isSatisfied(state)) {
      row.cost = 0;
      row.planStatus = "found";
      if (this.satisfiedGoals === "skip") {
        row.status = "satisfied";
        return;
      }
      row.plan = Plan.empty({ ...state }, { strategy: "stup" });
      row.utilityPerCost = Number.POSITIVE_INFINITY;
      return;
    }
    const result = this.#cache
      ? this.#cache.plan(state, goal, this.actions, this.#planOptions)
      : planDetailed(state, goal, this.actions, this.#planOptions);
    row.planStatus = result.status;
    if (!result.plan) {
      row.status = result.status === "budget_exhausted" || result.status === "aborted" ? result.status : "no_plan";
      return;
    }
    row.plan = result.plan;
    row.cost = result.plan.totalCost;
    row.utilityPerCost = row.cost > 0 ? row.utility / row.cost : Number.POSITIVE_INFINITY;
  }
}

/**
 * The table as aligned text, for logs.
 *
 * @example
 * ```ts
 * console.log(formatStupTable(stup.select(state).table));
 * ```
 */
export function formatStupTable(table: readonly StupRow[]): string {
  const fmt = (v: number | null) => (v === null ? "-" : Number.isFinite(v) ? String(Math.round(v * 1000) / 1000) : "inf");
  const lines = table.map((r) => [
    r.name,
    r.rank,
    fmt(r.score),
    fmt(r.multiplier),
    fmt(r.cost),
    fmt(r.utilityPerCost),
    `${(r.probability * 100).toFixed(1)}%`,
    r.status,
  ]);
  const header = ["goal", "rank", "score", "mult", "cost", "u/cost", "p", "status"];
  const all = [header, ...lines].map((cells) => cells.map(String));
  const widths = header.map((_, c) => maxOf(all.map((cells) => (cells[c] as string).length)));
  return all.map((cells) => cells.map((cell, c) => cell.padEnd(widths[c] as number)).join("  ")).join("\n");
}
