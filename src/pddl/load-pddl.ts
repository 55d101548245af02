import { type ActionContext, ActionSpec } from "../core/action.js";
import { LangGoapError } from "../core/errors.js";
import type { Fact, WorldState } from "../core/facts.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { PddlDomain, PddlProblem } from "./ast.js";
import { type AtomKey, type GroundGoal, type GroundOperator, type GroundOptions, groundPddl } from "./ground.js";
import { parsePddlDomain } from "./parse-domain.js";
import { parsePddlProblem, readPddlGoal } from "./parse-problem.js";
import { PddlReader } from "./read.js";
import { readPddlList } from "./sexpr.js";

/** Options of {@link loadPddl}. */
export interface LoadPddlOptions extends GroundOptions {
  /** File names used in error messages. @defaultValue "domain.pddl" and "problem.pddl" */
  readonly domainFile?: string;
  readonly problemFile?: string;
}

/** Sizes and time of a grounding. */
export interface PddlGroundingStats {
  readonly objects: number;
  /** Atoms that can change (the planner's facts). */
  readonly facts: number;
  readonly operators: number;
  /** Parse and grounding time in ms (a figure for reports; nothing depends on it). */
  readonly groundingMs: number;
}

/**
 * Runs one grounded PDDL action for real: `args` are its objects in the
 * schema's parameter order (`["t1", "depot", "c"]` for `(drive t1 depot c)`).
 * Return nothing to apply the declared effects, or facts to set.
 */
export type PddlExecutor = (
  args: readonly string[],
  state: Readonly<WorldState>,
  context: ActionContext,
) => Promise<Partial<WorldState> | undefined | void> | Partial<WorldState> | undefined | void;

/** A PDDL task as ordinary planning input: actions, a start state and a goal, plus the way back to PDDL names. */
export interface PddlTask {
  readonly domain: PddlDomain;
  readonly problem: PddlProblem;
  /** One `ActionSpec` per grounded operator, named like `pick(ball1,rooma,left)`; `metadata.pddl` holds `(pick ball1 rooma left)`. */
  readonly actions: readonly ActionSpec[];
  /** Every fact (ground atom that can change) with its initial truth value, keyed like `at(ball1,rooma)`. */
  readonly state: Readonly<Record<string, Fact>>;
  /** The goal's conditions over the same keys. */
  readonly goal: Readonly<Record<string, Fact>>;
  /** True when the task uses action costs (`(:metric minimize (total-cost))`); else every action costs 1. */
  readonly actionCosts: boolean;
  readonly stats: PddlGroundingStats;
  /** A plan in the IPC's format: one `(action arg …)` line per step, then `; cost = N (unit cost|general cost)`. */
  formatPlan(actionNames: readonly string[]): string;
  /**
   * The actions with `execute` bound by schema name, for a `GoapGraph`:
   * each grounded `drive(…)` calls `executors.drive(args, state, ctx)`.
   * Schemas without an executor keep no `execute` (their declared effects
   * apply); a name that is no schema of the domain is refused.
   */
  withExecutors(executors: Readonly<Record<string, PddlExecutor>>): ActionSpec[];
  /**
   * A goal written in PDDL (`(and (at ball1 roomb) (not (free left)))`)
   * over this task's objects, as conditions for `plan` or a `GoapGraph`:
   * the LLM+P pattern, where a model writes the goal. Unknown predicates or
   * objects are `PDDL_SYNTAX` errors naming the position in `text`, so the
   * model can be told what to correct.
   */
  goalFromPddl(text: string): Readonly<Record<string, Fact>>;
}

/** `at ball1 rooma` → `at(ball1,rooma)`: one key per atom, no spaces, readable in traces. */
export function factKey(atom: AtomKey): string {
  const parts = atom.split(" ");
  return parts.length === 1 ? (parts[0] as string) : `${parts[0]}(${parts.slice(1).join(",")})`;
}

const LOAD_PDDL_OPTIONS_KEYS = {
  domainFile: true,
  problemFile: true,
  maxOperators: true,
  maxAtoms: true,
  maxSplit: true,
} as const satisfies OptionKeys<LoadPddlOptions>;

/**
 * Parses a PDDL domain and problem, grounds them by reachability and turns
 * the grounded task into ordinary `ActionSpec`s, a start state and a goal:
 * plan it with `plan`/`planDetailed` (optimal by default), or run it in a
 * `GoapGraph` with an `execute` bound to each action by name. Supported:
 * what Fast Downward's translator reads, less derived predicates: STRIPS
 * with `:typing` (type hierarchies, `either`), constants,
 * `:negative-preconditions`, `:equality`, disjunctive and quantified
 * preconditions and goals, `:conditional-effects` (compiled away into
 * plain actions) and `:action-costs`. Valid PDDL beyond that (`:derived`,
 * numeric fluents, durative actions) is refused with `PDDL_UNSUPPORTED`,
 * malformed text with `PDDL_SYNTAX`, both naming the file, line and column.
 *
 * @example
 * ```ts
 * const task = loadPddl(domainText, problemText);
 * const found = plan(task.state, task.goal, task.actions);
 * console.log(task.formatPlan(found?.actionNames ?? []));
 * // (pick ball1 rooma left)
 * // …
 * // ; cost = 11 (unit cost)
 * ```
 */
export function loadPddl(domainText: string, problemText: string, options: LoadPddlOptions = {}): PddlTask {
  checkOptionKeys(options, LOAD_PDDL_OPTIONS_KEYS, "loadPddl()");
  const started = performance.now();
  const domain = parsePddlDomain(domainText, options.domainFile ?? "domain.pddl");
  const problem = parsePddlProblem(problemText, domain, options.problemFile ?? "problem.pddl");
  const ground = groundPddl(domain, problem, options);
  const factKeys = new Map<AtomKey, string>();
  const state: Record<string, Fact> = Object.create(null);
  for (const atom of ground.fluents) {
    const key = factKey(atom);
    factKeys.set(atom, key);
    state[key] = ground.init.has(atom);
  }
  const { actions, pddlNames, argsOf } = toActions(ground, factKeys);
  const goal = goalConditions(ground, state);
  const stats = {
    objects: problem.objects.size,
    facts: ground.fluents.length,
    operators: ground.operators.length,
    groundingMs: performance.now() - started,
  };
  return {
    domain,
    problem,
    actions,
    state: Object.freeze({ ...state }),
    goal,
    actionCosts: problem.minimizeTotalCost,
    stats,
    formatPlan(actionNames) {
      let cost = 0;
      const lines: string[] = [];
      for (const name of actionNames) {
        const pddl = pddlNames.get(name);
        if (pddl === undefined) {
          throw new LangGoapError("UNKNOWN_ACTION", `formatPlan: ${JSON.stringify(name)} is not an action of this PDDL task`, {
            action: name,
          });
        }
        cost += pddl.cost;
        // The operator that reaches a disjunctive goal is no PDDL action.
        if (pddl.text !== undefined) lines.push(pddl.text);
      }
      lines.push(`; cost = ${cost} (${problem.minimizeTotalCost ? "general cost" : "unit cost"})`);
      return `${lines.join("\n")}\n`;
    },
    goalFromPddl(text) {
      const reader = new PddlReader("goal");
      const form = readPddlList(text, "goal");
      const condition = readPddlGoal(reader, form, form, domain, problem.objects);
      return goalConditions(ground.groundGoal(condition), { ...state });
    },
    withExecutors(executors) {
      for (const name of Object.keys(executors)) {
        if (!domain.actions.some((a) => a.name === name)) {
          throw new LangGoapError(
            "UNKNOWN_ACTION",
            `withExecutors: ${JSON.stringify(name)} is not an action schema of domain ${domain.name}`,
            {
              action: name,
            },
          );
        }
      }
      return actions.map((action) => {
        const pddl = argsOf.get(action.name);
        if (pddl === undefined) return action;
        const { schema, args } = pddl;
        const run = Object.hasOwn(executors, schema) ? executors[schema] : undefined;
        return run ? action.with({ execute: (state, ctx) => run(args, state, ctx) }) : action;
      });
    },
  };
}

/** The fact a goal that contradicts itself (`(and (p) (not (p)))`) requires and nothing makes true. */
const CONTRADICTORY_GOAL_FACT = "goal-contradicts-itself";

/**
 * A ground goal as conditions over the state's facts. A goal atom that can
 * never hold is required all the same, and a goal the unchanging atoms rule
 * out requires each literal decided against it (`at(ball3,roomc)` true where
 * that atom is never reached, `road(a,b)` false where it always holds): the
 * planner then proves there is no plan, and its explanation names them.
 */
function goalConditions(goal: GroundGoal, state: Record<string, Fact>): Readonly<Record<string, Fact>> {
  const conditions: Record<string, Fact> = Object.create(null);
  for (const atom of goal.goalTrue) {
    conditions[factKey(atom)] = true;
    if (!(factKey(atom) in state)) state[factKey(atom)] = false;
  }
  for (const atom of goal.goalFalse) conditions[factKey(atom)] = false;
  if (goal.staticGoalViolated) {
    const obstacles = goal.obstacles ?? [];
    // No action changes these atoms (they are no fluents), so the state holds them at their fixed value.
    for (const { atom, holds } of obstacles) {
      conditions[factKey(atom)] = !holds;
      if (!(factKey(atom) in state)) state[factKey(atom)] = holds;
    }
    if (obstacles.length === 0) {
      state[CONTRADICTORY_GOAL_FACT] = false;
      conditions[CONTRADICTORY_GOAL_FACT] = true;
    }
  }
  return Object.freeze({ ...conditions });
}

/** Action names are at most this long (`ActionSpec`'s limit is 128), leaving room for a `#k` suffix. */
const MAX_ACTION_NAME = 120;

/**
 * `schema(a,b)`, or, when that is longer than an action name may be (IPC domains such as caldera have operators
 * of a dozen long arguments), its first characters then `…@` and the operator's index, which keeps it unique. The
 * PDDL text of the operator stays whole in `metadata.pddl` (what plans print).
 */
function actionNameOf(schema: string, args: readonly string[], index: number): string {
  const full = args.length === 0 ? schema : `${schema}(${args.join(",")})`;
  if (full.length <= MAX_ACTION_NAME) return full;
  const suffix = `…@${index}`;
  return `${full.slice(0, MAX_ACTION_NAME - suffix.length)}${suffix}`;
}

/** One `ActionSpec` per operator, named `schema(a,b)` (shortened past 120 characters: see `actionNameOf`); an action grounded into several operators (a disjunctive precondition, conditional effects) names the others `schema(a,b)#2`, `#3`, …. */
function toActions(ground: { readonly operators: readonly GroundOperator[] }, factKeys: ReadonlyMap<AtomKey, string>) {
  const pddlNames = new Map<string, { text: string | undefined; cost: number }>();
  const argsOf = new Map<string, { schema: string; args: readonly string[] }>();
  const fact = (atom: AtomKey) => factKeys.get(atom) ?? factKey(atom);
  const actions = ground.operators.map((op, index) => {
    const base = actionNameOf(op.schema, op.args, index);
    let name = base;
    for (let k = 2; pddlNames.has(name); k++) name = `${base}#${k}`;
    const text = op.auxiliary ? undefined : `(${[op.schema, ...op.args].join(" ")})`;
    pddlNames.set(name, { text, cost: op.cost });
    if (!op.auxiliary) argsOf.set(name, { schema: op.schema, args: op.args });
    const preconditions: Record<string, boolean> = {};
    for (const atom of op.pre) preconditions[fact(atom)] = true;
    for (const atom of op.preFalse) preconditions[fact(atom)] = false;
    const effects: Record<string, boolean> = {};
    for (const atom of op.del) effects[fact(atom)] = false;
    for (const atom of op.add) effects[fact(atom)] = true;
    return new ActionSpec({
      name,
      preconditions,
      effects,
      cost: op.cost,
      metadata: text === undefined ? { pddlGoal: true } : { pddl: text },
    });
  });
  return { actions, pddlNames, argsOf };
}
