import { LangGoapError } from "../core/errors.js";
import type { Formula, NormalAtom } from "./normalize.js";

/**
 * @internal A ground condition in disjunctive normal form: each disjunct a
 * sorted list of literals over the task's fluents, `2 × fluent` for the
 * atom and `2 × fluent + 1` for its negation. `[]` is false, `[[]]` true.
 */
export type GroundDnf = readonly (readonly number[])[];

export const TRUE_DNF: GroundDnf = [[]];

/** @internal How the atoms of a formula are decided once its variables are bound. */
export interface AtomOracle {
  /** The fluent number of a ground atom, or -1 when its predicate is static or it is never reached. */
  fluent(predicate: number, args: Int32Array): number;
  /** Whether the predicate is static (no action changes it). */
  isStatic(predicate: number): boolean;
  /** Whether a static ground atom holds initially. */
  holds(predicate: number, args: Int32Array): boolean;
  /** The objects of each type. */
  readonly members: readonly Int32Array[];
}

/**
 * @internal A literal grounding decided false: an atom of a static predicate
 * (or one never reached) whose value is fixed the wrong way, or an
 * (in)equality of two objects that does not hold.
 */
export type FalsifiedLiteral =
  | { readonly kind: "atom"; readonly predicate: number; readonly args: Int32Array; readonly negated: boolean }
  | { readonly kind: "equal"; readonly left: number; readonly right: number; readonly negated: boolean };

/**
 * Evaluates a formula under a binding of its free slots: static atoms and
 * (in)equalities are decided, an atom of a fluent predicate that is never
 * reached is false, quantifiers are expanded over their type's objects
 * (this is how universal preconditions are compiled: Fast Downward makes
 * axioms of them, which LM-cut does not support), and the result is
 * multiplied out into disjunctive normal form, refused past `maxDisjuncts`
 * disjuncts with `PDDL_UNSUPPORTED` naming `where`. `falsified` hears of
 * each literal decided false on the way (a goal that can never hold is
 * explained by them).
 */
export function groundDnf(
  formula: Formula,
  binding: Int32Array,
  oracle: AtomOracle,
  maxDisjuncts: number,
  where: () => string,
  falsified?: (literal: FalsifiedLiteral) => void,
): GroundDnf {
  const refuse = () =>
    new LangGoapError("PDDL_UNSUPPORTED", `${where()} splits into more than ${maxDisjuncts} alternatives once grounded (option maxSplit)`, {
      maxSplit: maxDisjuncts,
    });
  const atomArgs = (atom: NormalAtom): Int32Array => {
    const args = new Int32Array(atom.args.length);
    atom.args.forEach((term, i) => {
      args[i] = term >= 0 ? term : (binding[-term - 1] as number);
    });
    return args;
  };
  const visit = (f: Formula): GroundDnf => {
    switch (f.kind) {
      case "atom": {
        const args = atomArgs(f.atom);
        const isStatic = oracle.isStatic(f.atom.predicate);
        const fluent = isStatic ? -1 : oracle.fluent(f.atom.predicate, args);
        if (fluent >= 0) return [[2 * fluent + (f.negated ? 1 : 0)]];
        // A static atom holds as in the initial state; an atom of a changing predicate that is never reached never holds.
        const holds = isStatic && oracle.holds(f.atom.predicate, args);
        if (holds !== f.negated) return TRUE_DNF;
        falsified?.({ kind: "atom", predicate: f.atom.predicate, args, negated: f.negated });
        return [];
      }
      case "equal": {
        const { left, right, negated } = f.equality;
        const a = (left >= 0 ? left : binding[-left - 1]) as number;
        const b = (right >= 0 ? right : binding[-right - 1]) as number;
        if ((a === b) !== negated) return TRUE_DNF;
        falsified?.({ kind: "equal", left: a, right: b, negated });
        return [];
      }
      case "and": {
        let out: GroundDnf = TRUE_DNF;
        for (const part of f.parts) {
          out = conjoin(out, visit(part), maxDisjuncts, refuse);
          if (out.length === 0) return out;
        }
        return out;
      }
      case "or": {
        let out: GroundDnf = [];
        for (const part of f.parts) {
          out = disjoin(out, visit(part), maxDisjuncts, refuse);
          if (isTrue(out)) return out;
        }
        return out;
      }
      default: {
        const universal = f.kind === "forall";
        let out: GroundDnf = universal ? TRUE_DNF : [];
        const bindAll = (k: number): boolean => {
          if (k === f.slots.length) {
            const body = visit(f.body);
            out = universal ? conjoin(out, body, maxDisjuncts, refuse) : disjoin(out, body, maxDisjuncts, refuse);
            // Stop early once the result is decided: false for forall, true for exists.
            return universal ? out.length > 0 : !isTrue(out);
          }
          const members = oracle.members[f.types[k] as number] as Int32Array;
          for (let i = 0; i < members.length; i++) {
            binding[f.slots[k] as number] = members[i] as number;
            if (!bindAll(k + 1)) return false;
          }
          return true;
        };
        bindAll(0);
        return out;
      }
    }
  };
  return visit(formula);
}

function isTrue(dnf: GroundDnf): boolean {
  return dnf.some((conjunct) => conjunct.length === 0);
}

/** The product of two DNFs, contradictory disjuncts dropped and duplicates merged. */
export function conjoin(a: GroundDnf, b: GroundDnf, max: number, refuse: () => Error): GroundDnf {
  if (a.length === 1 && (a[0] as number[]).length === 0) return b;
  if (b.length === 1 && (b[0] as number[]).length === 0) return a;
  const out: number[][] = [];
  const seen = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      const merged = mergeLiterals(x, y);
      if (merged === undefined) continue;
      const key = merged.join(",");
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(merged);
      if (out.length > max) throw refuse();
    }
  }
  return out;
}

function disjoin(a: GroundDnf, b: GroundDnf, max: number, refuse: () => Error): GroundDnf {
  if (a.length === 0) return b;
  if (isTrue(b)) return TRUE_DNF;
  const seen = new Set(a.map((c) => c.join(",")));
  const out = [...a];
  for (const c of b) {
    const key = c.join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
    if (out.length > max) throw refuse();
  }
  return out;
}

/** Two sorted literal lists merged, or undefined when one holds an atom the other negates. */
function mergeLiterals(x: readonly number[], y: readonly number[]): number[] | undefined {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    const a = i < x.length ? (x[i] as number) : Number.POSITIVE_INFINITY;
    const b = j < y.length ? (y[j] as number) : Number.POSITIVE_INFINITY;
    const next = Math.min(a, b);
    if (a <= b) i++;
    if (b <= a) j++;
    const last = out[out.length - 1];
    if (last === next) continue;
    if (last !== undefined && last >> 1 === next >> 1) return undefined;
    out.push(next);
  }
  return out;
}
