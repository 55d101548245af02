import type { PddlActionSchema, PddlCondition, PddlDomain, PddlParameter } from "./ast.js";
import { PddlReader } from "./read.js";
import { type FormulaContext, readCondition } from "./read-condition.js";
import { readEffects } from "./read-effect.js";
import { readRequirements } from "./requirements.js";
import { readPddlList, type SExpr, type SList, type SourcePosition } from "./sexpr.js";

const HEADER_SECTIONS = [":requirements", ":types", ":constants", ":predicates", ":functions"];
/** Sections of PDDL 2.1-3.1 that Fast Downward refuses: refused as unsupported, not as malformed. */
const OTHER_PDDL_SECTIONS = new Set([":durative-action", ":process", ":event", ":constraints", ":timeless"]);

/**
 * Parses a PDDL domain with Fast Downward's grammar: `(define (domain NAME)
 * …)`, then `:requirements`, `:types` (a hierarchy), `:constants`,
 * `:predicates` and `:functions` once each in any order, then the actions,
 * each `(:action NAME [:parameters (…)] [:precondition φ] :effect e)` in
 * that order. Preconditions take `and`, `or`, `not`, `imply`, `forall`,
 * `exists` and `=`; effects take `and`, `not`, `forall`, `when` and
 * `(increase (total-cost) …)`. Malformed text is refused with
 * `PDDL_SYNTAX`, valid PDDL beyond that (numeric fluents, durative
 * actions, derived predicates) with `PDDL_UNSUPPORTED`, both naming the
 * file, line and column.
 *
 * @example
 * ```ts
 * const domain = parsePddlDomain("(define (domain d) (:predicates (p)) (:action a :parameters () :effect (p)))");
 * domain.actions[0]?.name; // "a"
 * ```
 */
export function parsePddlDomain(text: string, file = "domain.pddl"): PddlDomain {
  const reader = new PddlReader(file);
  const define = readPddlList(text, file);
  if (reader.head(define) !== "define") throw reader.fail(define, "a domain starts with (define (domain NAME) …)");
  const header = reader.block(define.items[1], "(domain NAME)", define);
  if (reader.head(header) !== "domain") throw reader.fail(header, `expected (domain NAME), found (${reader.head(header) ?? "…"} …)`);
  if (header.items.length !== 2) throw reader.fail(header, "(domain NAME) takes exactly one word after 'domain'");
  const name = reader.name(header.items[1], "a domain name", header);

  const requirements = new Set<string>([":strips"]);
  const typeParents = new Map<string, string>();
  const constants = new Map<string, string>();
  const constantsAt: SourcePosition[] = [];
  const predicates = new Map<string, readonly PddlParameter[]>();
  const functions = new Map<string, readonly PddlParameter[]>();
  let equality = false;
  const seen = new Set<string>();
  const actionLists: SList[] = [];
  for (const item of define.items.slice(2)) {
    const section = reader.list(item, "a section like (:predicates …)", define);
    const head = reader.head(section);
    if (head === ":action" || head === ":derived") {
      if (head === ":derived") throw reader.unsupported(section, "a derived predicate (:derived …)");
      actionLists.push(section);
      continue;
    }
    if (head === undefined || !HEADER_SECTIONS.includes(head)) {
      if (head !== undefined && OTHER_PDDL_SECTIONS.has(head)) throw reader.unsupported(section, `the section (${head} …)`);
      throw reader.fail(section, `expected a section like (:predicates …) or (:action …), found (${head ?? "…"} …)`);
    }
    if (actionLists.length > 0) throw reader.fail(section, `(${head} …) must come before the actions`);
    if (seen.has(head)) throw reader.fail(section, `a second (${head} …) section`);
    seen.add(head);
    const body = section.items.slice(1);
    if (head === ":requirements") {
      for (const label of readRequirements(reader, body, section)) requirements.add(label);
    } else if (head === ":types") {
      for (const t of reader.typedList(body, "(:types …)", section, { variables: false })) {
        if (t.name === "number") throw reader.fail(t.at, 'the type "number" is reserved and cannot be declared');
        if (t.name !== "object") typeParents.set(t.name, t.type);
      }
    } else if (head === ":constants") {
      for (const c of reader.typedList(body, "(:constants …)", section, { variables: false })) {
        if (constants.has(c.name)) throw reader.fail(c.at, `the constant ${c.name} is declared twice`);
        constants.set(c.name, c.type);
        constantsAt.push(c.at);
      }
    } else if (head === ":predicates") {
      equality = true;
      for (const entry of body) {
        const decl = reader.block(entry, "a predicate declaration like (at ?x - place)", section);
        const predicate = reader.name(decl.items[0], "a predicate name", decl);
        predicates.set(
          predicate,
          reader.typedList(decl.items.slice(1), `predicate ${predicate}`, decl, { variables: true, eitherAllowed: true }),
        );
      }
    } else {
      readFunctions(reader, body, section, functions);
    }
  }
  // A type named only as a parent (`truck - vehicle` with no line for vehicle) is a subtype of object.
  for (const parent of [...typeParents.values()]) if (parent !== "object" && !typeParents.has(parent)) typeParents.set(parent, "object");
  const checkType = (type: string, at: SourcePosition) => {
    if (type !== "object" && !typeParents.has(type)) throw reader.fail(at, `unknown type ${JSON.stringify(type)}`);
  };
  [...constants.values()].forEach((type, i) => {
    checkType(type, constantsAt[i] as SourcePosition);
  });
  const formulas: Omit<FormulaContext, "where"> = { reader, predicates, functions, equality, checkType };
  const actions: PddlActionSchema[] = [];
  for (const section of actionLists) {
    const action = readAction(formulas, section, constants, checkType);
    if (action) actions.push(action);
  }
  return { name, file, requirements, typeParents, constants, predicates, functions, actions };
}

function readFunctions(reader: PddlReader, body: readonly SExpr[], section: SList, out: Map<string, readonly PddlParameter[]>): void {
  let pending: SList[] = [];
  const flush = () => {
    for (const decl of pending) {
      const name = reader.name(decl.items[0], "a function name", decl);
      out.set(name, reader.typedList(decl.items.slice(1), `function ${name}`, decl, { variables: true }));
    }
    pending = [];
  };
  for (let i = 0; i < body.length; i++) {
    const item = body[i] as SExpr;
    if (item.kind === "atom" && item.text === "-") {
      const type = reader.atom(body[i + 1], "a function type after '-'", item);
      if (type.text !== "number") throw reader.unsupported(type, `a function of type ${type.text} (object fluents)`);
      flush();
      i++;
      continue;
    }
    pending.push(reader.block(item, "a function declaration like (total-cost)", section));
  }
  flush();
}

/** `(:action NAME [:parameters (…)] [:precondition φ] :effect e)`, in Fast Downward's order; undefined for an action without effects (dropped). */
function readAction(
  formulas: Omit<FormulaContext, "where">,
  section: SList,
  constants: ReadonlyMap<string, string>,
  checkType: (type: string, at: SourcePosition) => void,
): PddlActionSchema | undefined {
  const { reader } = formulas;
  const syntax = "(:action NAME [:parameters (…)] [:precondition φ] :effect e)";
  if (section.items.length < 4) throw reader.fail(section, `an action is ${syntax}`);
  const name = reader.name(section.items[1], "an action name", section);
  const context: FormulaContext = { ...formulas, where: `action ${name}` };
  const items = section.items;
  let i = 2;
  const keyword = (expected: string) => {
    const item = items[i];
    return item?.kind === "atom" && item.text === expected;
  };
  let parameters: (PddlParameter & { at: SourcePosition })[] = [];
  if (keyword(":parameters")) {
    const list = reader.list(items[i + 1], `the parameters of ${name}`, items[i] as SExpr);
    parameters = reader.typedList(list.items, `the parameters of ${name}`, list, { variables: true });
    const names = new Set<string>();
    for (const p of parameters) {
      if (names.has(p.name)) throw reader.fail(p.at, `the parameter ${p.name} of ${name} is declared twice`);
      names.add(p.name);
      checkType(p.type, p.at);
    }
    i += 2;
  }
  const scope = { objects: constants, variables: new Set(parameters.map((p) => p.name)) };
  let precondition: PddlCondition = { kind: "and", parts: [] };
  if (keyword(":precondition")) {
    precondition = readCondition(context, items[i + 1], section, scope);
    i += 2;
  }
  if (!keyword(":effect")) {
    const found = items[i];
    throw reader.fail(
      found ?? section,
      `expected :effect in ${name}${found?.kind === "atom" ? `, found ${found.text}` : ""}: an action is ${syntax}`,
    );
  }
  const effect = reader.list(items[i + 1], `the effect of ${name}`, items[i] as SExpr);
  const extra = items[i + 2];
  if (extra !== undefined) {
    const misplaced = extra.kind === "atom" && (extra.text === ":parameters" || extra.text === ":precondition");
    throw reader.fail(
      extra,
      `${misplaced ? `${extra.text} after :effect` : "too many fields"} in ${name}: an action is ${syntax}, in that order`,
    );
  }
  const { effects, cost } = effect.items.length === 0 ? { effects: [], cost: undefined } : readEffects(context, effect, scope);
  // Fast Downward drops an action that changes nothing (its cost alone is no effect).
  if (effects.length === 0) return undefined;
  return { name, parameters: parameters.map(({ name: n, type }) => ({ name: n, type })), precondition, effects, cost, at: section };
}
