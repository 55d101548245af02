import { LangGoapError } from "../core/errors.js";
import type { PddlCondition, PddlDomain, PddlProblem } from "./ast.js";
import { compileConditionalEffects, type GroundEffect } from "./conditional-effects.js";
import { type AtomOracle, conjoin, type GroundDnf, groundDnf, TRUE_DNF } from "./ground-formula.js";
import { type NormalAction, type NormalAtom, type NormalTask, normalizeTask, slotTerm } from "./normalize.js";
import { type Check, Exploration, JOIN_STEPS_PER_OPERATOR, type Relation, type RuleAtom } from "./reachability.js";
import { IntVec } from "./tuple-table.js";

/** A ground atom, keyed `predicate obj1 obj2` (object names hold no spaces). */
export type AtomKey = string;

/**
 * One grounded operator, STRIPS with negative preconditions: what the
 * planner takes. An action with a disjunctive or universal precondition,
 * or with conditional effects, grounds to several operators with the
 * same `schema` and `args`, one per case.
 */
export interface GroundOperator {
  readonly schema: string;
  /** The action's arguments: its parameters' objects, in order. */
  readonly args: readonly string[];
  /** Fluent atoms that must hold. */
  readonly pre: readonly AtomKey[];
  /** Fluent atoms that must not hold (only those that can ever hold). */
  readonly preFalse: readonly AtomKey[];
  readonly add: readonly AtomKey[];
  /** Deleted atoms, less those the operator also adds (add wins, as in PDDL). */
  readonly del: readonly AtomKey[];
  readonly cost: number;
  /** True for an operator that is no PDDL action: it reaches the goal atom of a disjunctive goal, costs 0, and is left out of printed plans. */
  readonly auxiliary?: boolean;
}

/**
 * A literal of a goal that grounding decided against it: `atom` is fixed
 * at `holds` (a static atom as in the initial state, an atom never reached
 * at false, an (in)equality `= a b` of two objects), and the goal needs the
 * opposite.
 */
export interface GoalObstacle {
  readonly atom: AtomKey;
  readonly holds: boolean;
}

/** A ground goal: atoms that must hold, atoms that must not, and whether the unchanging atoms already rule it out. */
export interface GroundGoal {
  readonly goalTrue: readonly AtomKey[];
  /** Only atoms that can ever hold (the rest are false anyway). */
  readonly goalFalse: readonly AtomKey[];
  readonly staticGoalViolated: boolean;
  /**
   * When {@link staticGoalViolated}: the literals decided against the goal, each once, in the order met (empty
   * when the goal contradicts itself, e.g. `(and (p) (not (p)))`).
   */
  readonly obstacles?: readonly GoalObstacle[];
}

/** A grounded task: the atoms that can ever hold, the operators that can ever apply. */
export interface GroundTask extends GroundGoal {
  /** Atoms of predicates some action changes, reachable from the initial state, in the order found (the initial ones first). */
  readonly fluents: readonly AtomKey[];
  /** The fluents true initially. */
  readonly init: ReadonlySet<AtomKey>;
  readonly operators: readonly GroundOperator[];
  /** Grounds another goal over the same task (goals written later, e.g. by a language model); a goal that needs several alternatives is refused. */
  groundGoal(condition: PddlCondition): GroundGoal;
}

/** Options of {@link groundPddl}. */
export interface GroundOptions {
  /**
   * Grounded operators (and action bindings found) at most, and 100 times
   * as many join steps taken by the exploration (partial bindings extended
   * and candidate tuples or objects tried for them, matched or not); past
   * either, grounding stops with `BUDGET_EXCEEDED`. @defaultValue 2000000
   */
  readonly maxOperators?: number;
  /** Reached atoms at most; past it grounding stops with `BUDGET_EXCEEDED`. @defaultValue 10000000 */
  readonly maxAtoms?: number;
  /**
   * Operators one grounded action may split into (its universal
   * precondition's alternatives, or the cases of its conditional effects),
   * and alternatives of a ground goal; past it the task is refused with
   * `PDDL_UNSUPPORTED`. @defaultValue 256
   */
  readonly maxSplit?: number;
}

/** The goal atom of a disjunctive goal: no PDDL atom holds a parenthesis. */
const GOAL_ATOM = "(goal-reached)";
/** Literals a goal that can never hold is explained by, at most (a quantified goal can decide thousands). */
const MAX_GOAL_OBSTACLES = 32;

/**
 * Grounds a task by relaxed reachability, as Fast Downward's translator
 * does (normalize.py, pddl_to_prolog.py, build_model.py, instantiate.py),
 * not by the cross product of objects: the task is normalized
 * (normalize.ts), its reachability is computed as a Datalog program
 * (reachability.ts: an action binding once its positive preconditions can
 * hold with delete effects ignored, an effect's atom once its action and
 * positive effect conditions can), then each reached binding is
 * instantiated: static atoms (of predicates no action changes) are decided
 * by the initial state and leave the operator, negated atoms that can
 * never hold are dropped, universal conditions are expanded over the
 * objects, and conditional effects compiled into plain operators.
 */
export function groundPddl(domain: PddlDomain, problem: PddlProblem, options: GroundOptions = {}): GroundTask {
  const maxOperators = options.maxOperators ?? 2_000_000;
  const maxSplit = options.maxSplit ?? 256;
  const task = normalizeTask(domain, problem);
  const { members, isMember, ids, names } = task.objects;
  const predicateCount = task.predicates.length;
  // Fluent: some effect changes the predicate. Derived: some effect adds it (reachability grows it).
  const fluentPredicate = new Uint8Array(predicateCount);
  for (const action of task.actions) for (const effect of action.effects) fluentPredicate[effect.atom.predicate] = 1;

  const actionRelations = new Set<Relation>();
  const exploration = new Exploration(
    members,
    isMember,
    {
      maxBindings: maxOperators,
      maxAtoms: options.maxAtoms ?? 10_000_000,
      maxJoinSteps: maxOperators * JOIN_STEPS_PER_OPERATOR,
    },
    (r) => actionRelations.has(r),
  );
  const predicateRelations = task.predicates.map((p) => exploration.relation((domain.predicates.get(p) as readonly unknown[]).length, p));
  // Atoms some effect adds grow during the exploration (whether a rule or an action's direct effect adds them).
  for (const action of task.actions)
    for (const effect of action.effects) if (!effect.negated) (predicateRelations[effect.atom.predicate] as Relation).derived = true;
  const functionRelations = task.functions.map((f) =>
    exploration.relation((domain.functions.get(f) as readonly unknown[]).length, `@def-${f}`),
  );
  const functionValues = task.functions.map(() => new IntVec());
  const objectIds = (args: readonly string[]) => Int32Array.from(args, (a) => ids.get(a) as number);
  const functionIds = new Map(task.functions.map((f, i) => [f, i]));
  for (const [key, value] of problem.initValues) {
    const [fn, ...args] = key.split(" ");
    const f = functionIds.get(fn as string);
    if (f === undefined || args.some((a) => !ids.has(a))) continue;
    const relation = functionRelations[f] as Relation;
    if (args.length !== relation.arity) continue;
    const tuple = exploration.add(relation, objectIds(args));
    if (tuple >= 0) (functionValues[f] as IntVec).push(value);
  }

  // One relation per action variant; one rule deriving it, one per effect that needs a join to derive its atom.
  const actionRelationOf = task.actions.map((action, i) => {
    const relation = exploration.relation(action.slots.length, `${action.schema.name}#${i}`);
    actionRelations.add(relation);
    return relation;
  });
  const atomOf = (atom: NormalAtom): RuleAtom => ({ relation: predicateRelations[atom.predicate] as Relation, args: atom.args });
  const staticChecks = (negative: readonly NormalAtom[], equalities: NormalAction["precondition"]["equalities"]): Check[] => [
    ...negative.filter((a) => fluentPredicate[a.predicate] === 0).map((a): Check => ({ kind: "absent", atom: atomOf(a) })),
    ...equalities.map((e): Check => ({ kind: "equal", left: e.left, right: e.right, negated: e.negated })),
  ];
  task.actions.forEach((action, i) => {
    const relation = actionRelationOf[i] as Relation;
    const body = action.precondition.positive.map(atomOf);
    if (action.cost?.kind === "function")
      body.push({ relation: functionRelations[action.cost.function] as Relation, args: action.cost.args });
    const head = { relation, args: action.slots.map(slotTerm) };
    exploration.addRule({
      head,
      body,
      checks: staticChecks(action.precondition.negative, action.precondition.equalities),
      slots: action.slots,
      types: action.types,
    });
    const direct: { atom: NormalAtom; checks: Check[] }[] = [];
    for (const effect of action.effects) {
      if (effect.negated) continue;
      const checks = staticChecks(effect.condition.negative, effect.condition.equalities);
      if (effect.slots.length === 0 && effect.condition.positive.length === 0) {
        direct.push({ atom: effect.atom, checks });
        continue;
      }
      exploration.addRule({
        head: atomOf(effect.atom),
        body: [head, ...effect.condition.positive.map(atomOf)],
        checks,
        slots: [...action.slots, ...effect.slots],
        types: [...action.types, ...effect.types],
      });
    }
    if (direct.length > 0) relation.onInsert = directEffects(exploration, relation, action, direct, predicateRelations);
  });
  for (const atom of problem.init) {
    const p = task.predicateIds.get(atom.predicate) as number;
    exploration.add(predicateRelations[p] as Relation, objectIds(atom.args));
  }
  exploration.run();

  // Fluents: the reached atoms of changed predicates, numbered in the order found.
  const fluentOf = predicateRelations.map((r, p) => (fluentPredicate[p] ? new Int32Array(r.size).fill(-1) : undefined));
  const fluents: AtomKey[] = [];
  const log = exploration.log;
  for (let i = 0; i < log.length; i += 2) {
    const r = log.data[i] as number;
    if (r >= predicateCount || fluentPredicate[r] === 0) continue;
    const tuple = log.data[i + 1] as number;
    const relation = predicateRelations[r] as Relation;
    const data = relation.table.tuples.data;
    (fluentOf[r] as Int32Array)[tuple] = fluents.length;
    fluents.push(atomKeyOf(relation, data, tuple * relation.arity));
  }
  /** `predicate obj1 obj2`: the key of the atom of `relation` over the objects `args[at]`, `args[at + 1]`, …. */
  function atomKeyOf(relation: Relation, args: ArrayLike<number>, at = 0): AtomKey {
    let key = relation.name;
    for (let k = 0; k < relation.arity; k++) key += ` ${names[args[at + k] as number]}`;
    return key;
  }
  const initialFluents = problem.init.filter((a) => fluentPredicate[task.predicateIds.get(a.predicate) as number] === 1).length;
  const oracle: AtomOracle = {
    members,
    isStatic: (p) => fluentPredicate[p] === 0,
    holds: (p, args) => (predicateRelations[p] as Relation).table.find(args) >= 0,
    fluent: (p, args) => {
      const tuple = (predicateRelations[p] as Relation).table.find(args);
      return tuple < 0 ? -1 : ((fluentOf[p] as Int32Array)[tuple] as number);
    },
  };

  const operators: GroundOperator[] = [];
  const instantiate = new Instantiator(
    task,
    oracle,
    fluents,
    maxSplit,
    predicateRelations,
    functionValues,
    functionRelations,
    problem.minimizeTotalCost,
    fluentOf,
  );
  task.actions.forEach((action, i) => {
    const relation = actionRelationOf[i] as Relation;
    const data = relation.table.tuples.data;
    for (let t = 0; t < relation.size; t++) {
      instantiate.operators(action, data, t * relation.arity, operators);
      if (operators.length > maxOperators) {
        throw new LangGoapError("BUDGET_EXCEEDED", `grounding made more than ${maxOperators} operators (option maxOperators)`, {
          maxOperators,
        });
      }
    }
  });
  const init = new Set(fluents.slice(0, initialFluents));
  const groundGoal = (condition: PddlCondition, allowSplit: boolean): GroundGoal & { alternatives?: GroundDnf } => {
    const { formula, slotCount } = task.formula(condition);
    const obstacles = new Map<AtomKey, boolean>();
    const dnf = groundDnf(
      formula,
      new Int32Array(slotCount),
      oracle,
      maxSplit,
      () => `${problem.file}: the goal`,
      (literal) => {
        if (obstacles.size >= MAX_GOAL_OBSTACLES) return;
        if (literal.kind === "equal") obstacles.set(`= ${names[literal.left]} ${names[literal.right]}`, literal.negated);
        else obstacles.set(atomKeyOf(predicateRelations[literal.predicate] as Relation, literal.args), literal.negated);
      },
    );
    if (dnf.length === 0) {
      return { goalTrue: [], goalFalse: [], staticGoalViolated: true, obstacles: [...obstacles].map(([atom, holds]) => ({ atom, holds })) };
    }
    if (dnf.length === 1) return { ...literalKeys(dnf[0] as number[], fluents), staticGoalViolated: false };
    if (!allowSplit) {
      throw new LangGoapError(
        "PDDL_UNSUPPORTED",
        "a goal with alternatives (a disjunction that grounding leaves open) given after grounding; put it in the problem's (:goal …)",
        {},
      );
    }
    return { goalTrue: [GOAL_ATOM], goalFalse: [], staticGoalViolated: false, alternatives: dnf };
  };
  const goal = groundGoal(problem.goal, true);
  const allFluents = goal.alternatives ? [...fluents, GOAL_ATOM] : fluents;
  for (const alternative of goal.alternatives ?? []) {
    const { goalTrue, goalFalse } = literalKeys(alternative, fluents);
    operators.push({ schema: "(goal)", args: [], pre: goalTrue, preFalse: goalFalse, add: [GOAL_ATOM], del: [], cost: 0, auxiliary: true });
  }
  return {
    fluents: allFluents,
    init,
    operators,
    goalTrue: goal.goalTrue,
    goalFalse: goal.goalFalse,
    staticGoalViolated: goal.staticGoalViolated,
    ...(goal.obstacles ? { obstacles: goal.obstacles } : {}),
    groundGoal: (condition) => groundGoal(condition, false),
  };
}

function splitRefusal(where: string, maxSplit: number): LangGoapError {
  return new LangGoapError("PDDL_UNSUPPORTED", `${where} splits into more than ${maxSplit} alternatives once grounded (option maxSplit)`, {
    maxSplit,
  });
}

function literalKeys(literals: readonly number[], fluents: readonly AtomKey[]): { goalTrue: AtomKey[]; goalFalse: AtomKey[] } {
  const goalTrue: AtomKey[] = [];
  const goalFalse: AtomKey[] = [];
  for (const literal of literals) (literal & 1 ? goalFalse : goalTrue).push(fluents[literal >> 1] as AtomKey);
  return { goalTrue, goalFalse };
}

/** The effects of an action that need no join: each new binding adds their atoms directly, once their static checks pass. */
function directEffects(
  exploration: Exploration,
  relation: Relation,
  action: NormalAction,
  direct: readonly { atom: NormalAtom; checks: Check[] }[],
  predicateRelations: readonly Relation[],
): (tuple: number) => void {
  const binding = new Int32Array(action.slotCount);
  const values = new Int32Array(
    Math.max(
      1,
      ...direct.map((d) => d.atom.args.length),
      ...direct.flatMap((d) => d.checks.map((c) => (c.kind === "absent" ? c.atom.args.length : 0))),
    ),
  );
  const value = (term: number) => (term >= 0 ? term : (binding[-term - 1] as number));
  return (tuple) => {
    const data = relation.table.tuples.data;
    const base = tuple * relation.arity;
    for (let i = 0; i < action.slots.length; i++) binding[action.slots[i] as number] = data[base + i] as number;
    for (const { atom, checks } of direct) {
      let ok = true;
      for (const check of checks) {
        if (check.kind === "equal") {
          if ((value(check.left) === value(check.right)) === check.negated) ok = false;
        } else {
          check.atom.args.forEach((t, i) => {
            values[i] = value(t);
          });
          if (check.atom.relation.table.find(values) >= 0) ok = false;
        }
        if (!ok) break;
      }
      if (!ok) continue;
      const args = new Int32Array(atom.args.length);
      atom.args.forEach((t, i) => {
        args[i] = value(t);
      });
      exploration.add(predicateRelations[atom.predicate] as Relation, args);
    }
  };
}

/** Turns a reached action binding into its operators. */
const NO_FLUENTS = new Int32Array(0);

/** A lookup of an atom under the current binding: its relation, its fluent numbers, its argument terms. */
interface Lookup {
  readonly relation: Relation;
  readonly fluentOf: Int32Array;
  readonly args: readonly number[];
}

/** An action whose effects are all decided by static atoms (no universal condition, no conditional effect on fluents). */
interface PreparedAction {
  readonly pre: readonly Lookup[];
  readonly preFalse: readonly Lookup[];
  readonly effects: readonly {
    readonly target: Lookup;
    readonly add: boolean;
    readonly holds: readonly Lookup[];
    readonly absent: readonly Lookup[];
    readonly equalities: NormalAction["precondition"]["equalities"];
  }[];
}

class Instantiator {
  readonly #binding: Int32Array;
  readonly #args = new Int32Array(64);
  /** A scratch array per arity up to 16, for atom lookups. */
  readonly #values = Array.from({ length: 17 }, (_, n) => new Int32Array(n));
  readonly #prepared = new Map<NormalAction, PreparedAction | null>();
  /** Marks on fluents, one number per use (no clearing between operators). */
  readonly #stamp: Int32Array;
  #mark = 0;

  constructor(
    readonly task: NormalTask,
    readonly oracle: AtomOracle,
    readonly fluents: readonly AtomKey[],
    readonly maxSplit: number,
    readonly predicateRelations: readonly Relation[],
    readonly functionValues: readonly IntVec[],
    readonly functionRelations: readonly Relation[],
    readonly metric: boolean,
    readonly fluentOf: readonly (Int32Array | undefined)[],
  ) {
    this.#stamp = new Int32Array(fluents.length);
    let slots = 64;
    for (const action of task.actions) slots = Math.max(slots, action.slotCount);
    this.#binding = new Int32Array(slots);
  }

  #fluent(atom: NormalAtom): number {
    const args = this.#atomArgs(atom);
    return this.oracle.fluent(atom.predicate, args);
  }

  #atomArgs(atom: NormalAtom): Int32Array {
    const binding = this.#binding;
    const args = atom.args.length <= 8 ? this.#args.subarray(0, atom.args.length) : new Int32Array(atom.args.length);
    for (let i = 0; i < atom.args.length; i++) {
      const term = atom.args[i] as number;
      args[i] = term >= 0 ? term : (binding[-term - 1] as number);
    }
    return args;
  }

  #name(action: NormalAction): string {
    const args = action.slots.slice(0, action.external).map((s) => this.task.objects.names[this.#binding[s] as number]);
    return `(${[action.schema.name, ...args].join(" ")})`;
  }

  /** Fluent lookups of an action without universal conditions nor conditional effects: its operator is made without allocating on the way. */
  #prepare(action: NormalAction): PreparedAction | undefined {
    const simpleEffect = (e: NormalAction["effects"][number]) =>
      e.slots.length === 0 &&
      e.condition.universals.length === 0 &&
      e.condition.positive.every((a) => this.oracle.isStatic(a.predicate)) &&
      e.condition.negative.every((a) => this.oracle.isStatic(a.predicate));
    if (action.precondition.universals.length > 0 || !action.effects.every(simpleEffect)) return undefined;
    const lookup = (atom: NormalAtom): Lookup => ({
      relation: this.predicateRelations[atom.predicate] as Relation,
      fluentOf: this.fluentOf[atom.predicate] ?? NO_FLUENTS,
      args: atom.args,
    });
    const fluent = (atoms: readonly NormalAtom[]) => atoms.filter((a) => !this.oracle.isStatic(a.predicate)).map(lookup);
    return {
      pre: fluent(action.precondition.positive),
      preFalse: fluent(action.precondition.negative),
      effects: action.effects.map((e) => ({
        target: lookup(e.atom),
        add: !e.negated,
        holds: e.condition.positive.map(lookup),
        absent: e.condition.negative.map(lookup),
        equalities: e.condition.equalities,
      })),
    };
  }

  #find(lookup: Lookup): number {
    const binding = this.#binding;
    const args = lookup.args;
    const values = args.length <= 16 ? (this.#values[args.length] as Int32Array) : new Int32Array(args.length);
    for (let i = 0; i < args.length; i++) {
      const term = args[i] as number;
      values[i] = term >= 0 ? term : (binding[-term - 1] as number);
    }
    return lookup.relation.table.find(values);
  }

  #simpleOperator(action: NormalAction, prepared: PreparedAction, cost: number): GroundOperator | undefined {
    const fluents = this.fluents;
    const binding = this.#binding;
    const mark = ++this.#mark;
    const stamp = this.#stamp;
    const pre: AtomKey[] = [];
    for (const lookup of prepared.pre) {
      const fluent = lookup.fluentOf[this.#find(lookup)] as number;
      if (stamp[fluent] === mark) continue;
      stamp[fluent] = mark;
      pre.push(fluents[fluent] as AtomKey);
    }
    const preFalse: AtomKey[] = [];
    for (const lookup of prepared.preFalse) {
      const tuple = this.#find(lookup);
      if (tuple < 0) continue;
      const fluent = lookup.fluentOf[tuple] as number;
      // An atom both required and forbidden: the operator never applies.
      if (stamp[fluent] === mark) return undefined;
      preFalse.push(fluents[fluent] as AtomKey);
    }
    const addMark = ++this.#mark;
    const add: AtomKey[] = [];
    const dels: number[] = [];
    for (const effect of prepared.effects) {
      let fires = true;
      for (const e of effect.equalities) {
        const a = e.left >= 0 ? e.left : binding[-e.left - 1];
        const b = e.right >= 0 ? e.right : binding[-e.right - 1];
        if ((a === b) === e.negated) fires = false;
      }
      for (const lookup of effect.holds) if (fires && this.#find(lookup) < 0) fires = false;
      for (const lookup of effect.absent) if (fires && this.#find(lookup) >= 0) fires = false;
      if (!fires) continue;
      const tuple = this.#find(effect.target);
      if (tuple < 0) continue;
      const fluent = effect.target.fluentOf[tuple] as number;
      if (!effect.add) {
        dels.push(fluent);
        continue;
      }
      if (stamp[fluent] === addMark) continue;
      stamp[fluent] = addMark;
      add.push(fluents[fluent] as AtomKey);
    }
    const del: AtomKey[] = [];
    const delMark = ++this.#mark;
    for (const fluent of dels) {
      // Add after delete: an atom the operator adds is not deleted.
      if (stamp[fluent] === addMark || stamp[fluent] === delMark) continue;
      stamp[fluent] = delMark;
      del.push(fluents[fluent] as AtomKey);
    }
    if (add.length === 0 && del.length === 0) return undefined;
    const names = this.task.objects.names;
    const args: string[] = [];
    for (let i = 0; i < action.external; i++) args.push(names[binding[action.slots[i] as number] as number] as string);
    return { schema: action.schema.name, args, pre, preFalse, add, del, cost };
  }

  #cost(action: NormalAction): number {
    if (!this.metric) return 1;
    if (action.cost === undefined) return 0;
    if (action.cost.kind === "constant") return action.cost.value;
    const binding = this.#binding;
    const relation = this.functionRelations[action.cost.function] as Relation;
    const args = action.cost.args.map((t) => (t >= 0 ? t : (binding[-t - 1] as number)));
    return this.functionValues[action.cost.function]?.data[relation.table.find(args)] as number;
  }

  operators(action: NormalAction, data: Int32Array, base: number, out: GroundOperator[]): void {
    const binding = this.#binding;
    for (let i = 0; i < action.slots.length; i++) binding[action.slots[i] as number] = data[base + i] as number;
    let prepared = this.#prepared.get(action);
    if (prepared === undefined) {
      prepared = this.#prepare(action) ?? null;
      this.#prepared.set(action, prepared);
    }
    if (prepared !== null) {
      const op = this.#simpleOperator(action, prepared, this.#cost(action));
      if (op) out.push(op);
      return;
    }
    out.push(...this.#general(action));
  }

  #general(action: NormalAction): GroundOperator[] {
    const binding = this.#binding;
    const where = () => `${this.task.file}:${action.schema.at.line}:${action.schema.at.column}: action ${this.#name(action)}`;
    const fluentPredicate = (p: number) => !this.oracle.isStatic(p);
    const pre: number[] = [];
    for (const atom of action.precondition.positive) {
      if (!fluentPredicate(atom.predicate)) continue;
      pre.push(this.#fluent(atom));
    }
    const preFalse: number[] = [];
    for (const atom of action.precondition.negative) {
      if (!fluentPredicate(atom.predicate)) continue;
      const fluent = this.#fluent(atom);
      if (fluent >= 0) preFalse.push(fluent);
    }
    let cases: GroundDnf = TRUE_DNF;
    for (const universal of action.precondition.universals) {
      cases = conjoin(cases, groundDnf(universal, binding, this.oracle, this.maxSplit, where), this.maxSplit, () =>
        splitRefusal(where(), this.maxSplit),
      );
      if (cases.length === 0) return [];
    }
    const effects = this.#effects(action, where);
    const cost = this.#cost(action);
    const schema = action.schema.name;
    const args = action.slots.slice(0, action.external).map((s) => this.task.objects.names[binding[s] as number] as string);
    const out: GroundOperator[] = [];
    for (const extra of cases) {
      const casePre = [...pre];
      const caseFalse = [...preFalse];
      for (const literal of extra) (literal & 1 ? caseFalse : casePre).push(literal >> 1);
      const preSet = new Set(casePre);
      if (caseFalse.some((f) => preSet.has(f))) continue;
      const conditional = effects.some((e) => e.condition.length > 0);
      const plain = conditional
        ? compileConditionalEffects(casePre, caseFalse, effects, this.maxSplit, where)
        : [plainEffects(casePre, caseFalse, effects)];
      for (const op of plain) {
        if (op.add.length === 0 && op.del.length === 0) continue;
        out.push({
          schema,
          args,
          pre: unique(op.pre).map((f) => this.fluents[f] as AtomKey),
          preFalse: unique(op.preFalse).map((f) => this.fluents[f] as AtomKey),
          add: op.add.map((f) => this.fluents[f] as AtomKey),
          del: op.del.map((f) => this.fluents[f] as AtomKey),
          cost,
        });
      }
    }
    return out;
  }

  /** The action's effects under the current binding: universal effects expanded, static conditions decided. */
  #effects(action: NormalAction, where: () => string): GroundEffect[] {
    const binding = this.#binding;
    const out: GroundEffect[] = [];
    for (const effect of action.effects) {
      const visit = (k: number) => {
        if (k < effect.slots.length) {
          const members = this.oracle.members[effect.types[k] as number] as Int32Array;
          for (let i = 0; i < members.length; i++) {
            binding[effect.slots[k] as number] = members[i] as number;
            visit(k + 1);
          }
          return;
        }
        const condition: number[] = [];
        const { positive, negative, equalities, universals } = effect.condition;
        for (const e of equalities) {
          const a = e.left >= 0 ? e.left : binding[-e.left - 1];
          const b = e.right >= 0 ? e.right : binding[-e.right - 1];
          if ((a === b) === e.negated) return;
        }
        for (const atom of positive) {
          const args = this.#atomArgs(atom);
          if (this.oracle.isStatic(atom.predicate)) {
            if (!this.oracle.holds(atom.predicate, args)) return;
            continue;
          }
          const fluent = this.oracle.fluent(atom.predicate, args);
          if (fluent < 0) return;
          condition.push(2 * fluent);
        }
        for (const atom of negative) {
          const args = this.#atomArgs(atom);
          if (this.oracle.isStatic(atom.predicate)) {
            if (this.oracle.holds(atom.predicate, args)) return;
            continue;
          }
          const fluent = this.oracle.fluent(atom.predicate, args);
          if (fluent >= 0) condition.push(2 * fluent + 1);
        }
        const fluent = this.#fluent(effect.atom);
        if (fluent < 0) {
          if (effect.negated) return;
          throw new Error(`internal: the add effect of ${where()} was never reached`);
        }
        let cases: GroundDnf = [condition.sort((x, y) => x - y)];
        for (const universal of universals) {
          cases = conjoin(cases, groundDnf(universal, binding, this.oracle, this.maxSplit, where), this.maxSplit, () =>
            splitRefusal(where(), this.maxSplit),
          );
          if (cases.length === 0) return;
        }
        for (const c of cases) out.push({ condition: c, fluent, add: !effect.negated });
      };
      visit(0);
    }
    return out;
  }
}

/** Effects without conditions as add and delete lists: add after delete. */
function plainEffects(pre: readonly number[], preFalse: readonly number[], effects: readonly GroundEffect[]) {
  const add: number[] = [];
  const adds = new Set<number>();
  for (const e of effects) {
    if (e.add && !adds.has(e.fluent)) {
      adds.add(e.fluent);
      add.push(e.fluent);
    }
  }
  const del: number[] = [];
  const dels = new Set<number>();
  for (const e of effects) {
    if (!e.add && !adds.has(e.fluent) && !dels.has(e.fluent)) {
      dels.add(e.fluent);
      del.push(e.fluent);
    }
  }
  return { pre, preFalse, add, del };
}

function unique(values: readonly number[]): number[] {
  return values.length < 2 ? [...values] : [...new Set(values)];
}
