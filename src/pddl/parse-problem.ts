import type { PddlDomain, PddlGroundAtom, PddlLiteral, PddlProblem } from "./ast.js";
import { PddlReader } from "./read.js";
import { readSExpressions, type SExpr, type SList, type SourcePosition } from "./sexpr.js";

function checkGroundAtom(
  reader: PddlReader,
  domain: PddlDomain,
  objects: ReadonlyMap<string, string>,
  predicate: string,
  args: readonly string[],
  at: SourcePosition,
): void {
  const declared = domain.predicates.get(predicate);
  if (!declared) throw reader.fail(at, `unknown predicate ${JSON.stringify(predicate)}`);
  if (declared.length !== args.length)
    throw reader.fail(at, `predicate ${predicate} takes ${declared.length} arguments, got ${args.length}`);
  for (const arg of args) if (!objects.has(arg)) throw reader.fail(at, `unknown object ${JSON.stringify(arg)}`);
}

/** @internal A goal formula over the problem's objects: a conjunction of ground literals, each checked against the domain. */
export function readPddlGoal(
  reader: PddlReader,
  expr: SExpr | undefined,
  near: SourcePosition,
  domain: PddlDomain,
  objects: ReadonlyMap<string, string>,
): PddlLiteral[] {
  const goal = reader.conjunction(expr, "the goal", near);
  for (const literal of goal) {
    if (literal.kind !== "atom") continue;
    const args = literal.atom.args.map((a) => {
      if ("variable" in a) throw reader.fail(literal.atom.at, `the goal uses the variable ${a.variable}`);
      return a.object;
    });
    checkGroundAtom(reader, domain, objects, literal.atom.predicate, args, literal.atom.at);
  }
  return goal;
}

/**
 * Parses a PDDL problem against its domain: objects, the initial state
 * (atoms and `(= (f a b) n)` values for action costs), a goal that is a
 * conjunction of literals, and `(:metric minimize (total-cost))`. Names
 * are checked against the domain (predicates, arities, objects, types).
 *
 * @example
 * ```ts
 * const problem = parsePddlProblem("(define (problem p) (:domain d) (:init) (:goal (p)))", domain);
 * problem.goal.length; // 1
 * ```
 */
export function parsePddlProblem(text: string, domain: PddlDomain, file = "problem.pddl"): PddlProblem {
  const reader = new PddlReader(file);
  const top = readSExpressions(text, file);
  if (top.length !== 1) throw reader.fail(top[1] ?? { line: 1, column: 1 }, "expected exactly one (define (problem …) …)");
  const { name, sections } = reader.sections(top[0] as SList, "problem");
  let domainName: string | undefined;
  const objects = new Map<string, string>(domain.constants);
  const init: PddlGroundAtom[] = [];
  const initValues = new Map<string, number>();
  let goal: PddlLiteral[] | undefined;
  let minimizeTotalCost = false;
  const knownType = (type: string) => type === "object" || domain.typeParents.has(type);
  const checkGround = (predicate: string, args: readonly string[], at: SList) => {
    const declared = domain.predicates.get(predicate);
    if (!declared) throw reader.fail(at, `unknown predicate ${JSON.stringify(predicate)}`);
    if (declared.length !== args.length)
      throw reader.fail(at, `predicate ${predicate} takes ${declared.length} arguments, got ${args.length}`);
    for (const arg of args) if (!objects.has(arg)) throw reader.fail(at, `unknown object ${JSON.stringify(arg)}`);
  };
  for (const section of sections) {
    const head = reader.head(section) as string;
    const body = section.items.slice(1);
    if (head === ":domain") {
      domainName = reader.name(body[0], "the domain name", section);
      if (domainName !== domain.name) {
        throw reader.fail(
          section,
          `the problem is for domain ${JSON.stringify(domainName)}, but the domain is ${JSON.stringify(domain.name)}`,
        );
      }
    } else if (head === ":requirements") {
      // Problems may repeat requirements; the domain's are the ones that count.
    } else if (head === ":objects") {
      for (const o of reader.typedList(body, "(:objects …)", section, false)) {
        if (!knownType(o.type)) throw reader.fail(section, `object ${o.name} has the unknown type ${JSON.stringify(o.type)}`);
        objects.set(o.name, o.type);
      }
    } else if (head === ":init") {
      for (const item of body) {
        const fact = reader.list(item, "an initial fact like (at a b)", section);
        if (reader.head(fact) === "=") {
          const term = reader.list(fact.items[1], "a function term like (road-length a b)", fact);
          const fn = reader.name(term.items[0], "a function name", term);
          if (!domain.functions.has(fn)) throw reader.fail(term, `unknown function ${JSON.stringify(fn)}`);
          const args = term.items.slice(1).map((e) => reader.name(e, "an object", term));
          const value = Number(reader.atom(fact.items[2], "a number", fact).text);
          if (!Number.isFinite(value)) throw reader.fail(fact, `the value of (${fn} …) must be a number`);
          initValues.set([fn, ...args].join(" "), value);
          continue;
        }
        if (reader.head(fact) === "not") throw reader.fail(fact, "the initial state lists true atoms only (closed world): drop (not …)");
        const predicate = reader.name(fact.items[0], "a predicate name", fact);
        const args = fact.items.slice(1).map((e) => reader.name(e, "an object", fact));
        checkGround(predicate, args, fact);
        init.push({ predicate, args });
      }
    } else if (head === ":goal") {
      goal = readPddlGoal(reader, body[0], section, domain, objects);
    } else if (head === ":metric") {
      const direction = reader.atom(body[0], "minimize", section).text;
      const expr = reader.list(body[1], "(total-cost)", section);
      if (direction !== "minimize" || reader.head(expr) !== "total-cost" || expr.items.length !== 1) {
        throw reader.unsupported(section, "a metric other than (:metric minimize (total-cost))");
      }
      minimizeTotalCost = true;
    } else {
      throw reader.unsupported(section, `the section ${head}`);
    }
  }
  if (goal === undefined) throw reader.fail(top[0] as SList, "the problem has no (:goal …)");
  return { name, domainName: domainName ?? domain.name, objects, init, initValues, goal, minimizeTotalCost };
}
