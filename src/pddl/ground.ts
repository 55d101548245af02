import { LangGoapError } from "../core/errors.js";
import type { PddlActionSchema, PddlAtom, PddlDomain, PddlLiteral, PddlProblem, PddlTerm } from "./ast.js";

/** A ground atom, keyed `predicate obj1 obj2` (object names hold no spaces). */
export type AtomKey = string;

/** One grounded action. */
export interface GroundOperator {
  readonly schema: string;
  readonly args: readonly string[];
  /** Fluent atoms that must hold. */
  readonly pre: readonly AtomKey[];
  /** Fluent atoms that must not hold (only those that can ever hold). */
  readonly preFalse: readonly AtomKey[];
  readonly add: readonly AtomKey[];
  /** Deleted atoms, less those the operator also adds (add wins, as in PDDL). */
  readonly del: readonly AtomKey[];
  readonly cost: number;
}

/** A grounded task: the atoms that can ever hold, the operators that can ever apply. */
export interface GroundTask extends GroundGoal {
  /** Atoms of predicates some action changes, reachable from the initial state, in the order found. */
  readonly fluents: readonly AtomKey[];
  readonly init: ReadonlySet<AtomKey>;
  readonly operators: readonly GroundOperator[];
  /** Grounds another goal over the same task (goals written later, e.g. by a language model). */
  groundGoal(literals: readonly PddlLiteral[]): GroundGoal;
}

/** Options of {@link groundPddl}. */
export interface GroundOptions {
  /** Grounded operators at most; past it grounding stops with `BUDGET_EXCEEDED`. @defaultValue 2000000 */
  readonly maxOperators?: number;
}

interface Schema {
  readonly action: PddlActionSchema;
  readonly paramIndex: ReadonlyMap<string, number>;
  readonly allowed: readonly ReadonlySet<string>[];
  readonly positive: readonly PddlAtom[];
  readonly negative: readonly PddlAtom[];
  readonly equalities: readonly Extract<PddlLiteral, { kind: "equal" }>[];
  /** Negative preconditions on atoms no action changes: decided by the initial state alone. */
  readonly staticNegative: readonly PddlAtom[];
  readonly init: ReadonlySet<AtomKey>;
}

/**
 * Grounds a task by reachability, as Fast Downward's translator does, not by
 * the cross product of objects: an operator is made only once every positive
 * precondition can hold in the relaxed task (delete effects ignored), found
 * semi-naively (each newly reachable atom is joined with the atoms reached
 * so far). Static predicates (no action changes them) are checked while
 * grounding and leave the operators; negative preconditions on atoms that
 * can never hold are dropped.
 */
export function groundPddl(domain: PddlDomain, problem: PddlProblem, options: GroundOptions = {}): GroundTask {
  const maxOperators = options.maxOperators ?? 2_000_000;
  const changed = new Set<string>();
  for (const a of domain.actions) for (const atom of [...a.adds, ...a.deletes]) changed.add(atom.predicate);
  const objectsOf = objectsByType(domain, problem);

  const reached = new Set<AtomKey>();
  const index = new AtomIndex();
  const queue: string[][] = [];
  const reach = (predicate: string, args: readonly string[]) => {
    const key = atomKey(predicate, args);
    if (reached.has(key)) return;
    reached.add(key);
    const tuple = [predicate, ...args];
    index.add(tuple);
    queue.push(tuple);
  };
  for (const atom of problem.init) reach(atom.predicate, atom.args);
  const init = new Set(reached);
  const schemas = domain.actions.map((action) => prepare(action, objectsOf, changed, init));

  const operators: (GroundOperator & { addAtoms: unknown })[] = [];
  const made = new Set<string>();
  const emit = (schema: Schema, binding: readonly string[]) => {
    const key = `${schema.action.name} ${binding.join(" ")}`;
    if (made.has(key)) return;
    made.add(key);
    if (operators.length >= maxOperators) {
      throw new LangGoapError("BUDGET_EXCEEDED", `grounding made more than ${maxOperators} operators (option maxOperators)`, {
        maxOperators,
      });
    }
    const op = instantiate(schema, binding, changed, problem);
    operators.push(op);
    for (const a of op.addAtoms) reach(a.predicate, a.args);
  };
  // Schemas with no positive fluent precondition fire from the start; the rest fire when an atom they need appears.
  for (const schema of schemas) join(schema, -1, undefined, index, emit);
  for (let next = 0; next < queue.length; next++) {
    const tuple = queue[next] as string[];
    for (const schema of schemas) {
      schema.positive.forEach((literal, i) => {
        if (literal.predicate === tuple[0]) join(schema, i, tuple, index, emit);
      });
    }
  }

  const fluents = [...reached].filter((key) => changed.has(predicateOf(key)));
  const goal = groundGoal(problem.goal, changed, init, reached);
  return {
    fluents,
    init,
    operators: operators.map(({ addAtoms: _, ...op }) => ({ ...op, preFalse: op.preFalse.filter((k) => reached.has(k)) })),
    ...goal,
    groundGoal: (literals) => groundGoal(literals, changed, init, reached),
  };
}

/** A ground goal: atoms that must hold, atoms that must not, and whether the unchanging atoms already rule it out. */
export interface GroundGoal {
  readonly goalTrue: readonly AtomKey[];
  /** Only atoms that can ever hold (the rest are false anyway). */
  readonly goalFalse: readonly AtomKey[];
  readonly staticGoalViolated: boolean;
}

function groundGoal(
  literals: readonly PddlLiteral[],
  changed: ReadonlySet<string>,
  init: ReadonlySet<AtomKey>,
  reached: ReadonlySet<AtomKey>,
): GroundGoal {
  const goalTrue: AtomKey[] = [];
  const goalFalse: AtomKey[] = [];
  let staticGoalViolated = false;
  for (const literal of literals) {
    if (literal.kind === "equal") {
      const same = termObject(literal.left) === termObject(literal.right);
      if (same === literal.negated) staticGoalViolated = true;
      continue;
    }
    const key = atomKey(literal.atom.predicate, literal.atom.args.map(termObject));
    if (!changed.has(literal.atom.predicate)) {
      if (init.has(key) === literal.negated) staticGoalViolated = true;
    } else if (literal.negated) {
      if (reached.has(key)) goalFalse.push(key);
    } else {
      goalTrue.push(key);
    }
  }
  return { goalTrue, goalFalse, staticGoalViolated };
}

/** `pred a b` */
export function atomKey(predicate: string, args: readonly string[]): AtomKey {
  return args.length === 0 ? predicate : `${predicate} ${args.join(" ")}`;
}

function predicateOf(key: AtomKey): string {
  const space = key.indexOf(" ");
  return space < 0 ? key : key.slice(0, space);
}

function termObject(term: PddlTerm): string {
  return "object" in term ? term.object : term.variable;
}

function objectsByType(domain: PddlDomain, problem: PddlProblem): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>([["object", new Set()]]);
  for (const [object, type] of problem.objects) {
    // Walk up the hierarchy; the visited set stops on a cyclic declaration.
    const visited = new Set<string>();
    for (let t: string | undefined = type; t !== undefined && !visited.has(t); t = domain.typeParents.get(t)) {
      visited.add(t);
      const set = out.get(t) ?? new Set<string>();
      out.set(t, set);
      set.add(object);
    }
    (out.get("object") as Set<string>).add(object);
  }
  return out;
}

function prepare(
  action: PddlActionSchema,
  objectsOf: ReadonlyMap<string, ReadonlySet<string>>,
  changed: ReadonlySet<string>,
  init: ReadonlySet<AtomKey>,
): Schema {
  const paramIndex = new Map(action.parameters.map((p, i) => [p.name, i]));
  const allowed = action.parameters.map((p) => objectsOf.get(p.type) ?? new Set<string>());
  const positive: PddlAtom[] = [];
  const negative: PddlAtom[] = [];
  const equalities: Extract<PddlLiteral, { kind: "equal" }>[] = [];
  for (const literal of action.preconditions) {
    if (literal.kind === "equal") equalities.push(literal);
    else (literal.negated ? negative : positive).push(literal.atom);
  }
  const staticNegative = negative.filter((atom) => !changed.has(atom.predicate));
  return { action, paramIndex, allowed, positive, negative, equalities, staticNegative, init };
}

/**
 * Every binding of `schema` whose positive preconditions all hold in the
 * reached atoms, with literal `seed` bound to `tuple` (none: `-1`), passed
 * to `emit`. Backtracking over the literals in order; parameters no positive
 * precondition mentions range over their type.
 */
function join(
  schema: Schema,
  seed: number,
  tuple: readonly string[] | undefined,
  index: AtomIndex,
  emit: (schema: Schema, binding: readonly string[]) => void,
): void {
  const n = schema.action.parameters.length;
  const binding: (string | undefined)[] = new Array(n).fill(undefined);
  if (seed < 0 && schema.positive.length > 0) {
    // Seeded joins find every binding once an atom appears; an unseeded one only serves schemas with nothing to wait for.
    return;
  }
  const unify = (atom: PddlAtom, values: readonly string[], bound: number[]): boolean => {
    for (let i = 0; i < atom.args.length; i++) {
      const term = atom.args[i] as PddlTerm;
      const value = values[i + 1] as string;
      if ("object" in term) {
        if (term.object !== value) return false;
        continue;
      }
      const index = schema.paramIndex.get(term.variable) as number;
      const current = binding[index];
      if (current === undefined) {
        if (!(schema.allowed[index] as ReadonlySet<string>).has(value)) return false;
        binding[index] = value;
        bound.push(index);
      } else if (current !== value) {
        return false;
      }
    }
    return true;
  };
  const undo = (bound: number[]) => {
    for (const index of bound) binding[index] = undefined;
  };
  const rest = joinOrder(schema, seed);
  const free = () => {
    const open: number[] = [];
    for (let i = 0; i < n; i++) if (binding[i] === undefined) open.push(i);
    return open;
  };
  const finish = (open: number[], k: number) => {
    if (k === open.length) {
      if (admissible(schema, binding as string[])) emit(schema, [...(binding as string[])]);
      return;
    }
    const index = open[k] as number;
    for (const value of schema.allowed[index] as ReadonlySet<string>) {
      binding[index] = value;
      finish(open, k + 1);
    }
    binding[index] = undefined;
  };
  const step = (k: number) => {
    if (k === rest.length) return finish(free(), 0);
    const atom = rest[k] as PddlAtom;
    for (const values of index.candidates(atom, (variable) => binding[schema.paramIndex.get(variable) as number])) {
      const bound: number[] = [];
      if (unify(atom, values, bound)) step(k + 1);
      undo(bound);
    }
  };
  if (seed >= 0) {
    const bound: number[] = [];
    if (!unify(schema.positive[seed] as PddlAtom, tuple as string[], bound)) return;
  }
  step(0);
}

/** Reached atoms by predicate, and by predicate, argument position and value, so a join reads only the atoms that can match. */
class AtomIndex {
  readonly #all = new Map<string, string[][]>();
  readonly #byArgument = new Map<string, string[][]>();

  add(tuple: string[]): void {
    push(this.#all, tuple[0] as string, tuple);
    for (let i = 1; i < tuple.length; i++) push(this.#byArgument, `${tuple[0]}\u0000${i}\u0000${tuple[i]}`, tuple);
  }

  /** The atoms that can match `atom`, narrowed by its first argument that is a constant or already bound. */
  candidates(atom: PddlAtom, boundValue: (variable: string) => string | undefined): readonly string[][] {
    for (let i = 0; i < atom.args.length; i++) {
      const term = atom.args[i] as PddlTerm;
      const value = "object" in term ? term.object : boundValue(term.variable);
      if (value !== undefined) return this.#byArgument.get(`${atom.predicate}\u0000${i + 1}\u0000${value}`) ?? [];
    }
    return this.#all.get(atom.predicate) ?? [];
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const joinOrders = new WeakMap<Schema, Map<number, readonly PddlAtom[]>>();

/**
 * The positive preconditions other than `seed`, ordered greedily so each
 * next literal shares the most variables with those before it (bound
 * variables narrow the candidates through the index). Computed once per
 * schema and seed.
 */
function joinOrder(schema: Schema, seed: number): readonly PddlAtom[] {
  const orders = joinOrders.get(schema) ?? new Map<number, readonly PddlAtom[]>();
  joinOrders.set(schema, orders);
  const cached = orders.get(seed);
  if (cached) return cached;
  const bound = new Set<string>();
  const variablesOf = (atom: PddlAtom) => atom.args.flatMap((t) => ("variable" in t ? [t.variable] : []));
  if (seed >= 0) for (const v of variablesOf(schema.positive[seed] as PddlAtom)) bound.add(v);
  const left = schema.positive.filter((_, i) => i !== seed);
  const order: PddlAtom[] = [];
  while (left.length > 0) {
    let best = 0;
    let bestScore = -1;
    left.forEach((atom, i) => {
      const score = atom.args.filter((t) => "object" in t || bound.has(t.variable)).length;
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    const [atom] = left.splice(best, 1) as [PddlAtom];
    order.push(atom);
    for (const v of variablesOf(atom)) bound.add(v);
  }
  orders.set(seed, order);
  return order;
}

/** Equalities and negative preconditions on static atoms are checked once every parameter is bound. */
function admissible(schema: Schema, binding: readonly string[]): boolean {
  const value = (term: PddlTerm) => ("object" in term ? term.object : (binding[schema.paramIndex.get(term.variable) as number] as string));
  for (const eq of schema.equalities) if ((value(eq.left) === value(eq.right)) === eq.negated) return false;
  for (const atom of schema.staticNegative) if (schema.init.has(atomKey(atom.predicate, atom.args.map(value)))) return false;
  return true;
}

function instantiate(
  schema: Schema,
  binding: readonly string[],
  changed: ReadonlySet<string>,
  problem: PddlProblem,
): GroundOperator & { addAtoms: { predicate: string; args: string[] }[] } {
  const value = (term: PddlTerm) => ("object" in term ? term.object : (binding[schema.paramIndex.get(term.variable) as number] as string));
  const ground = (atom: PddlAtom) => ({ predicate: atom.predicate, args: atom.args.map(value) });
  const pre: AtomKey[] = [];
  const preFalse: AtomKey[] = [];
  for (const atom of schema.positive) {
    if (changed.has(atom.predicate)) pre.push(atomKey(atom.predicate, atom.args.map(value)));
  }
  for (const atom of schema.negative) {
    const key = atomKey(atom.predicate, atom.args.map(value));
    if (changed.has(atom.predicate)) preFalse.push(key);
  }
  const addAtoms = schema.action.adds.map(ground);
  const add = [...new Set(addAtoms.map((a) => atomKey(a.predicate, a.args)))];
  const adding = new Set(add);
  const del = [...new Set(schema.action.deletes.map((a) => atomKey(a.predicate, a.args.map(value))))].filter((k) => !adding.has(k));
  let cost = 1;
  if (problem.minimizeTotalCost) {
    cost = 0;
    for (const c of schema.action.costs) {
      if (c.kind === "constant") {
        cost += c.value;
        continue;
      }
      const key = [c.name, ...c.args.map(value)].join(" ");
      const v = problem.initValues.get(key);
      if (v === undefined || v < 0) {
        throw new LangGoapError(
          "INVALID_DOMAIN",
          `the cost (${key}) of action (${schema.action.name} ${binding.join(" ")}) is ${v === undefined ? "not given in the problem's init" : `negative (${v})`}`,
          { function: key },
        );
      }
      cost += v;
    }
  }
  return { schema: schema.action.name, args: binding, pre: [...new Set(pre)], preFalse: [...new Set(preFalse)], add, del, cost, addAtoms };
}
