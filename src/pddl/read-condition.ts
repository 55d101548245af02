import type { PddlAtom, PddlCondition, PddlLiteral, PddlParameter } from "./ast.js";
import type { PddlReader, TermScope } from "./read.js";
import type { SExpr, SList, SourcePosition } from "./sexpr.js";

/** What a formula is read against: the declared predicates and the names in scope. */
export interface FormulaContext {
  readonly reader: PddlReader;
  readonly predicates: ReadonlyMap<string, readonly PddlParameter[]>;
  readonly functions: ReadonlyMap<string, readonly PddlParameter[]>;
  /** Whether `=` is a predicate: Fast Downward declares it with the `(:predicates …)` section. */
  readonly equality: boolean;
  /** Refuses a type never declared. */
  readonly checkType: (type: string, at: SourcePosition) => void;
  /** Where the formula is, for messages: `the precondition of pick`. */
  readonly where: string;
}

const NUMERIC_COMPARISONS = new Set(["<", ">", "<=", ">="]);

/**
 * Reads a condition as Fast Downward's parser does, into negation normal
 * form on the fly: `(and)`, `(or)`, `(not φ)`, `(imply φ ψ)` (read as
 * `(or (not φ) ψ)`), `(forall (?x - t) φ)`, `(exists (?x - t) φ)`, atoms
 * of declared predicates over names in scope, and `(= a b)`. `()` is true.
 */
export function readCondition(context: FormulaContext, expr: SExpr | undefined, near: SList, scope: TermScope): PddlCondition {
  const list = context.reader.list(expr, `a condition in ${context.where}`, near);
  return readPart(context, list, false, scope);
}

function readPart(context: FormulaContext, list: SList, negated: boolean, scope: TermScope): PddlCondition {
  const { reader } = context;
  if (list.items.length === 0) return { kind: negated ? "or" : "and", parts: [] };
  const tag = reader.head(list);
  const args = list.items.slice(1);
  const blockArgument = (arg: SExpr | undefined, index: number): SList => {
    if (arg?.kind !== "list" || arg.items.length === 0) {
      throw reader.fail(arg ?? list, `'${tag}' expects as argument #${index + 1} a non-empty (…) in ${context.where}`);
    }
    return arg;
  };
  if (tag === "and" || tag === "or") {
    const parts = args.map((arg, i) => readPart(context, blockArgument(arg, i), negated, scope));
    return junction((tag === "and") !== negated ? "and" : "or", parts);
  }
  if (tag === "not") {
    if (args.length !== 1) throw reader.fail(list, `'not' expects exactly one argument in ${context.where}`);
    return readPart(context, blockArgument(args[0], 0), !negated, scope);
  }
  if (tag === "imply") {
    if (args.length !== 2) throw reader.fail(list, `'imply' expects exactly two arguments in ${context.where}`);
    const premise = readPart(context, blockArgument(args[0], 0), !negated, scope);
    const conclusion = readPart(context, blockArgument(args[1], 1), negated, scope);
    return junction(negated ? "and" : "or", [premise, conclusion]);
  }
  if (tag === "forall" || tag === "exists") {
    if (list.items.length !== 3)
      throw reader.fail(list, `'${tag}' expects exactly two arguments (VARIABLES) CONDITION in ${context.where}`);
    const variables = list.items[1];
    if (variables?.kind !== "list" || variables.items.length === 0) {
      throw reader.fail(variables ?? list, `the variables of '${tag}' must be a non-empty (…) in ${context.where}`);
    }
    const parameters = reader.typedList(variables.items, `the variables of '${tag}'`, variables, { variables: true });
    for (const p of parameters) context.checkType(p.type, p.at);
    const inner = { objects: scope.objects, variables: new Set([...scope.variables, ...parameters.map((p) => p.name)]) };
    const body = readPart(context, blockArgument(list.items[2], 1), negated, inner);
    const universal = (tag === "forall") !== negated;
    return { kind: universal ? "forall" : "exists", parameters: parameters.map(({ name, type }) => ({ name, type })), body, at: list };
  }
  return readLiteral(context, list, negated, scope);
}

/** A literal: `(p t1 t2)` of a declared predicate, or `(= a b)`. */
export function readLiteral(context: FormulaContext, list: SList, negated: boolean, scope: TermScope): PddlLiteral {
  const { reader } = context;
  const tag = reader.head(list);
  if (tag === undefined) throw reader.fail(list, `expected a logical operator or a predicate name in ${context.where}, found a list`);
  if (tag === "=" && context.equality) {
    if (list.items.length !== 3)
      throw reader.fail(list, `predicate '=' of arity 2 used with ${list.items.length - 1} arguments in ${context.where}`);
    if (list.items[1]?.kind === "list" || list.items[2]?.kind === "list")
      throw reader.unsupported(list, `a numeric (= …) condition in ${context.where}`);
    return {
      kind: "equal",
      left: reader.term(list.items[1], list, scope),
      right: reader.term(list.items[2], list, scope),
      negated,
      at: list,
    };
  }
  const declared = context.predicates.get(tag);
  if (declared === undefined) {
    if (NUMERIC_COMPARISONS.has(tag) || tag === "=") throw reader.unsupported(list, `a numeric comparison (${tag} …) in ${context.where}`);
    throw reader.fail(list, `unknown predicate ${JSON.stringify(tag)} in ${context.where}`);
  }
  const args = list.items.slice(1).map((e) => reader.term(e, list, scope));
  if (args.length !== declared.length) {
    throw reader.fail(list, `predicate ${tag} of arity ${declared.length} used with ${args.length} arguments in ${context.where}`);
  }
  const atom: PddlAtom = { predicate: tag, args, at: list };
  return { kind: "atom", atom, negated };
}

/** `and`/`or` of parts, nested junctions of the same kind flattened and a single part unwrapped (Fast Downward's `simplified`). */
export function junction(kind: "and" | "or", parts: readonly PddlCondition[]): PddlCondition {
  const flat: PddlCondition[] = [];
  for (const part of parts) {
    if (part.kind === kind) flat.push(...part.parts);
    else flat.push(part);
  }
  return flat.length === 1 ? (flat[0] as PddlCondition) : { kind, parts: flat };
}
