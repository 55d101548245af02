import type { ActionSpec } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import { type ActionFilter, ConstraintSpec, type ObjectiveDirection, type ObjectiveSpec } from "../core/goal.js";

interface ChainState {
  readonly key?: string;
  readonly where?: ActionFilter;
  readonly min?: number;
  readonly max?: number;
  readonly level: "hard" | "soft";
  readonly weight: number;
  readonly direction?: ObjectiveDirection;
}

/** What {@link ConstraintBuilder.build} returns: spread it into a `GoalSpec`. */
export interface BuilderOutput {
  readonly constraints: readonly ConstraintSpec[];
  readonly objectives: readonly ObjectiveSpec[];
}

function fail(message: string): never {
  throw new LangGoapError("INVALID_GOAL", message);
}

function checkNumber(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) fail(`${what} must be a finite number, got ${describeValue(value)}`);
  return value as number;
}

/**
 * One fluent statement about a plan-wide sum. Every method returns a new
 * chain, so a shared prefix can be reused safely:
 *
 * ```ts
 * const usd = ConstraintBuilder.forPlan().sumResource("usd");
 * const budget = usd.bounded(undefined, 5).asConstraint("budget");
 * const cheap = usd.minimize().asObjective("cheap");
 * ```
 */
export class ConstraintChain {
  readonly #state: ChainState;

  /** @internal Use {@link ConstraintBuilder.forPlan}. */
  constructor(state: ChainState = { level: "hard", weight: 1 }) {
    this.#state = Object.freeze(state);
  }

  #with(patch: Partial<ChainState>): ConstraintChain {
    return new ConstraintChain({ ...this.#state, ...patch });
  }

  /** The resource summed over the plan's actions (or a derived metric: `cost`, `durationMs`, `steps`, `makespanMs`). */
  sumResource(key: string): ConstraintChain {
    if (typeof key !== "string" || key === "") fail(`sumResource: key must be a non-empty string, got ${describeValue(key)}`);
    return this.#with({ key });
  }

  /**
   * Sums only over actions the predicate accepts; several `where` calls
   * must all accept.
   *
   * @example
   * ```ts
   * ConstraintBuilder.forPlan().sumResource("usd").where((a) => a.metadata?.vendor === "openai").bounded(undefined, 2);
   * ```
   */
  where(predicate: (action: ActionSpec) => boolean): ConstraintChain {
    if (typeof predicate !== "function") fail(`where: expected a function of the action, got ${describeValue(predicate)}`);
    const previous = this.#state.where;
    return this.#with({ where: previous ? (a: ActionSpec) => previous(a) && predicate(a) : predicate });
  }

  /** Bounds of the sum; `undefined` leaves a side open. `bounded({ min, max })` works too. */
  bounded(min?: number | { readonly min?: number; readonly max?: number }, max?: number): ConstraintChain {
    const bounds = typeof min === "object" && min !== null ? min : { min, max };
    const lo = bounds.min === undefined ? undefined : checkNumber(bounds.min, "bounded: min");
    const hi = bounds.max === undefined ? undefined : checkNumber(bounds.max, "bounded: max");
    if (lo === undefined && hi === undefined) fail("bounded: give min, max or both");
    if (lo !== undefined && hi !== undefined && lo > hi) fail(`bounded: min (${lo}) is greater than max (${hi})`);
    return this.#with({ min: lo, max: hi });
  }

  /** Hard (makes a plan infeasible) or soft (costs `weight` per unit of violation). @defaultValue level "hard", weight 1 */
  penalize(level: "hard" | "soft", weight = 1): ConstraintChain {
    if (level !== "hard" && level !== "soft") fail(`penalize: level must be "hard" or "soft", got ${describeValue(level)}`);
    if (checkNumber(weight, "penalize: weight") < 0) fail(`penalize: weight must be >= 0, got ${weight}`);
    return this.#with({ level, weight });
  }

  /** Makes the chain an objective that prefers smaller sums. */
  minimize(): ConstraintChain {
    return this.#with({ direction: "minimize" });
  }

  /** Makes the chain an objective that prefers larger sums. */
  maximize(): ConstraintChain {
    return this.#with({ direction: "maximize" });
  }

  /**
   * The objective's weight: its scale in scores and in `weighted` mode; 0
   * keeps it informational (reported, not optimised). @defaultValue 1
   */
  weight(w: number): ConstraintChain {
    if (checkNumber(w, "weight") < 0) fail(`weight must be >= 0, got ${w}`);
    return this.#with({ weight: w });
  }

  /** Finishes a constraint. Needs bounds; the key is the summed resource (or `name` when none was given). */
  asConstraint(name?: string): ConstraintSpec {
    const { key, min, max, level, weight, where } = this.#state;
    const label = name ?? key;
    if (label === undefined) fail("asConstraint: call .sumResource(key) first or give the constraint a name");
    if (min === undefined && max === undefined) {
      fail(`constraint "${label}" has no bounds; call .bounded(min, max) before .asConstraint()`);
    }
    return new ConstraintSpec({
      key: key ?? (label as string),
      ...(min !== undefined ? { min } : {}),
      ...(max !== undefined ? { max } : {}),
      level,
      weight,
      name: label as string,
      ...(where ? { where } : {}),
    });
  }

  /** Finishes an objective. Needs a direction; it sums the chain's resource (or `name` when none was given). */
  asObjective(name?: string): ObjectiveSpec {
    const { key, direction, weight, where } = this.#state;
    const label = name ?? key;
    if (label === undefined) fail("asObjective: call .sumResource(key) first or give the objective a name");
    if (direction === undefined) fail(`objective "${label}" has no direction; call .minimize() or .maximize() before .asObjective()`);
    return Object.freeze({
      key: key ?? (label as string),
      direction: direction as ObjectiveDirection,
      weight,
      name: label as string,
      ...(where ? { where } : {}),
    });
  }
}

/**
 * Fluent construction of a goal's constraints and objectives.
 *
 * @example
 * ```ts
 * const goal = new GoalSpec({
 *   conditions: { report_ready: true },
 *   ...ConstraintBuilder.build(
 *     ConstraintBuilder.forPlan().sumResource("usd").bounded(undefined, 5).penalize("hard").asConstraint("budget"),
 *     ConstraintBuilder.forPlan().sumResource("minutes").bounded(undefined, 30).penalize("soft", 2).asConstraint("quick"),
 *     ConstraintBuilder.forPlan().sumResource("usd").minimize().weight(2).asObjective("cheap"),
 *   ),
 * });
 * ```
 */
export class ConstraintBuilder {
  /** Starts a chain over the whole plan. */
  static forPlan(): ConstraintChain {
    return new ConstraintChain();
  }

  /** Instance form of {@link ConstraintBuilder.forPlan}. */
  forPlan(): ConstraintChain {
    return new ConstraintChain();
  }

  /**
   * Collects finished constraints and objectives (in the order given) into
   * `{ constraints, objectives }`. Duplicate objective names are an error.
   */
  static build(...outputs: readonly (ConstraintSpec | ObjectiveSpec)[]): BuilderOutput {
    const constraints: ConstraintSpec[] = [];
    const objectives: ObjectiveSpec[] = [];
    const names = new Set<string>();
    for (const [i, out] of outputs.entries()) {
      if (out instanceof ConstraintSpec) {
        constraints.push(out);
      } else if (typeof out === "object" && out !== null && (out.direction === "minimize" || out.direction === "maximize")) {
        const name = out.name ?? out.key;
        if (names.has(name)) fail(`ConstraintBuilder.build: duplicate objective "${name}"`);
        names.add(name);
        objectives.push(out);
      } else {
        fail(`ConstraintBuilder.build: argument ${i} is neither a constraint nor an objective (got ${describeValue(out)})`);
      }
    }
    return Object.freeze({ constraints: Object.freeze(constraints), objectives: Object.freeze(objectives) });
  }

  /** Instance form of {@link ConstraintBuilder.build}. */
  build(...outputs: readonly (ConstraintSpec | ObjectiveSpec)[]): BuilderOutput {
    return ConstraintBuilder.build(...outputs);
  }
}
