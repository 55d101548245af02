/**
 * An operator-counting heuristic over numeric net change (after
 * Pommerening, Röger, Helmert & Bonet, 2014): how often each action runs
 * is a variable x ≥ 0, and every numeric fact changed only by `inc`/`dec`
 * ends at its start value plus Σ δ·x, which must meet the goal's bounds and
 * the bounds the fact can never leave (a fact whose every decrease needs
 * it at least k first never falls below k − δ). The cheapest such counts,
 * Σ cost·x, bound the plan's cost from below: admissible, and on resource
 * domains (gather, craft, spend) often exact where hmax counts only the
 * longest chain.
 *
 * The linear program is solved in its dual, max b·y with Aᵀy ≤ cost and
 * y ≥ 0, by the simplex method: costs are never negative, so y = 0 is a
 * start, the feasible region does not depend on the state (only b does),
 * and the last optimal basis starts the next evaluation. Any feasible y
 * is a lower bound, so an evaluation cut short by its pivot cap still
 * returns an admissible value; an unbounded dual proves there is no plan.
 * @internal
 */
import type { CompiledProblem } from "../compiled-problem.js";
import { deltasOf, movedBound, programRows, type Row } from "./operator-counting-rows.js";
import type { RelaxedModel } from "./relaxed-model.js";

const EPSILON = 1e-9;
/** Pivots one evaluation makes at most (warm starts usually need a few); the value reached so far is still a bound. */
const MAX_PIVOTS = 64;

export class OperatorCounting {
  readonly #model: RelaxedModel;
  readonly #n: number;
  readonly #rows: readonly Row[];
  /** Per fact slot with rows: net change of each action (δ), and the bounds the fact keeps (set per search). */
  readonly #delta: Float64Array[];
  /** Per row: the bound the actions moving the fact keep it within (∓Infinity: none). */
  readonly #moved: number[];
  readonly #keepLow: Float64Array;
  readonly #keepHigh: Float64Array;
  // Dual tableau: n rows (one per action) × (m + n) columns (one per primal row, then slacks).
  readonly #m: number;
  readonly #width: number;
  readonly #tableau: Float64Array;
  readonly #rhs: Float64Array;
  readonly #basis: Int32Array;
  readonly #b: Float64Array;
  readonly #reduced: Float64Array;
  #integralCosts = true;

  constructor(p: CompiledProblem, model: RelaxedModel) {
    this.#model = model;
    this.#rows = programRows(p);
    // Without rows there is no program: no tableau either (it would be actions² numbers, 800 MB at 10,000 actions).
    const n = this.#rows.length > 0 ? p.actions.length : 0;
    this.#n = n;
    this.#delta = this.#rows.map((row) => deltasOf(p, row.slot));
    this.#moved = this.#rows.map((row, i) => movedBound(p, row.slot, row.sense, this.#delta[i] as Float64Array));
    this.#keepLow = new Float64Array(p.factCount).fill(-Infinity);
    this.#keepHigh = new Float64Array(p.factCount).fill(Infinity);
    const m = this.#rows.length;
    this.#m = m;
    this.#width = m + n;
    this.#tableau = new Float64Array(n * this.#width);
    this.#rhs = new Float64Array(n);
    this.#basis = new Int32Array(n);
    this.#b = new Float64Array(m);
    this.#reduced = new Float64Array(this.#width);
    this.rebind(p.start);
  }

  /** True when the program has rows: some numeric fact that only `inc`/`dec` change is bounded. */
  get hasRows(): boolean {
    return this.#m > 0;
  }

  /**
   * Prepares a search from `start`: the bounds facts keep from there on, and
   * the action costs (re-estimated for a reused problem); restarts from y = 0.
   */
  rebind(start: Float64Array): void {
    const costs = this.#model.costLow;
    this.#integralCosts = true;
    for (let j = 0; j < this.#n; j++) if (!Number.isInteger(costs[j] as number)) this.#integralCosts = false;
    this.#rows.forEach((row, i) => {
      // From the start on, the fact stays within its start value and the bound its moves keep.
      const value = start[row.slot] as number;
      const moved = this.#moved[i] as number;
      if (row.sense === 1) this.#keepLow[row.slot] = Number.isNaN(value) ? Number.NEGATIVE_INFINITY : Math.min(value, moved);
      else this.#keepHigh[row.slot] = Number.isNaN(value) ? Number.POSITIVE_INFINITY : Math.max(value, moved);
    });
    this.#resetBasis();
  }

  /** The slack basis, y = 0: Aᵀy + s = cost. */
  #resetBasis(): void {
    const n = this.#n;
    const m = this.#m;
    const w = this.#width;
    const costs = this.#model.costLow;
    const tableau = this.#tableau;
    tableau.fill(0);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < m; i++) tableau[j * w + i] = this.#rows[i]!.sense * (this.#delta[i]![j] as number);
      tableau[j * w + m + j] = 1;
      this.#rhs[j] = Math.max(0, costs[j] as number);
      this.#basis[j] = m + j;
    }
  }

  /** A lower bound on the cost to the goal from the row at `offset`; Infinity when the counts cannot meet the bounds. */
  evaluate(row: Float64Array, offset: number): number {
    const m = this.#m;
    if (m === 0) return 0;
    const b = this.#b;
    let any = false;
    for (let i = 0; i < m; i++) {
      const r = this.#rows[i] as Row;
      const value = row[offset + r.slot] as number;
      const kept = r.sense === 1 ? (this.#keepLow[r.slot] as number) : (this.#keepHigh[r.slot] as number);
      const bound = r.goalBound === null ? kept : r.sense === 1 ? Math.max(r.goalBound, kept) : Math.min(r.goalBound, kept);
      // sense·Σδx ≥ sense·(bound − value); an unknown value or an unbounded side gives no constraint.
      b[i] = Number.isFinite(bound) && !Number.isNaN(value) ? r.sense * (bound - value) : -Infinity;
      if (b[i] !== -Infinity) any = true;
    }
    if (!any) return 0;
    // A row without a constraint this time must keep y = 0 (y > 0 there would bound nothing): a basis left with it
    // positive by an earlier evaluation is dropped for y = 0.
    for (let r = 0; r < this.#n; r++) {
      const col = this.#basis[r] as number;
      if (col < m && b[col] === -Infinity && (this.#rhs[r] as number) > EPSILON) {
        this.#resetBasis();
        break;
      }
    }
    const value = this.#solve();
    if (value === Number.POSITIVE_INFINITY) return value;
    return this.#integralCosts ? Math.max(0, Math.ceil(value - 1e-6)) : Math.max(0, value - 1e-7);
  }

  /** Maximises b·y over the dual's feasible region from the current basis; Infinity when unbounded. */
  #solve(): number {
    const n = this.#n;
    const m = this.#m;
    const w = this.#width;
    const tableau = this.#tableau;
    const rhs = this.#rhs;
    const basis = this.#basis;
    const b = this.#b;
    const reduced = this.#reduced;
    // A row with no constraint this time (b = −∞) must keep y = 0: its column never enters, and if it is basic it
    // is priced at 0 (an entering column then pushes it out as usual).
    const price = (col: number): number => (col < m ? (b[col] === -Infinity ? 0 : (b[col] as number)) : 0);
    for (let pivots = 0; ; pivots++) {
      // Reduced gains: price of column k minus what the basis pays for it.
      for (let k = 0; k < w; k++) reduced[k] = price(k);
      for (let r = 0; r < n; r++) {
        const pb = price(basis[r] as number);
        if (pb === 0) continue;
        const base = r * w;
        for (let k = 0; k < w; k++) reduced[k] = (reduced[k] as number) - pb * (tableau[base + k] as number);
      }
      // Bland's rule: the first improving column, so degenerate pivots never cycle.
      let enter = -1;
      for (let k = 0; k < w; k++) {
        if (k < m && b[k] === -Infinity) continue;
        if ((reduced[k] as number) > EPSILON) {
          enter = k;
          break;
        }
      }
      let objective = 0;
      for (let r = 0; r < n; r++) objective += price(basis[r] as number) * (rhs[r] as number);
      if (enter < 0 || pivots >= MAX_PIVOTS) return objective;
      let leave = -1;
      let best = Number.POSITIVE_INFINITY;
      for (let r = 0; r < n; r++) {
        const a = tableau[r * w + enter] as number;
        if (a <= EPSILON) continue;
        const ratio = (rhs[r] as number) / a;
        if (ratio < best - EPSILON || (ratio <= best + EPSILON && leave >= 0 && (basis[r] as number) < (basis[leave] as number))) {
          best = ratio;
          leave = r;
        }
      }
      // No row limits the entering column: the dual is unbounded, so no counts meet the bounds.
      if (leave < 0) return Number.POSITIVE_INFINITY;
      this.#pivot(leave, enter);
    }
  }

  #pivot(leave: number, enter: number): void {
    const n = this.#n;
    const w = this.#width;
    const tableau = this.#tableau;
    const rhs = this.#rhs;
    const lb = leave * w;
    const pivot = tableau[lb + enter] as number;
    for (let k = 0; k < w; k++) tableau[lb + k] = (tableau[lb + k] as number) / pivot;
    rhs[leave] = (rhs[leave] as number) / pivot;
    for (let r = 0; r < n; r++) {
      if (r === leave) continue;
      const base = r * w;
      const factor = tableau[base + enter] as number;
      if (factor === 0) continue;
      for (let k = 0; k < w; k++) tableau[base + k] = (tableau[base + k] as number) - factor * (tableau[lb + k] as number);
      rhs[r] = Math.max(0, (rhs[r] as number) - factor * (rhs[leave] as number));
    }
    this.#basis[leave] = enter;
  }
}
