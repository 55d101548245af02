import type { SourcePosition } from "./sexpr.js";

/** A term: a variable (`?x`) or an object/constant name. */
export type PddlTerm = { readonly variable: string } | { readonly object: string };

/** An atom `(predicate t1 t2 …)` as written. */
export interface PddlAtom {
  readonly predicate: string;
  readonly args: readonly PddlTerm[];
  readonly at: SourcePosition;
}

/** A literal of a precondition or goal: an atom, its negation, or (in)equality of two terms. */
export type PddlLiteral =
  | { readonly kind: "atom"; readonly atom: PddlAtom; readonly negated: boolean }
  | { readonly kind: "equal"; readonly left: PddlTerm; readonly right: PddlTerm; readonly negated: boolean };

/** What an action adds to `total-cost`: a number, or a function term looked up in the problem's init. */
export type PddlCost =
  | { readonly kind: "constant"; readonly value: number }
  | { readonly kind: "function"; readonly name: string; readonly args: readonly PddlTerm[]; readonly at: SourcePosition };

/** A typed parameter. */
export interface PddlParameter {
  readonly name: string;
  readonly type: string;
}

/** An action schema: STRIPS with negative preconditions, equality and action costs. */
export interface PddlActionSchema {
  readonly name: string;
  readonly parameters: readonly PddlParameter[];
  readonly preconditions: readonly PddlLiteral[];
  readonly adds: readonly PddlAtom[];
  readonly deletes: readonly PddlAtom[];
  /** Increases of `total-cost`, summed. */
  readonly costs: readonly PddlCost[];
  readonly at: SourcePosition;
}

/** A parsed domain. */
export interface PddlDomain {
  readonly name: string;
  readonly requirements: ReadonlySet<string>;
  /** Each declared type's parent (`object` at the top). */
  readonly typeParents: ReadonlyMap<string, string>;
  /** Constants with their types. */
  readonly constants: ReadonlyMap<string, string>;
  /** Predicates with their parameters. */
  readonly predicates: ReadonlyMap<string, readonly PddlParameter[]>;
  /** Numeric functions (only `total-cost` and cost tables are used). */
  readonly functions: ReadonlyMap<string, readonly PddlParameter[]>;
  readonly actions: readonly PddlActionSchema[];
}

/** A ground atom of the problem's initial state. */
export interface PddlGroundAtom {
  readonly predicate: string;
  readonly args: readonly string[];
}

/** A parsed problem. */
export interface PddlProblem {
  readonly name: string;
  readonly domainName: string;
  readonly objects: ReadonlyMap<string, string>;
  readonly init: readonly PddlGroundAtom[];
  /** Values of numeric functions in init, keyed `name arg1 arg2`. */
  readonly initValues: ReadonlyMap<string, number>;
  readonly goal: readonly PddlLiteral[];
  /** True when the problem asks for `(:metric minimize (total-cost))`: action costs count; else every action costs 1. */
  readonly minimizeTotalCost: boolean;
}
