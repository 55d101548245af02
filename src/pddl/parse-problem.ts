import type { PddlCondition, PddlDomain, PddlGroundAtom, PddlProblem } from "./ast.js";
import { PddlReader } from "./read.js";
import { type FormulaContext, readCondition, readLiteral } from "./read-condition.js";
import { numberError } from "./read-effect.js";
import { readRequirements } from "./requirements.js";
import { readPddlList, type SExpr, type SList, type SourcePosition } from "./sexpr.js";

const NO_VARIABLES: ReadonlySet<string> = new Set();

/** How formulas of a problem are read: against the domain's predicates, over the task's objects. */
function formulaContext(reader: PddlReader, domain: PddlDomain, where: string): FormulaContext {
  return {
    reader,
    predicates: domain.predicates,
    functions: domain.functions,
    // Fast Downward declares '=' with the (:predicates …) section; a domain with any predicate had one.
    equality: true,
    checkType: (type, at) => {
      if (type !== "object" && !domain.typeParents.has(type)) throw reader.fail(at, `unknown type ${JSON.stringify(type)}`);
    },
    where,
  };
}

/** @internal A goal formula over the task's objects (the problem's `(:goal …)`, or one written later). */
export function readPddlGoal(
  reader: PddlReader,
  expr: SExpr | undefined,
  near: SList,
  domain: PddlDomain,
  objects: ReadonlyMap<string, string>,
): PddlCondition {
  return readCondition(formulaContext(reader, domain, "the goal"), expr, near, { objects, variables: NO_VARIABLES });
}

/**
 * Parses a PDDL problem against its domain, with Fast Downward's grammar:
 * `(define (problem NAME) (:domain NAME) [(:requirements …)] [(:objects …)]
 * (:init …) (:goal φ) [(:metric minimize (total-cost))])` in that order.
 * The init lists atoms (a `(not …)` atom is false, as it is anyway) and
 * `(= (f a b) n)` values for action costs; the goal is any condition over
 * the task's objects. Names are checked against the domain (predicates,
 * arities, objects, types).
 *
 * @example
 * ```ts
 * const problem = parsePddlProblem("(define (problem p) (:domain d) (:init) (:goal (p)))", domain);
 * problem.goal; // { kind: "atom", atom: { predicate: "p", args: [] }, negated: false }
 * ```
 */
export function parsePddlProblem(text: string, domain: PddlDomain, file = "problem.pddl"): PddlProblem {
  const reader = new PddlReader(file);
  const define = readPddlList(text, file);
  if (reader.head(define) !== "define") throw reader.fail(define, "a problem starts with (define (problem NAME) …)");
  const sections = define.items.slice(1);
  const fields = "a problem holds at least (define (problem NAME) (:domain NAME) (:init …) (:goal …))";
  let next = 0;
  const section = (names: readonly string[]): SList => {
    const item = sections[next];
    if (item === undefined) throw reader.fail(define, fields);
    const list = reader.list(item, `(${names[0]} …)`, define);
    const head = reader.head(list);
    if (head === undefined || !names.includes(head)) {
      throw reader.fail(list, `expected ${names.map((n) => `(${n} …)`).join(" or ")}, found (${head ?? "…"} …)`);
    }
    next++;
    return list;
  };
  const header = section(["problem"]);
  if (header.items.length !== 2) throw reader.fail(header, "(problem NAME) takes exactly one word after 'problem'");
  const name = reader.name(header.items[1], "a problem name", header);
  const domainLine = section([":domain"]);
  if (domainLine.items.length !== 2) throw reader.fail(domainLine, "(:domain NAME) takes exactly one word after ':domain'");
  const domainName = reader.name(domainLine.items[1], "the domain name", domainLine);
  if (domainName !== domain.name) {
    throw reader.fail(
      domainLine,
      `the problem is for domain ${JSON.stringify(domainName)}, but the domain is ${JSON.stringify(domain.name)}`,
    );
  }
  let current = section([":requirements", ":objects", ":init"]);
  if (reader.head(current) === ":requirements") {
    readRequirements(reader, current.items.slice(1), current);
    current = section([":objects", ":init"]);
  }
  const objects = new Map<string, string>(domain.constants);
  if (reader.head(current) === ":objects") {
    for (const o of reader.typedList(current.items.slice(1), "(:objects …)", current, { variables: false })) {
      if (objects.has(o.name))
        throw reader.fail(o.at, `the object ${o.name} is declared twice (objects and the domain's constants are one set)`);
      if (o.type !== "object" && !domain.typeParents.has(o.type))
        throw reader.fail(o.at, `object ${o.name} has the unknown type ${JSON.stringify(o.type)}`);
      objects.set(o.name, o.type);
    }
    current = section([":init"]);
  }
  const { init, initValues } = readInit(reader, current, domain, objects);
  const goalSection = section([":goal"]);
  if (goalSection.items.length !== 2 || goalSection.items[1]?.kind !== "list" || goalSection.items[1].items.length === 0) {
    throw reader.fail(goalSection, "(:goal …) takes exactly one non-empty condition");
  }
  const goal = readPddlGoal(reader, goalSection.items[1], goalSection, domain, objects);
  let minimizeTotalCost = false;
  const metric = sections[next];
  if (metric !== undefined) {
    const list = reader.list(metric, "(:metric minimize (total-cost))", define);
    if (reader.head(list) !== ":metric") throw reader.fail(list, "after the goal only (:metric minimize (total-cost)) may follow");
    const expr = list.items[2];
    const direction = list.items[1];
    if (
      list.items.length !== 3 ||
      direction?.kind !== "atom" ||
      direction.text !== "minimize" ||
      expr?.kind !== "list" ||
      expr.items.length !== 1 ||
      reader.head(expr) !== "total-cost"
    ) {
      throw reader.unsupported(list, "a metric other than (:metric minimize (total-cost))");
    }
    minimizeTotalCost = true;
    next++;
  }
  const extra = sections[next];
  if (extra?.kind === "list" && reader.head(extra) === ":constraints") throw reader.unsupported(extra, "the section (:constraints …)");
  if (extra !== undefined) throw reader.fail(extra, `after the ${minimizeTotalCost ? "metric" : "goal"} nothing may follow`);
  return { name, file, domainName, objects, init, initValues, goal, minimizeTotalCost };
}

function readInit(
  reader: PddlReader,
  section: SList,
  domain: PddlDomain,
  objects: ReadonlyMap<string, string>,
): { init: PddlGroundAtom[]; initValues: Map<string, number> } {
  const context = formulaContext(reader, domain, "the init");
  const scope = { objects, variables: NO_VARIABLES };
  const truth = new Map<string, { atom: PddlGroundAtom; value: boolean; at: SourcePosition }>();
  const initValues = new Map<string, number>();
  for (const item of section.items.slice(1)) {
    const fact = reader.block(item, "an initial fact like (at a b) or (= (f a) 3)", section);
    if (reader.head(fact) === "=") {
      readAssignment(reader, fact, initValues);
      continue;
    }
    let atomList = fact;
    let value = true;
    if (reader.head(fact) === "not") {
      if (fact.items.length !== 2) throw reader.fail(fact, "a false initial fact is (not (PREDICATE OBJECTS*))");
      atomList = reader.block(fact.items[1], "an atom under 'not'", fact);
      value = false;
    }
    const literal = readLiteral({ ...context, equality: false }, atomList, false, scope);
    if (literal.kind !== "atom") throw reader.fail(atomList, "expected an atom");
    const args = literal.atom.args.map((t) => ("object" in t ? t.object : t.variable));
    const atom = { predicate: literal.atom.predicate, args };
    const key = [atom.predicate, ...args].join(" ");
    const before = truth.get(key);
    if (before !== undefined && before.value !== value) {
      throw reader.fail(atomList, `(${key}) is both true and false in the init (see line ${before.at.line})`);
    }
    if (before === undefined) truth.set(key, { atom, value, at: atomList });
  }
  const init: PddlGroundAtom[] = [];
  for (const { atom, value } of truth.values()) if (value) init.push(atom);
  return { init, initValues };
}

/** `(= (f a b) n)` or `(= f n)`: a value for a function; n a non-negative integer, as Fast Downward requires. */
function readAssignment(reader: PddlReader, fact: SList, out: Map<string, number>): void {
  const where = { reader, where: "the init" };
  if (fact.items.length !== 3) throw reader.fail(fact, "an assignment is (= (FUNCTION OBJECTS*) NUMBER)");
  const head = fact.items[1] as SExpr;
  const term = head.kind === "list" ? head : { kind: "list" as const, items: [head], line: head.line, column: head.column };
  const fn = reader.name(term.items[0], "a function name", term);
  const args = term.items.slice(1).map((e) => reader.name(e, "an object", term));
  const value = reader.atom(fact.items[2], "a number", fact);
  if (!/^\d+$/.test(value.text)) {
    if (value.text.startsWith("-") || /^[\d.]+$/.test(value.text)) throw numberError(where, value);
    throw reader.fail(value, `illegal value ${JSON.stringify(value.text)} in the init: expected a number`);
  }
  const key = [fn, ...args].join(" ");
  const number = Number(value.text);
  const before = out.get(key);
  if (before !== undefined && before !== number)
    throw reader.fail(fact, `conflicting values for (${key}) in the init: ${before} and ${number}`);
  out.set(key, number);
}
