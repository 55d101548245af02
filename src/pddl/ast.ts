import type { SourcePosition } from "./sexpr.js";

/** A term: a variable (`?x`) or an object/constant name. */
export type PddlTerm = { readonly variable: string } | { readonly object: string };

/** An atom `(predicate t1 t2 …)` as written. */
export interface PddlAtom {
  readonly predicate: string;
  readonly args: readonly PddlTerm[];
  readonly at: SourcePosition;
}

/** A literal: an atom, its negation, or (in)equality of two terms (`=` is the built-in equality predicate). */
export type PddlLiteral =
  | { readonly kind: "atom"; readonly atom: PddlAtom; readonly negated: boolean }
  | {
      readonly kind: "equal";
      readonly left: PddlTerm;
      readonly right: PddlTerm;
      readonly negated: boolean;
      readonly at: SourcePosition;
    };

/**
 * A condition (precondition, effect condition, goal) in negation normal
 * form, as Fast Downward's parser builds it: `not` only on literals,
 * `(imply a b)` read as `(or (not a) b)`. `(and)` is true, `(or)` false.
 */
export type PddlCondition =
  | PddlLiteral
  | { readonly kind: "and" | "or"; readonly parts: readonly PddlCondition[] }
  | {
      readonly kind: "forall" | "exists";
      readonly parameters: readonly PddlParameter[];
      readonly body: PddlCondition;
      readonly at: SourcePosition;
    };

/** A typed parameter or object. */
export interface PddlParameter {
  readonly name: string;
  readonly type: string;
}

/**
 * One effect, flattened as Fast Downward does: for every binding of
 * `parameters` (a `forall`, empty when none), when `condition` holds in
 * the state before the action (a `when`; `(and)` when none), `literal` is
 * added (or deleted when negated).
 */
export interface PddlEffect {
  readonly parameters: readonly PddlParameter[];
  readonly condition: PddlCondition;
  readonly literal: { readonly atom: PddlAtom; readonly negated: boolean };
}

/** What an action adds to `total-cost`: a number, or a function term looked up in the problem's init. */
export type PddlCost =
  | { readonly kind: "constant"; readonly value: number }
  | { readonly kind: "function"; readonly name: string; readonly args: readonly PddlTerm[]; readonly at: SourcePosition };

/** An action schema. */
export interface PddlActionSchema {
  readonly name: string;
  readonly parameters: readonly PddlParameter[];
  readonly precondition: PddlCondition;
  /** Flattened effects; an atom both added and deleted under the same condition is only added (add after delete). */
  readonly effects: readonly PddlEffect[];
  /** The `(increase (total-cost) …)` effect; when several are written, the last counts (as in Fast Downward). */
  readonly cost: PddlCost | undefined;
  readonly at: SourcePosition;
}

/** A parsed domain. */
export interface PddlDomain {
  readonly name: string;
  /** The file name errors cite. */
  readonly file: string;
  readonly requirements: ReadonlySet<string>;
  /** Each declared type's parent (`object` at the top; a parent never declared itself is a subtype of `object`). */
  readonly typeParents: ReadonlyMap<string, string>;
  /** Constants with their types. */
  readonly constants: ReadonlyMap<string, string>;
  /** Predicates with their parameters (an `(either a b)` argument type reads `either a b`; argument types are not checked, as in Fast Downward). */
  readonly predicates: ReadonlyMap<string, readonly PddlParameter[]>;
  /** Numeric functions (only `total-cost` and cost tables are used). */
  readonly functions: ReadonlyMap<string, readonly PddlParameter[]>;
  /** Action schemas; one with no effect at all is dropped, as Fast Downward drops it. */
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
  /** The file name errors cite. */
  readonly file: string;
  readonly domainName: string;
  /** Every object with its type: the domain's constants, then the problem's objects. */
  readonly objects: ReadonlyMap<string, string>;
  /** The atoms true initially (closed world: every other atom is false). */
  readonly init: readonly PddlGroundAtom[];
  /** Values of numeric functions in init, keyed `name arg1 arg2`. */
  readonly initValues: ReadonlyMap<string, number>;
  readonly goal: PddlCondition;
  /** True when the problem asks for `(:metric minimize (total-cost))`: action costs count (0 without a cost effect); else every action costs 1. */
  readonly minimizeTotalCost: boolean;
}
