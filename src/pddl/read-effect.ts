import type { PddlCondition, PddlCost, PddlEffect, PddlParameter, PddlTerm } from "./ast.js";
import type { TermScope } from "./read.js";
import { type FormulaContext, junction, readCondition, readLiteral } from "./read-condition.js";
import type { SAtom, SExpr, SList } from "./sexpr.js";

const NUMERIC_EFFECTS = new Set(["decrease", "assign", "scale-up", "scale-down"]);

/** An action's effects, flattened, and its cost. */
export interface ReadEffects {
  readonly effects: PddlEffect[];
  readonly cost: PddlCost | undefined;
}

/**
 * Reads an action's effect as Fast Downward does: `and`, `(forall (?x) e)`,
 * `(when φ e)` nested in any way, flattened to one list of
 * (parameters, condition, literal); `(increase (total-cost) N)` or
 * `(increase (total-cost) (f ?x …))` at the top level is the cost (the
 * last one counts). An atom both added and deleted under the same
 * parameters and condition is only added.
 */
export function readEffects(context: FormulaContext, expr: SList, scope: TermScope): ReadEffects {
  // Keyed by parameters, condition and atom, so an add and a delete of the same atom meet (add after delete).
  const effects = new Map<string, PddlEffect>();
  let cost: PddlCost | undefined;
  const visit = (list: SList, parameters: readonly PddlParameter[], conditions: readonly PddlCondition[], inner: TermScope) => {
    const { reader } = context;
    if (list.items.length === 0) throw reader.fail(list, `every (sub-)effect must be a non-empty (…) in ${context.where}`);
    const tag = reader.head(list);
    if (tag === "and") {
      for (const part of list.items.slice(1))
        visit(reader.list(part, `each part of an 'and' effect in ${context.where}`, list), parameters, conditions, inner);
      return;
    }
    if (tag === "forall") {
      if (list.items.length !== 3)
        throw reader.fail(list, `a 'forall' effect expects exactly two arguments (VARIABLES) EFFECT in ${context.where}`);
      const variables = reader.list(list.items[1], `the variables of 'forall' in ${context.where}`, list);
      const typed = reader.typedList(variables.items, "the variables of 'forall'", variables, { variables: true });
      for (const p of typed) context.checkType(p.type, p.at);
      const added = typed.map(({ name, type }) => ({ name, type }));
      const body = reader.list(list.items[2], `the effect of 'forall' in ${context.where}`, list);
      visit(body, [...parameters, ...added], conditions, {
        objects: inner.objects,
        variables: new Set([...inner.variables, ...added.map((p) => p.name)]),
      });
      return;
    }
    if (tag === "when") {
      if (list.items.length !== 3)
        throw reader.fail(list, `a 'when' effect expects exactly two arguments CONDITION EFFECT in ${context.where}`);
      const condition = readCondition(context, list.items[1], list, inner);
      const body = reader.list(list.items[2], `the effect of 'when' in ${context.where}`, list);
      visit(body, parameters, [...conditions, condition], inner);
      return;
    }
    if (tag === "increase") {
      if (parameters.length > 0 || conditions.length > 0)
        throw reader.unsupported(list, `a cost effect under 'forall' or 'when' in ${context.where}`);
      cost = readCost(context, list, inner);
      return;
    }
    if (tag !== undefined && NUMERIC_EFFECTS.has(tag)) throw reader.unsupported(list, `the numeric effect (${tag} …) in ${context.where}`);
    let literalList = list;
    let negated = false;
    if (tag === "not") {
      if (list.items.length !== 2) throw reader.fail(list, `a negated effect is (not (PREDICATE ARGUMENTS*)) in ${context.where}`);
      literalList = reader.block(list.items[1], `an atom under 'not' in ${context.where}`, list);
      negated = true;
    }
    const literal = readLiteral({ ...context, equality: false }, literalList, false, inner);
    if (literal.kind !== "atom") throw reader.fail(literalList, `an effect cannot change '=' in ${context.where}`);
    const effect = { parameters, condition: junction("and", conditions), literal: { atom: literal.atom, negated } };
    const key = `${parameters.map((p) => `${p.name}:${p.type}`).join(",")}|${conditionKey(effect.condition)}|${literal.atom.predicate} ${literal.atom.args.map(termText).join(" ")}`;
    // Fast Downward keeps the add of an atom that is also deleted under the same parameters and condition.
    if (!negated || !effects.has(key)) effects.set(key, effect);
  };
  visit(expr, [], [], scope);
  return { effects: [...effects.values()], cost };
}

function readCost(context: FormulaContext, list: SList, scope: TermScope): PddlCost {
  const { reader } = context;
  const target = list.items[1];
  if (list.items.length !== 3 || target?.kind !== "list" || target.items.length !== 1 || reader.head(target) !== "total-cost") {
    throw reader.unsupported(list, `a numeric effect other than (increase (total-cost) N) in ${context.where}`);
  }
  const amount = list.items[2] as SExpr;
  if (amount.kind === "atom") {
    if (/^\d+$/.test(amount.text)) return { kind: "constant", value: Number(amount.text) };
    throw numberError(context, amount);
  }
  const name = reader.name(amount.items[0], "a function name", amount);
  const declared = context.functions.get(name);
  if (declared === undefined) throw reader.fail(amount, `unknown function ${JSON.stringify(name)} in ${context.where}`);
  const args = amount.items.slice(1).map((e) => reader.term(e, amount, scope));
  if (args.length !== declared.length)
    throw reader.fail(amount, `function ${name} of arity ${declared.length} used with ${args.length} arguments in ${context.where}`);
  return { kind: "function", name, args, at: amount };
}

/** Fast Downward's number rules: non-negative integers only. */
export function numberError(context: { reader: FormulaContext["reader"]; where: string }, word: SAtom) {
  if (word.text.startsWith("-")) return context.reader.fail(word, `negative numbers are not allowed (${word.text}) in ${context.where}`);
  if (/^[\d.]+$/.test(word.text)) return context.reader.unsupported(word, `the fractional number ${word.text} in ${context.where}`);
  return context.reader.unsupported(
    word,
    `the numeric expression ${JSON.stringify(word.text)} (a cost is a number or a function term) in ${context.where}`,
  );
}

/** A term as text: `?x` or the object's name. */
function termText(term: PddlTerm): string {
  return "variable" in term ? term.variable : term.object;
}

/** A condition's structure without source positions. */
export function conditionKey(condition: PddlCondition): string {
  if (condition.kind === "and" && condition.parts.length === 0) return "";
  return JSON.stringify(condition, (key, value) => (key === "at" ? undefined : value));
}
