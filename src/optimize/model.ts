/**
 * The solver-neutral MILP model: variables with bounds and integrality,
 * linear constraints with lower/upper bounds, and a linear objective. Every
 * back-end translates this one representation, so a model built once can be
 * solved by HiGHS or javascript-lp-solver and the answers compared.
 */
import { describeValue, LangGoapError } from "../core/errors.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";

/** One decision variable. */
export interface MilpVariable {
  /** Unique name; results are keyed by it. */
  readonly name: string;
  readonly lower: number;
  readonly upper: number;
  readonly integer: boolean;
}

/** `coefficient · variable`, where `variable` is an index into the model's variables. */
export interface LinearTerm {
  readonly variable: number;
  readonly coefficient: number;
}

/** `lower <= Σ terms <= upper` (either side may be infinite). */
export interface MilpConstraint {
  readonly name: string;
  readonly terms: readonly LinearTerm[];
  readonly lower: number;
  readonly upper: number;
}

/** What the solver optimises: `Σ terms + constant`. */
export interface MilpObjective {
  readonly sense: "minimize" | "maximize";
  readonly terms: readonly LinearTerm[];
  readonly constant: number;
}

/** A complete model. Build one with {@link MilpModelBuilder}. */
export interface MilpModel {
  readonly variables: readonly MilpVariable[];
  readonly constraints: readonly MilpConstraint[];
  readonly objective: MilpObjective;
}

/** A linear expression written as `[variableIndex, coefficient]` pairs. */
export type LinearExpression = readonly (readonly [variable: number, coefficient: number])[];

/** Options of {@link MilpModelBuilder.addVariable}. */
export interface VariableOptions {
  /** @defaultValue 0 */
  readonly lower?: number;
  /** @defaultValue Infinity */
  readonly upper?: number;
  /** @defaultValue false */
  readonly integer?: boolean;
}

/** Bounds of a constraint; give `min`, `max` or both (equal values make an equality). */
export interface ConstraintBounds {
  readonly min?: number;
  readonly max?: number;
}

function invalid(message: string, details: Record<string, unknown> = {}): LangGoapError {
  return new LangGoapError("INVALID_OPTION", message, details);
}

/**
 * Merges duplicate variables, drops zero coefficients and checks every
 * coefficient: HiGHS rejects a row that names a column twice, and a NaN
 * coefficient must never reach a solver.
 */
function normalizeTerms(expression: LinearExpression, variableCount: number, where: string): LinearTerm[] {
  const merged = new Map<number, number>();
  for (const pair of expression) {
    const [variable, coefficient] = pair;
    if (!Number.isInteger(variable) || variable < 0 || variable >= variableCount) {
      throw invalid(`${where}: variable index ${describeValue(variable)} does not name one of the ${variableCount} variables`);
    }
    if (typeof coefficient !== "number" || !Number.isFinite(coefficient)) {
      throw invalid(`${where}: coefficient of variable ${variable} must be a finite number, got ${describeValue(coefficient)}`);
    }
    merged.set(variable, (merged.get(variable) ?? 0) + coefficient);
  }
  const terms: LinearTerm[] = [];
  for (const [variable, coefficient] of merged) if (coefficient !== 0) terms.push(Object.freeze({ variable, coefficient }));
  return terms;
}

const VARIABLE_OPTIONS_KEYS = { lower: true, upper: true, integer: true } as const satisfies OptionKeys<VariableOptions>;

/**
 * Builds a {@link MilpModel} step by step, validating as it goes: bounds must
 * be numbers with `lower <= upper`, names unique, coefficients finite.
 *
 * @example
 * ```ts
 * const b = new MilpModelBuilder();
 * const x = b.addBinary("x");
 * const y = b.addVariable("y", { upper: 10, integer: true });
 * b.addConstraint("cap", [[x, 3], [y, 2]], { max: 12 });
 * b.setObjective("maximize", [[x, 5], [y, 1]]);
 * const result = await createSolver("highs").solve(b.build());
 * result.values.x; // 1
 * ```
 */
export class MilpModelBuilder {
  readonly #variables: MilpVariable[] = [];
  readonly #names = new Map<string, number>();
  readonly #constraints: MilpConstraint[] = [];
  #objective: MilpObjective = { sense: "minimize", terms: [], constant: 0 };

  /** Adds a variable and returns its index. */
  addVariable(name: string, options: VariableOptions = {}): number {
    checkOptionKeys(options, VARIABLE_OPTIONS_KEYS, "addVariable()");
    if (typeof name !== "string" || name === "") throw invalid(`MILP variable name must be a non-empty string, got ${describeValue(name)}`);
    if (this.#names.has(name)) throw invalid(`duplicate MILP variable "${name}"`, { name });
    const lower = options.lower ?? 0;
    const upper = options.upper ?? Number.POSITIVE_INFINITY;
    if (typeof lower !== "number" || Number.isNaN(lower) || lower === Number.POSITIVE_INFINITY) {
      throw invalid(`MILP variable "${name}": lower bound must be a number below +Infinity, got ${describeValue(lower)}`, { name });
    }
    if (typeof upper !== "number" || Number.isNaN(upper) || upper === Number.NEGATIVE_INFINITY) {
      throw invalid(`MILP variable "${name}": upper bound must be a number above -Infinity, got ${describeValue(upper)}`, { name });
    }
    if (lower > upper) throw invalid(`MILP variable "${name}": lower bound ${lower} exceeds upper bound ${upper}`, { name });
    const index = this.#variables.length;
    this.#variables.push(Object.freeze({ name, lower, upper, integer: options.integer === true }));
    this.#names.set(name, index);
    return index;
  }

  /** Adds a 0/1 variable and returns its index. */
  addBinary(name: string): number {
    return this.addVariable(name, { lower: 0, upper: 1, integer: true });
  }

  /** The index of a named variable. */
  variable(name: string): number {
    const index = this.#names.get(name);
    if (index === undefined) throw invalid(`unknown MILP variable "${name}"`, { name });
    return index;
  }

  get variableCount(): number {
    return this.#variables.length;
  }

  /** Adds `min <= expression <= max` and returns the constraint's index. */
  addConstraint(name: string, expression: LinearExpression, bounds: ConstraintBounds): number {
    const where = `MILP constraint "${name}"`;
    const lower = bounds.min ?? Number.NEGATIVE_INFINITY;
    const upper = bounds.max ?? Number.POSITIVE_INFINITY;
    if (bounds.min === undefined && bounds.max === undefined) throw invalid(`${where}: give min, max or both`);
    for (const [side, v] of [
      ["min", bounds.min],
      ["max", bounds.max],
    ] as const) {
      if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v))) {
        throw invalid(`${where}: ${side} must be a finite number, got ${describeValue(v)}`);
      }
    }
    if (lower > upper) throw invalid(`${where}: min ${lower} exceeds max ${upper}`);
    const terms = normalizeTerms(expression, this.#variables.length, where);
    this.#constraints.push(Object.freeze({ name, terms: Object.freeze(terms), lower, upper }));
    return this.#constraints.length - 1;
  }

  /** Sets the objective (replacing any previous one). */
  setObjective(sense: "minimize" | "maximize", expression: LinearExpression, constant = 0): this {
    if (sense !== "minimize" && sense !== "maximize") {
      throw invalid(`MILP objective sense must be "minimize" or "maximize", got ${describeValue(sense)}`);
    }
    if (!Number.isFinite(constant)) throw invalid(`MILP objective constant must be finite, got ${describeValue(constant)}`);
    const terms = normalizeTerms(expression, this.#variables.length, "MILP objective");
    this.#objective = Object.freeze({ sense, terms: Object.freeze(terms), constant });
    return this;
  }

  /** The finished model (frozen; later builder calls do not change it). */
  build(): MilpModel {
    return Object.freeze({
      variables: Object.freeze([...this.#variables]),
      constraints: Object.freeze([...this.#constraints]),
      objective: this.#objective,
    });
  }
}

/** A copy of `model` with a different objective. */
export function withObjective(model: MilpModel, objective: MilpObjective): MilpModel {
  const terms = normalizeTerms(
    objective.terms.map((t) => [t.variable, t.coefficient] as const),
    model.variables.length,
    "MILP objective",
  );
  return Object.freeze({ ...model, objective: Object.freeze({ ...objective, terms: Object.freeze(terms) }) });
}

/** A copy of `model` with one more constraint. */
export function withConstraint(model: MilpModel, constraint: MilpConstraint): MilpModel {
  const terms = normalizeTerms(
    constraint.terms.map((t) => [t.variable, t.coefficient] as const),
    model.variables.length,
    `MILP constraint "${constraint.name}"`,
  );
  return Object.freeze({ ...model, constraints: Object.freeze([...model.constraints, Object.freeze({ ...constraint, terms })]) });
}

/** `Σ coefficient · values[variable]`. */
export function evaluateTerms(terms: readonly LinearTerm[], values: ArrayLike<number>): number {
  let sum = 0;
  for (const t of terms) sum += t.coefficient * (values[t.variable] as number);
  return sum;
}

/** Absolute tolerance for comparing a computed activity with a bound. */
export function feasibilityTolerance(bound: number): number {
  return 1e-6 * Math.max(1, Math.abs(bound));
}

/**
 * Re-checks a solution against the model: bounds, integrality and every
 * constraint. Returns a description of the first violation, or `null`.
 * Back-ends run this on every answer so a solver bug can never surface as
 * a "feasible" result.
 */
export function findViolation(model: MilpModel, values: ArrayLike<number>): string | null {
  for (let j = 0; j < model.variables.length; j++) {
    const v = model.variables[j] as MilpVariable;
    const x = values[j] as number;
    if (!Number.isFinite(x)) return `variable "${v.name}" has no finite value (${x})`;
    if (x < v.lower - feasibilityTolerance(v.lower) || x > v.upper + feasibilityTolerance(v.upper)) {
      return `variable "${v.name}" = ${x} is outside [${v.lower}, ${v.upper}]`;
    }
    if (v.integer && Math.abs(x - Math.round(x)) > 1e-6) return `integer variable "${v.name}" has the fractional value ${x}`;
  }
  for (const c of model.constraints) {
    const activity = evaluateTerms(c.terms, values);
    if (activity < c.lower - feasibilityTolerance(c.lower) || activity > c.upper + feasibilityTolerance(c.upper)) {
      return `constraint "${c.name}" has activity ${activity}, outside [${c.lower}, ${c.upper}]`;
    }
  }
  return null;
}
