/**
 * @internal Plans up to reordering of independent actions. Two actions are
 * independent when neither writes a key the other reads or writes (and
 * both have static effects and costs): swapping them next to each other
 * changes neither validity, cost nor the final state. Plans equal up to
 * such swaps form one Mazurkiewicz trace, and each trace has exactly one
 * lexicographic normal form (Anisimov–Knuth) — the representative the
 * k-best enumeration searches for, so reorderings are never enumerated
 * one by one (a project with four parallel jobs has 24 of them).
 */
import type { ActionSpec } from "../core/action.js";
import { LangGoapError } from "../core/errors.js";

export class TraceOrder {
  readonly #letter = new Map<ActionSpec, number>();
  readonly #reads: ReadonlySet<string>[];
  readonly #writes: ReadonlySet<string>[];
  readonly #opaque: boolean[];
  readonly #memo = new Map<number, boolean>();

  constructor(actions: readonly ActionSpec[]) {
    for (const [i, a] of actions.entries()) this.#letter.set(a, i);
    this.#reads = actions.map((a) => new Set(Object.keys(a.preconditions)));
    this.#writes = actions.map((a) => a.effectKeys);
    // A function effect or cost may read any key: such actions commute with nothing.
    this.#opaque = actions.map((a) => a.hasDynamicEffects || a.hasDynamicCost);
  }

  #index(a: ActionSpec): number {
    const i = this.#letter.get(a);
    if (i === undefined) throw new LangGoapError("INVALID_STATE", `internal error: action "${a.name}" is not part of this trace order`);
    return i;
  }

  /** True when `a` and `b` commute wherever both apply. An action never commutes with itself. */
  independent(a: ActionSpec, b: ActionSpec): boolean {
    const i = this.#index(a);
    const j = this.#index(b);
    if (i === j || this.#opaque[i] || this.#opaque[j]) return false;
    const key = i < j ? i * 65_536 + j : j * 65_536 + i;
    let verdict = this.#memo.get(key);
    if (verdict === undefined) {
      const touches = (writer: number, other: number) => {
        for (const k of this.#writes[writer] as ReadonlySet<string>) {
          if (this.#reads[other]?.has(k) || this.#writes[other]?.has(k)) return true;
        }
        return false;
      };
      verdict = !touches(i, j) && !touches(j, i);
      this.#memo.set(key, verdict);
    }
    return verdict;
  }

  /**
   * True when `path + a` can still be in normal form: no earlier action
   * that `a` could be swapped in front of (every action between them being
   * independent of `a`) comes later in the order than `a`.
   */
  canAppend(path: readonly ActionSpec[], a: ActionSpec): boolean {
    const letter = this.#index(a);
    for (let k = path.length - 1; k >= 0; k--) {
      const b = path[k] as ActionSpec;
      if (!this.independent(a, b)) return true;
      if (this.#index(b) > letter) return false;
    }
    return true;
  }

  /** The normal form of a plan: repeatedly take the smallest action that nothing before it blocks. */
  normalForm(sequence: readonly ActionSpec[]): ActionSpec[] {
    const rest = [...sequence];
    const out: ActionSpec[] = [];
    while (rest.length > 0) {
      let pick = -1;
      for (let i = 0; i < rest.length; i++) {
        const a = rest[i] as ActionSpec;
        let free = true;
        for (let k = 0; k < i && free; k++) free = this.independent(a, rest[k] as ActionSpec);
        if (free && (pick < 0 || this.#index(a) < this.#index(rest[pick] as ActionSpec))) pick = i;
      }
      out.push(rest.splice(pick, 1)[0] as ActionSpec);
    }
    return out;
  }
}
