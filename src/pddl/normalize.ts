import { LangGoapError } from "../core/errors.js";
import type { PddlActionSchema, PddlCondition, PddlDomain, PddlParameter, PddlProblem, PddlTerm } from "./ast.js";
import { type ObjectTypes, objectTypes } from "./object-types.js";

/**
 * @internal A term after normalization: an object number (>= 0) or a
 * variable slot `s` written `-(s + 1)`.
 */
export type Term = number;

/** @internal `slot` as a term. */
export const slotTerm = (slot: number): Term => -slot - 1;

/** @internal An atom over terms; `predicate` numbers the domain's predicates in declaration order. */
export interface NormalAtom {
  readonly predicate: number;
  readonly args: readonly Term[];
}

/** @internal `left = right` (or `≠` when negated). */
export interface Equality {
  readonly left: Term;
  readonly right: Term;
  readonly negated: boolean;
}

/**
 * @internal A formula kept whole until grounding: a universally quantified
 * part of a condition. Fast Downward compiles these into axioms; this
 * reader expands them over the task's finite objects once the action's
 * parameters are bound (ground-formula.ts), which keeps the task free of
 * axioms, so LM-cut and every other heuristic still apply.
 */
export type Formula =
  | { readonly kind: "atom"; readonly atom: NormalAtom; readonly negated: boolean }
  | { readonly kind: "equal"; readonly equality: Equality }
  | { readonly kind: "and" | "or"; readonly parts: readonly Formula[] }
  | { readonly kind: "forall" | "exists"; readonly slots: readonly number[]; readonly types: readonly number[]; readonly body: Formula };

/** @internal One disjunct of a condition in disjunctive normal form, its existential variables made parameters. */
export interface Conjunct {
  readonly positive: readonly NormalAtom[];
  readonly negative: readonly NormalAtom[];
  readonly equalities: readonly Equality[];
  /** Universally quantified parts, expanded at grounding. */
  readonly universals: readonly Formula[];
  /** Slots of the existential variables pulled out of the condition, with their types. */
  readonly slots: readonly number[];
  readonly types: readonly number[];
}

/** @internal One effect: for each binding of its own slots, when `condition` holds, the atom is added (or deleted). */
export interface NormalEffect {
  readonly slots: readonly number[];
  readonly types: readonly number[];
  readonly condition: Conjunct;
  readonly atom: NormalAtom;
  readonly negated: boolean;
}

/**
 * @internal An action after normalization: one disjunct of its
 * precondition (an action with a disjunctive precondition becomes several,
 * as in Fast Downward), its parameters in slots `0 … external-1` and its
 * existential variables after them.
 */
export interface NormalAction {
  readonly schema: PddlActionSchema;
  /** The slots that are parameters of the grounded action: the schema's, then the precondition's existential variables. */
  readonly slots: readonly number[];
  readonly types: readonly number[];
  /** How many leading slots name the grounded action (`(pick a b)`). */
  readonly external: number;
  /** Slots used by the action, its quantifiers and its effects. */
  readonly slotCount: number;
  readonly precondition: Conjunct;
  readonly effects: readonly NormalEffect[];
  readonly cost:
    | { readonly kind: "constant"; readonly value: number }
    | { readonly kind: "function"; readonly function: number; readonly args: readonly Term[] }
    | undefined;
}

/** @internal A task normalized for grounding. */
export interface NormalTask {
  readonly objects: ObjectTypes;
  readonly predicates: readonly string[];
  readonly predicateIds: ReadonlyMap<string, number>;
  readonly functions: readonly string[];
  readonly actions: readonly NormalAction[];
  /** The domain file, for messages. */
  readonly file: string;
  /** Numbers the names of a condition over the task's objects (the goal, or one given later); `slotCount` slots hold its quantified variables. */
  formula(condition: PddlCondition): { formula: Formula; slotCount: number };
}

/** Disjuncts one precondition or effect condition may split into; past it the condition is refused (Fast Downward has no bound and can exhaust memory). */
export const MAX_DISJUNCTS = 4096;

/**
 * Normalizes a task as Fast Downward's normalize.py does, for grounding:
 * names become numbers; each precondition and effect condition is put in
 * disjunctive normal form and split at its disjunctions (one action per
 * disjunct of the precondition, one effect per disjunct of an effect
 * condition); existential variables become parameters (of the action, or
 * of the effect); universally quantified parts stay whole, for grounding.
 */
export function normalizeTask(domain: PddlDomain, problem: PddlProblem): NormalTask {
  const objects = objectTypes(domain, problem);
  const predicates = [...domain.predicates.keys()];
  const predicateIds = new Map(predicates.map((p, i) => [p, i]));
  const functions = [...domain.functions.keys()];
  const functionIds = new Map(functions.map((f, i) => [f, i]));
  const typeOf = (type: string) => objects.typeIds.get(type) ?? 0;
  const actions: NormalAction[] = [];
  for (const schema of domain.actions) {
    let slotCount = 0;
    const newSlot = () => slotCount++;
    const env = new Map<string, number>();
    for (const p of schema.parameters) env.set(p.name, newSlot());
    const term = (t: PddlTerm, scope: ReadonlyMap<string, number>): Term =>
      "variable" in t ? slotTerm(scope.get(t.variable) as number) : (objects.ids.get(t.object) as number);
    const converter = new Converter(predicateIds, typeOf, newSlot, term);
    const precondition = converter.formula(schema.precondition, env);
    const effects: NormalEffect[] = [];
    for (const effect of schema.effects) {
      const scope = new Map(env);
      const slots = effect.parameters.map((p: PddlParameter) => {
        const slot = newSlot();
        scope.set(p.name, slot);
        return slot;
      });
      const types = effect.parameters.map((p) => typeOf(p.type));
      const condition = converter.formula(effect.condition, scope);
      const atom = {
        predicate: predicateIds.get(effect.literal.atom.predicate) as number,
        args: effect.literal.atom.args.map((t) => term(t, scope)),
      };
      // Fast Downward splits an effect at the disjunctions of its condition, and makes the condition's existential variables the effect's.
      for (const disjunct of disjunctiveNormalForm(
        condition,
        `${domain.file}:${schema.at.line}:${schema.at.column}: an effect condition of ${schema.name}`,
      )) {
        effects.push({
          slots: [...slots, ...disjunct.slots],
          types: [...types, ...disjunct.types],
          condition: disjunct,
          atom,
          negated: effect.literal.negated,
        });
      }
    }
    const cost =
      schema.cost === undefined || schema.cost.kind === "constant"
        ? schema.cost
        : {
            kind: "function" as const,
            function: functionIds.get(schema.cost.name) as number,
            args: schema.cost.args.map((t) => term(t, env)),
          };
    const external = schema.parameters.length;
    const parameterSlots = schema.parameters.map((_, i) => i);
    const parameterTypes = schema.parameters.map((p) => typeOf(p.type));
    for (const disjunct of disjunctiveNormalForm(
      precondition,
      `${domain.file}:${schema.at.line}:${schema.at.column}: the precondition of ${schema.name}`,
    )) {
      actions.push({
        schema,
        slots: [...parameterSlots, ...disjunct.slots],
        types: [...parameterTypes, ...disjunct.types],
        external,
        slotCount,
        precondition: disjunct,
        effects,
        cost,
      });
    }
  }
  return {
    file: domain.file,
    objects,
    predicates,
    predicateIds,
    functions,
    actions,
    formula: (condition) => {
      let slots = 0;
      const converter = new Converter(
        predicateIds,
        typeOf,
        () => slots++,
        (t, scope) => ("variable" in t ? slotTerm(scope.get(t.variable) as number) : (objects.ids.get(t.object) as number)),
      );
      const formula = converter.formula(condition, new Map());
      return { formula, slotCount: slots };
    },
  };
}

/** Turns parsed conditions into formulas over numbers, giving every quantified variable its own slot. */
class Converter {
  constructor(
    readonly predicateIds: ReadonlyMap<string, number>,
    readonly typeOf: (type: string) => number,
    readonly newSlot: () => number,
    readonly term: (t: PddlTerm, scope: ReadonlyMap<string, number>) => Term,
  ) {}

  formula(condition: PddlCondition, scope: ReadonlyMap<string, number>): Formula {
    switch (condition.kind) {
      case "atom":
        return {
          kind: "atom",
          atom: {
            predicate: this.predicateIds.get(condition.atom.predicate) as number,
            args: condition.atom.args.map((t) => this.term(t, scope)),
          },
          negated: condition.negated,
        };
      case "equal":
        return {
          kind: "equal",
          equality: { left: this.term(condition.left, scope), right: this.term(condition.right, scope), negated: condition.negated },
        };
      case "and":
      case "or":
        return { kind: condition.kind, parts: condition.parts.map((p) => this.formula(p, scope)) };
      default: {
        const inner = new Map(scope);
        const slots = condition.parameters.map((p) => {
          const slot = this.newSlot();
          inner.set(p.name, slot);
          return slot;
        });
        return {
          kind: condition.kind,
          slots,
          types: condition.parameters.map((p) => this.typeOf(p.type)),
          body: this.formula(condition.body, inner),
        };
      }
    }
  }
}

interface MutableConjunct {
  positive: NormalAtom[];
  negative: NormalAtom[];
  equalities: Equality[];
  universals: Formula[];
  slots: number[];
  types: number[];
}

const emptyConjunct = (): MutableConjunct => ({ positive: [], negative: [], equalities: [], universals: [], slots: [], types: [] });

function mergeInto(into: MutableConjunct, from: MutableConjunct): void {
  into.positive.push(...from.positive);
  into.negative.push(...from.negative);
  into.equalities.push(...from.equalities);
  into.universals.push(...from.universals);
  into.slots.push(...from.slots);
  into.types.push(...from.types);
}

function merge(a: MutableConjunct, b: MutableConjunct): MutableConjunct {
  return {
    positive: [...a.positive, ...b.positive],
    negative: [...a.negative, ...b.negative],
    equalities: [...a.equalities, ...b.equalities],
    universals: [...a.universals, ...b.universals],
    slots: [...a.slots, ...b.slots],
    types: [...a.types, ...b.types],
  };
}

/**
 * A formula's disjuncts (Fast Downward's build_DNF, split_disjunctions and
 * move_existential_quantifiers): `or` concatenates, `and` multiplies out,
 * `exists` adds its variables to each disjunct, `forall` stays whole. An
 * empty list is false. Refused past {@link MAX_DISJUNCTS}.
 */
export function disjunctiveNormalForm(formula: Formula, where: string): MutableConjunct[] {
  const visit = (f: Formula): MutableConjunct[] => {
    switch (f.kind) {
      case "atom": {
        const c = emptyConjunct();
        (f.negated ? c.negative : c.positive).push(f.atom);
        return [c];
      }
      case "equal": {
        const c = emptyConjunct();
        c.equalities.push(f.equality);
        return [c];
      }
      case "forall": {
        const c = emptyConjunct();
        c.universals.push(f);
        return [c];
      }
      case "exists":
        return visit(f.body).map((c) => ({ ...c, slots: [...f.slots, ...c.slots], types: [...f.types, ...c.types] }));
      case "or": {
        const out: MutableConjunct[] = [];
        for (const part of f.parts) {
          out.push(...visit(part));
          if (out.length > MAX_DISJUNCTS) throw tooManyDisjuncts(where);
        }
        return out;
      }
      case "and": {
        // Literals and single-disjunct parts join one conjunct in place; only real alternatives multiply it out.
        const shared = emptyConjunct();
        const multiples: MutableConjunct[][] = [];
        for (const part of f.parts) {
          if (part.kind === "atom") (part.negated ? shared.negative : shared.positive).push(part.atom);
          else if (part.kind === "equal") shared.equalities.push(part.equality);
          else if (part.kind === "forall") shared.universals.push(part);
          else {
            const alternatives = visit(part);
            if (alternatives.length === 1) mergeInto(shared, alternatives[0] as MutableConjunct);
            else multiples.push(alternatives);
          }
        }
        let out: MutableConjunct[] = [shared];
        for (const alternatives of multiples) {
          const next: MutableConjunct[] = [];
          for (const left of out) for (const right of alternatives) next.push(merge(left, right));
          if (next.length > MAX_DISJUNCTS) throw tooManyDisjuncts(where);
          out = next;
        }
        return out;
      }
    }
  };
  return visit(formula);
}

function tooManyDisjuncts(where: string): LangGoapError {
  return new LangGoapError(
    "PDDL_UNSUPPORTED",
    `${where} has more than ${MAX_DISJUNCTS} disjuncts in disjunctive normal form; such a condition is not supported`,
    { limit: MAX_DISJUNCTS },
  );
}
