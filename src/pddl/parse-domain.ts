import type { PddlActionSchema, PddlAtom, PddlCost, PddlDomain, PddlLiteral, PddlParameter, PddlTerm } from "./ast.js";
import { PddlReader } from "./read.js";
import { readSExpressions, type SExpr, type SList } from "./sexpr.js";

/** Requirements this reader honours; any other is refused rather than half-understood. */
export const PDDL_REQUIREMENTS: readonly string[] = Object.freeze([
  ":strips",
  ":typing",
  ":negative-preconditions",
  ":equality",
  ":action-costs",
]);

/**
 * Parses a PDDL domain: STRIPS with `:typing`, `:negative-preconditions`,
 * `:equality`, constants and `:action-costs`. Anything else (conditional
 * effects, quantifiers, numeric fluents, derived predicates, durative
 * actions) is refused with `PDDL_UNSUPPORTED` at its line and column;
 * malformed text with `PDDL_SYNTAX`.
 *
 * @example
 * ```ts
 * const domain = parsePddlDomain("(define (domain d) (:predicates (p)) (:action a :parameters () :effect (p)))");
 * domain.actions[0]?.name; // "a"
 * ```
 */
export function parsePddlDomain(text: string, file = "domain.pddl"): PddlDomain {
  const reader = new PddlReader(file);
  const top = readSExpressions(text, file);
  if (top.length !== 1) throw reader.fail(top[1] ?? { line: 1, column: 1 }, "expected exactly one (define (domain …) …)");
  const { name, sections } = reader.sections(top[0] as SList, "domain");
  const requirements = new Set<string>([":strips"]);
  const typeParents = new Map<string, string>();
  const constants = new Map<string, string>();
  const predicates = new Map<string, readonly PddlParameter[]>();
  const functions = new Map<string, readonly PddlParameter[]>();
  const actionLists: SList[] = [];
  for (const section of sections) {
    const head = reader.head(section) as string;
    const body = section.items.slice(1);
    if (head === ":requirements") {
      for (const item of body) {
        const flag = reader.atom(item, "a requirement like :strips", section);
        if (!PDDL_REQUIREMENTS.includes(flag.text)) throw reader.unsupported(flag, `the requirement ${flag.text}`);
        requirements.add(flag.text);
      }
    } else if (head === ":types") {
      for (const t of reader.typedList(body, "(:types …)", section, false)) typeParents.set(t.name, t.type);
    } else if (head === ":constants") {
      for (const c of reader.typedList(body, "(:constants …)", section, false)) constants.set(c.name, c.type);
    } else if (head === ":predicates") {
      for (const item of body) {
        const decl = reader.list(item, "a predicate declaration like (at ?x - place)", section);
        const predicate = reader.name(decl.items[0], "a predicate name", decl);
        predicates.set(predicate, reader.typedList(decl.items.slice(1), `predicate ${predicate}`, decl, true));
      }
    } else if (head === ":functions") {
      readFunctions(reader, body, section, functions);
    } else if (head === ":action") {
      actionLists.push(section);
    } else {
      throw reader.unsupported(section, `the section ${head}`);
    }
  }
  typeParents.delete("object");
  // A type named only as a parent (`truck - vehicle` with no line for vehicle) is a subtype of object, as planners read it.
  for (const parent of [...typeParents.values()]) if (parent !== "object" && !typeParents.has(parent)) typeParents.set(parent, "object");
  const checkType = (type: string, at: SList | SExpr) => {
    if (type !== "object" && !typeParents.has(type)) throw reader.fail(at, `unknown type ${JSON.stringify(type)}`);
  };
  const context = { reader, predicates, functions, constants, checkType };
  const actions = actionLists.map((section) => readAction(context, section));
  const seen = new Set<string>();
  for (const action of actions) {
    if (seen.has(action.name)) throw reader.fail(action.at, `action ${JSON.stringify(action.name)} is defined twice`);
    seen.add(action.name);
  }
  return { name, requirements, typeParents, constants, predicates, functions, actions };
}

function readFunctions(reader: PddlReader, body: readonly SExpr[], section: SList, out: Map<string, readonly PddlParameter[]>): void {
  for (let i = 0; i < body.length; i++) {
    const item = body[i] as SExpr;
    if (item.kind === "atom" && item.text === "-") {
      const type = reader.atom(body[i + 1], "number after '-'", item);
      if (type.text !== "number") throw reader.unsupported(type, `a function of type ${type.text}`);
      i++;
      continue;
    }
    const decl = reader.list(item, "a function declaration like (total-cost)", section);
    const name = reader.name(decl.items[0], "a function name", decl);
    out.set(name, reader.typedList(decl.items.slice(1), `function ${name}`, decl, true));
  }
}

interface Context {
  readonly reader: PddlReader;
  readonly predicates: ReadonlyMap<string, readonly PddlParameter[]>;
  readonly functions: ReadonlyMap<string, readonly PddlParameter[]>;
  readonly constants: ReadonlyMap<string, string>;
  readonly checkType: (type: string, at: SExpr) => void;
}

function readAction(context: Context, section: SList): PddlActionSchema {
  const { reader } = context;
  const name = reader.name(section.items[1], "an action name", section);
  let parameters: PddlParameter[] = [];
  let preconditions: PddlLiteral[] = [];
  let effect: SExpr | undefined;
  for (let i = 2; i < section.items.length; i += 2) {
    const key = reader.atom(section.items[i], "a keyword like :parameters", section);
    const value = section.items[i + 1];
    if (value === undefined) throw reader.fail(key, `${key.text} has no value`);
    if (key.text === ":parameters") {
      parameters = reader.typedList(reader.list(value, ":parameters", key).items, `the parameters of ${name}`, key, true);
    } else if (key.text === ":precondition") {
      preconditions = reader.conjunction(value, `the precondition of ${name}`, key);
    } else if (key.text === ":effect") {
      effect = value;
    } else {
      throw reader.unsupported(key, `the action keyword ${key.text}`);
    }
  }
  const variables = new Map(parameters.map((p) => [p.name, p.type]));
  for (const p of parameters) context.checkType(p.type, section);
  const checkTerms = (args: readonly PddlTerm[], at: SExpr | PddlAtom["at"]) => {
    for (const arg of args) {
      if ("variable" in arg && !variables.has(arg.variable)) {
        throw reader.fail(at, `${arg.variable} is not a parameter of action ${name}`);
      }
      if ("object" in arg && !context.constants.has(arg.object)) {
        throw reader.fail(at, `${JSON.stringify(arg.object)} in action ${name} is not a declared constant`);
      }
    }
  };
  const checkAtom = (atom: PddlAtom) => {
    const declared = context.predicates.get(atom.predicate);
    if (!declared) throw reader.fail(atom.at, `unknown predicate ${JSON.stringify(atom.predicate)} in action ${name}`);
    if (declared.length !== atom.args.length) {
      throw reader.fail(atom.at, `predicate ${atom.predicate} takes ${declared.length} arguments, got ${atom.args.length}`);
    }
    checkTerms(atom.args, atom.at);
  };
  for (const literal of preconditions) {
    if (literal.kind === "atom") checkAtom(literal.atom);
    else checkTerms([literal.left, literal.right], section);
  }
  const adds: PddlAtom[] = [];
  const deletes: PddlAtom[] = [];
  const costs: PddlCost[] = [];
  if (effect !== undefined) readEffect(context, effect, name, { adds, deletes, costs }, checkAtom, checkTerms);
  return { name, parameters, preconditions, adds, deletes, costs, at: section };
}

function readEffect(
  context: Context,
  expr: SExpr,
  action: string,
  out: { adds: PddlAtom[]; deletes: PddlAtom[]; costs: PddlCost[] },
  checkAtom: (atom: PddlAtom) => void,
  checkTerms: (args: readonly PddlTerm[], at: SExpr) => void,
): void {
  const { reader } = context;
  const list = reader.list(expr, `an effect of ${action}`, expr);
  const head = reader.head(list);
  if (list.items.length === 0) return;
  if (head === "and") {
    for (const part of list.items.slice(1)) readEffect(context, part, action, out, checkAtom, checkTerms);
  } else if (head === "not") {
    const atom = reader.atomFormula(reader.list(list.items[1], "an atom under not", list));
    checkAtom(atom);
    out.deletes.push(atom);
  } else if (head === "increase") {
    const target = reader.list(list.items[1], "(total-cost)", list);
    if (reader.head(target) !== "total-cost" || target.items.length !== 1) {
      throw reader.unsupported(target, "a numeric effect on anything but (total-cost)");
    }
    const amount = list.items[2];
    if (amount?.kind === "atom") {
      const value = Number(amount.text);
      if (!Number.isFinite(value) || value < 0) throw reader.fail(amount, `a cost must be a number >= 0, got ${amount.text}`);
      out.costs.push({ kind: "constant", value });
    } else {
      const call = reader.list(amount, "a cost: a number or a function term", list);
      const fn = reader.name(call.items[0], "a function name", call);
      const declared = context.functions.get(fn);
      if (!declared) throw reader.fail(call, `unknown function ${JSON.stringify(fn)} in the cost of ${action}`);
      const args = call.items.slice(1).map((e) => reader.term(e, call));
      if (args.length !== declared.length) throw reader.fail(call, `function ${fn} takes ${declared.length} arguments, got ${args.length}`);
      checkTerms(args, call);
      out.costs.push({ kind: "function", name: fn, args, at: call });
    }
  } else if (head === "when" || head === "forall") {
    throw reader.unsupported(list, `(${head} …) in the effect of ${action} (conditional and universal effects)`);
  } else if (head === "decrease" || head === "assign" || head === "scale-up" || head === "scale-down") {
    throw reader.unsupported(list, `the numeric effect (${head} …)`);
  } else {
    const atom = reader.atomFormula(list);
    checkAtom(atom);
    out.adds.push(atom);
  }
}
