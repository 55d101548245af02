import { LangGoapError } from "../core/errors.js";
import type { Term } from "./normalize.js";
import { IntVec, TupleTable } from "./tuple-table.js";

/**
 * @internal The relaxed reachability of a task as a Datalog program, as
 * Fast Downward's build_model.py computes it: relations of integer tuples
 * (the predicates, the cost functions' defined values, one per action),
 * rules `head :- body atoms, checks`, evaluated semi-naively to their
 * fixpoint. Rules with a relation that grows in their body fire when an
 * atom of it appears, joined only with atoms that appeared before it (so
 * each binding is found once); the others fire once at the start. Joins
 * read per-relation hash indexes on the argument positions bound at that
 * point, and each binding is checked against the parameters' types, the
 * negated static atoms and the (in)equalities as soon as its variables
 * are bound.
 */
export class Relation {
  readonly table: TupleTable;
  /** The exploration's counter when each tuple was added: atoms join only with atoms added before them. */
  readonly seq = new IntVec();
  readonly indexes: Index[] = [];
  /**
   * Rule bodies that hold this relation: each new tuple seeds their joins.
   * Seeds whose atom has a constant are filed under their first constant
   * (`byConstant[position]` maps the constant to them), so a tuple meets
   * only the rules it can match, as Fast Downward's rule trie does: a
   * domain written out for one problem has thousands of actions, each on
   * its own constants.
   */
  readonly seeds: Seed[] = [];
  readonly byConstant: (Map<number, Seed[]> | undefined)[] = [];
  /** Atoms without variables that rules wait for (not yet added), and the rules waiting for each. */
  waiting: TupleTable | undefined;
  readonly waiters: RuleState[][] = [];
  /** Called with each new tuple's number (an action's effects that need no join). */
  onInsert: ((tuple: number) => void) | undefined;
  /** Whether some rule derives tuples of this relation (else its tuples are all given at the start). */
  derived = false;

  constructor(
    readonly id: number,
    readonly arity: number,
    readonly name: string,
  ) {
    this.table = new TupleTable(arity);
  }

  get size(): number {
    return this.table.size;
  }

  /** The index on the argument positions of `mask`, made on first request. */
  index(mask: number): Index {
    let index = this.indexes.find((i) => i.mask === mask);
    if (!index) {
      index = new Index(mask, this.arity);
      for (let t = 0; t < this.table.size; t++) index.add(this.table.tuples.data, t);
      this.indexes.push(index);
    }
    return index;
  }
}

/** Tuples of one relation grouped by their values at some argument positions, each group in insertion order. */
export class Index {
  readonly positions: number[] = [];
  readonly keys: TupleTable;
  readonly head = new IntVec();
  readonly tail = new IntVec();
  readonly next = new IntVec();
  readonly #key: Int32Array;

  constructor(
    readonly mask: number,
    readonly arity: number,
  ) {
    for (let i = 0; i < arity; i++) if (mask & (1 << i)) this.positions.push(i);
    this.keys = new TupleTable(this.positions.length);
    this.#key = new Int32Array(this.positions.length);
  }

  add(data: Int32Array, tuple: number): void {
    const key = this.#key;
    const base = tuple * this.arity;
    for (let i = 0; i < key.length; i++) key[i] = data[base + (this.positions[i] as number)] as number;
    const inserted = this.keys.insert(key);
    this.next.push(-1);
    if (inserted >= 0) {
      this.head.push(tuple);
      this.tail.push(tuple);
    } else {
      const k = -inserted - 1;
      this.next.data[this.tail.data[k] as number] = tuple;
      this.tail.data[k] = tuple;
    }
  }
}

/** An atom of a rule: a relation over terms (objects, or variable slots `-(slot + 1)`). */
export interface RuleAtom {
  readonly relation: Relation;
  readonly args: readonly Term[];
}

/** A test on a binding: an atom of a relation that must not hold (a negated static atom), or an (in)equality. */
export type Check =
  | { readonly kind: "absent"; readonly atom: RuleAtom }
  | { readonly kind: "equal"; readonly left: Term; readonly right: Term; readonly negated: boolean };

/** `head :- body, checks`, with the type of each variable slot. */
export interface Rule {
  readonly head: RuleAtom;
  readonly body: readonly RuleAtom[];
  readonly checks: readonly Check[];
  /** The slots of the rule and their types (type 0, `object`, needs no test). */
  readonly slots: readonly number[];
  readonly types: readonly number[];
}

/** One step of a join. */
type Step =
  | {
      readonly kind: "atom";
      readonly relation: Relation;
      /** The index on the bound positions; undefined when all or none are bound. */
      readonly index: Index | undefined;
      readonly allBound: boolean;
      /** Terms whose values make the lookup key (the bound positions, in order). */
      readonly keyTerms: readonly number[];
      /** (position, slot) pairs bound here, then (position, slot) pairs that repeat a slot bound in this same atom. */
      readonly binds: readonly number[];
      readonly repeats: readonly number[];
      /** (slot, type) pairs to test after binding. */
      readonly typeTests: readonly number[];
      /** 0: any tuple (static relation); 1: added before the seed; 2: added no later than the seed. */
      readonly limit: 0 | 1 | 2;
      readonly checks: readonly Check[];
      /** Set when this atom starts a block of steps that binds nothing the steps before it bound (see {@link Memo}). */
      readonly memo?: Memo;
    }
  | { readonly kind: "check"; readonly checks: readonly Check[] }
  | { readonly kind: "assign"; readonly slot: number; readonly from: Term; readonly type: number; readonly checks: readonly Check[] }
  | { readonly kind: "enumerate"; readonly slot: number; readonly type: number; readonly checks: readonly Check[] };

/**
 * A block of a join plan, steps `[start, end)`, whose bindings do not
 * depend on the steps before it: its atoms share no slot with them (a
 * cross product, as an action whose preconditions fall into separate
 * groups of parameters: organic-synthesis's aldol condensation has four).
 * Nested loops would join the block again for every binding of the steps
 * before it; instead its bindings are found once per join from a seed
 * and replayed, in the same order, so the exploration finds the same
 * tuples in the same order. Checks that also read slots bound before the
 * block are tested on each replay.
 */
interface Memo {
  readonly end: number;
  /** The slots the block binds, in the order each replayed binding lists their values. */
  readonly slots: readonly number[];
  readonly deferred: readonly Check[];
  /** The join (from one seed) the values were found for; -1 when none yet. */
  epoch: number;
  readonly values: IntVec;
}

/** Join steps the exploration may take for each operator grounding may make (maxOperators). */
export const JOIN_STEPS_PER_OPERATOR = 100;

/** Options of an exploration. */
export interface ExplorationLimits {
  /** Tuples of action relations (grounded action bindings) at most. */
  readonly maxBindings: number;
  /** Atoms reached at most. */
  readonly maxAtoms: number;
  /**
   * Join steps at most: each partial binding extended and each tuple or
   * object tried for it, matched or not. A join whose body atoms share few
   * variables can try far more candidates than it completes bindings
   * (organic-synthesis-opt18 p18: minutes without completing 2,000,000,
   * nearly every tuple tried rejected), and this bounds that work too.
   */
  readonly maxJoinSteps: number;
}

/** @internal The Datalog program and its evaluation. */
export class Exploration {
  readonly relations: Relation[] = [];
  readonly rules: Rule[] = [];
  #counter = 0;
  /** Join steps taken so far (bounded by maxJoinSteps). */
  joinSteps = 0;
  readonly #queue = new IntVec(1024);
  /** Rules whose counted atoms all hold, to join once over every tuple there is. */
  readonly #enabled: RuleState[] = [];
  /** (relation, tuple) of every tuple added, in order. */
  readonly log = new IntVec(1024);
  #binding = new Int32Array(16);
  #scratch = new Int32Array(16);
  #head = new Int32Array(16);
  #seed = -1;
  /** Counts the joins from a seed (or from none): a memo block's bindings hold for one such join. */
  #epoch = 0;
  /** While a memo block's bindings are collected: the plan, the step where the block ends, and the memo. */
  #collectPlan: readonly Step[] | undefined;
  #collectEnd = -1;
  #collecting: Memo | undefined;
  #derivedAtoms = 0;
  #bindings = 0;

  constructor(
    readonly members: readonly Int32Array[],
    readonly isMember: readonly Uint8Array[],
    readonly limits: ExplorationLimits,
    /** Which relations hold action bindings (counted against maxBindings). */
    readonly isAction: (relation: Relation) => boolean,
  ) {}

  relation(arity: number, name: string): Relation {
    const relation = new Relation(this.relations.length, arity, name);
    this.relations.push(relation);
    return relation;
  }

  addRule(rule: Rule): void {
    rule.head.relation.derived = true;
    this.rules.push(rule);
    let slots = 0;
    for (const s of rule.slots) slots = Math.max(slots, s + 1);
    if (slots > this.#binding.length) this.#binding = new Int32Array(slots * 2);
    for (const atom of [rule.head, ...rule.body]) {
      if (atom.args.length > this.#scratch.length) this.#scratch = new Int32Array(atom.args.length * 2);
      if (atom.args.length > this.#head.length) this.#head = new Int32Array(atom.args.length * 2);
    }
    for (const check of rule.checks) {
      if (check.kind === "absent" && check.atom.args.length > this.#scratch.length)
        this.#scratch = new Int32Array(check.atom.args.length * 2);
    }
  }

  /** Adds a tuple; returns its number, or -1 when it was there. */
  add(relation: Relation, values: ArrayLike<number>): number {
    const tuple = relation.table.insert(values);
    if (tuple < 0) return -1;
    relation.seq.push(this.#counter++);
    this.log.push(relation.id);
    this.log.push(tuple);
    const data = relation.table.tuples.data;
    for (const index of relation.indexes) index.add(data, tuple);
    if (relation.derived) {
      if (this.isAction(relation)) {
        if (++this.#bindings > this.limits.maxBindings) {
          throw new LangGoapError(
            "BUDGET_EXCEEDED",
            `grounding found more than ${this.limits.maxBindings} action bindings (option maxOperators)`,
            { maxOperators: this.limits.maxBindings },
          );
        }
      } else if (++this.#derivedAtoms > this.limits.maxAtoms) {
        throw new LangGoapError("BUDGET_EXCEEDED", `grounding reached more than ${this.limits.maxAtoms} atoms (option maxAtoms)`, {
          maxAtoms: this.limits.maxAtoms,
        });
      }
    }
    // Every tuple of a derived relation is queued (rules are all in before the first tuple); one no rule body holds seeds nothing.
    if (relation.derived) {
      this.#queue.push(relation.id);
      this.#queue.push(tuple);
    }
    if (relation.waiting) {
      const w = relation.waiting.find(values);
      if (w >= 0) {
        for (const state of relation.waiters[w] as RuleState[]) {
          if (--state.missing === 0) {
            state.enabled = true;
            this.#enabled.push(state);
          }
        }
      }
    }
    relation.onInsert?.(tuple);
    return tuple;
  }

  /**
   * Plans every rule's joins, then runs the program to its fixpoint. Call
   * after every relation's starting tuples are added and every rule is in.
   */
  run(): void {
    const states = this.rules.map((rule, index): RuleState => ({ rule, index, missing: 0, enabled: false, seeded: false }));
    for (const state of states) {
      const { rule } = state;
      const pending = new Set<number>();
      let dead = false;
      rule.body.forEach((atom, position) => {
        if (atom.args.every((term) => term >= 0)) {
          // An atom without variables is counted, not joined: the rule waits until it holds.
          const tuple = atom.relation.table.find(atom.args);
          if (tuple >= 0) return;
          if (!atom.relation.derived) {
            dead = true;
            return;
          }
          const relation = atom.relation;
          relation.waiting ??= new TupleTable(relation.arity);
          let w = relation.waiting.insert(atom.args);
          if (w < 0) w = -w - 1;
          else relation.waiters.push([]);
          const key = relation.id * 0x100000 + w;
          if (!pending.has(key)) {
            pending.add(key);
            (relation.waiters[w] as RuleState[]).push(state);
          }
          return;
        }
        if (!atom.relation.derived) return;
        state.seeded = true;
        const seed: Seed = { state, position, plan: undefined, unify: undefined };
        const constant = atom.args.findIndex((term) => term >= 0);
        if (constant < 0) {
          atom.relation.seeds.push(seed);
          return;
        }
        const byConstant = atom.relation.byConstant;
        while (byConstant.length <= constant) byConstant.push(undefined);
        const map = byConstant[constant] ?? new Map<number, Seed[]>();
        byConstant[constant] = map;
        const list = map.get(atom.args[constant] as number);
        if (list) list.push(seed);
        else map.set(atom.args[constant] as number, [seed]);
      });
      if (dead) {
        state.missing = Number.POSITIVE_INFINITY;
        continue;
      }
      state.missing = pending.size;
      // Enabled from the start: a rule with atoms that grow fires as their tuples (all queued) are processed.
      if (state.missing === 0) {
        state.enabled = true;
        if (!state.seeded) this.#enabled.push(state);
      }
    }
    const queue = this.#queue;
    const enabled = this.#enabled;
    let nextEnabled = 0;
    for (let next = 0; ; next += 2) {
      // A rule whose last counted atom just appeared joins once over every tuple there is; later tuples seed it as usual.
      while (nextEnabled < enabled.length) {
        const state = enabled[nextEnabled++] as RuleState;
        state.unseededPlan ??= this.#plan(state.rule, -1);
        this.#seed = -1;
        this.#epoch++;
        this.#join(state.rule, state.unseededPlan, 0);
      }
      if (next >= queue.length) break;
      const relation = this.relations[queue.data[next] as number] as Relation;
      const tuple = queue.data[next + 1] as number;
      this.#seed = relation.seq.data[tuple] as number;
      const data = relation.table.tuples.data;
      const base = tuple * relation.arity;
      for (const seed of relation.seeds) this.#seedJoin(seed, data, base);
      const byConstant = relation.byConstant;
      for (let position = 0; position < byConstant.length; position++) {
        const seeds = byConstant[position]?.get(data[base + position] as number);
        if (seeds) for (const seed of seeds) this.#seedJoin(seed, data, base);
      }
    }
  }

  #seedJoin(seed: Seed, data: Int32Array, base: number): void {
    const { rule, enabled } = seed.state;
    if (!enabled) return;
    seed.unify ??= seedUnify(rule, rule.body[seed.position] as RuleAtom);
    if (!this.#unify(seed.unify, data, base)) return;
    // Planned on first use: most rules of a domain written out for one problem are never seeded.
    seed.plan ??= this.#plan(rule, seed.position);
    this.#epoch++;
    this.#join(rule, seed.plan, 0);
  }

  /** Binds the seed atom's slots to the tuple; false when a constant, a repeated slot or a type does not match. */
  #unify(unify: SeedUnify, data: Int32Array, base: number): boolean {
    const binding = this.#binding;
    const { constants, binds, repeats, typeTests } = unify;
    for (let i = 0; i < constants.length; i += 2) if (data[base + (constants[i] as number)] !== constants[i + 1]) return false;
    for (let i = 0; i < binds.length; i += 2) binding[binds[i + 1] as number] = data[base + (binds[i] as number)] as number;
    for (let i = 0; i < repeats.length; i += 2) if (binding[repeats[i + 1] as number] !== data[base + (repeats[i] as number)]) return false;
    for (let i = 0; i < typeTests.length; i += 2) {
      if ((this.isMember[typeTests[i + 1] as number] as Uint8Array)[binding[typeTests[i] as number] as number] !== 1) return false;
    }
    return true;
  }

  /** Counts one step of the joins' work against maxJoinSteps. */
  #step(): void {
    if (++this.joinSteps > this.limits.maxJoinSteps) {
      throw new LangGoapError(
        "BUDGET_EXCEEDED",
        `grounding's exploration took more than ${this.limits.maxJoinSteps} join steps (${JOIN_STEPS_PER_OPERATOR} per operator of option maxOperators)`,
        { maxJoinSteps: this.limits.maxJoinSteps },
      );
    }
  }

  #join(rule: Rule, plan: readonly Step[], k: number): void {
    this.#step();
    const binding = this.#binding;
    if (k === this.#collectEnd && plan === this.#collectPlan) {
      const memo = this.#collecting as Memo;
      for (const slot of memo.slots) memo.values.push(binding[slot] as number);
      return;
    }
    if (k === plan.length) {
      this.#fire(rule.head);
      return;
    }
    const step = plan[k] as Step;
    if (step.kind === "atom" && step.memo) {
      this.#replay(rule, plan, k, step, step.memo);
      return;
    }
    this.#expand(rule, plan, k, step);
  }

  /** Joins a memo block: its bindings found once per join from a seed, then each tested and extended in their order. */
  #replay(rule: Rule, plan: readonly Step[], k: number, step: Step, memo: Memo): void {
    if (memo.epoch !== this.#epoch) {
      memo.epoch = this.#epoch;
      memo.values.length = 0;
      const outer = [this.#collectPlan, this.#collectEnd, this.#collecting] as const;
      this.#collectPlan = plan;
      this.#collectEnd = memo.end;
      this.#collecting = memo;
      try {
        this.#expand(rule, plan, k, step);
      } finally {
        [this.#collectPlan, this.#collectEnd, this.#collecting] = outer;
      }
    }
    const binding = this.#binding;
    const slots = memo.slots;
    const width = slots.length;
    const count = memo.values.length;
    for (let at = 0; at < count; at += width) {
      this.#step();
      // Later blocks never write this memo (its epoch is current), so its array stays as collected.
      const values = memo.values.data;
      for (let i = 0; i < width; i++) binding[slots[i] as number] = values[at + i] as number;
      if (this.#passes(memo.deferred)) this.#join(rule, plan, memo.end);
    }
  }

  /** One step's own work: test, assign, enumerate or join its atom, and go on to the next step for each binding. */
  #expand(rule: Rule, plan: readonly Step[], k: number, step: Step): void {
    const binding = this.#binding;
    if (step.kind === "check") {
      if (this.#passes(step.checks)) this.#join(rule, plan, k + 1);
      return;
    }
    if (step.kind === "assign") {
      const value = step.from >= 0 ? step.from : (binding[-step.from - 1] as number);
      if (step.type > 0 && (this.isMember[step.type] as Uint8Array)[value] !== 1) return;
      binding[step.slot] = value;
      if (this.#passes(step.checks)) this.#join(rule, plan, k + 1);
      return;
    }
    if (step.kind === "enumerate") {
      const members = this.members[step.type] as Int32Array;
      for (let i = 0; i < members.length; i++) {
        this.#step();
        binding[step.slot] = members[i] as number;
        if (this.#passes(step.checks)) this.#join(rule, plan, k + 1);
      }
      return;
    }
    const relation = step.relation;
    const key = this.#scratch;
    const keyTerms = step.keyTerms;
    for (let i = 0; i < keyTerms.length; i++) {
      const term = keyTerms[i] as number;
      key[i] = term >= 0 ? term : (binding[-term - 1] as number);
    }
    const seqs = relation.seq.data;
    const seed = this.#seed;
    const limit = step.limit;
    if (step.allBound) {
      const tuple = relation.table.find(key);
      if (tuple < 0) return;
      const seq = seqs[tuple] as number;
      if ((limit === 1 && seq >= seed) || (limit === 2 && seq > seed)) return;
      if (this.#passes(step.checks)) this.#join(rule, plan, k + 1);
      return;
    }
    let tuple: number;
    let next: Int32Array | undefined;
    if (step.index) {
      const group = step.index.keys.find(key);
      if (group < 0) return;
      tuple = step.index.head.data[group] as number;
      next = step.index.next.data;
    } else {
      tuple = relation.size > 0 ? 0 : -1;
    }
    const arity = relation.arity;
    const binds = step.binds;
    const repeats = step.repeats;
    const typeTests = step.typeTests;
    while (tuple >= 0) {
      // Every tuple tried is work, matched or not: a join whose atoms share few variables can try billions it rejects.
      this.#step();
      // New atoms may grow (and so replace) the arrays while joining: read them afresh.
      const seq = relation.seq.data[tuple] as number;
      if ((limit === 1 && seq >= seed) || (limit === 2 && seq > seed)) return;
      const data = relation.table.tuples.data;
      const base = tuple * arity;
      for (let i = 0; i < binds.length; i += 2) binding[binds[i + 1] as number] = data[base + (binds[i] as number)] as number;
      let ok = true;
      for (let i = 0; i < repeats.length; i += 2) {
        if (binding[repeats[i + 1] as number] !== data[base + (repeats[i] as number)]) {
          ok = false;
          break;
        }
      }
      if (ok) {
        for (let i = 0; i < typeTests.length; i += 2) {
          if ((this.isMember[typeTests[i + 1] as number] as Uint8Array)[binding[typeTests[i] as number] as number] !== 1) {
            ok = false;
            break;
          }
        }
      }
      if (ok && this.#passes(step.checks)) this.#join(rule, plan, k + 1);
      if (next) {
        next = (step.index as Index).next.data;
        tuple = next[tuple] as number;
      } else {
        tuple = tuple + 1 < relation.size ? tuple + 1 : -1;
      }
    }
  }

  #passes(checks: readonly Check[]): boolean {
    const binding = this.#binding;
    for (const check of checks) {
      if (check.kind === "equal") {
        const left = check.left >= 0 ? check.left : binding[-check.left - 1];
        const right = check.right >= 0 ? check.right : binding[-check.right - 1];
        if ((left === right) === check.negated) return false;
      } else {
        const args = check.atom.args;
        const values = this.#scratch;
        for (let i = 0; i < args.length; i++) {
          const term = args[i] as number;
          values[i] = term >= 0 ? term : (binding[-term - 1] as number);
        }
        if (check.atom.relation.table.find(values) >= 0) return false;
      }
    }
    return true;
  }

  #fire(head: RuleAtom): void {
    const binding = this.#binding;
    const args = head.args;
    const values = this.#head;
    for (let i = 0; i < args.length; i++) {
      const term = args[i] as number;
      values[i] = term >= 0 ? term : (binding[-term - 1] as number);
    }
    this.add(head.relation, values);
  }

  /**
   * Orders a rule's body for a join seeded at `seed` (-1: none): each next
   * atom is the one with the most bound arguments (then the smaller
   * relation); (in)equalities and negated static atoms are tested as soon
   * as their slots are bound; slots no atom binds range over their type.
   */
  #plan(rule: Rule, seed: number): Step[] {
    let slotCount = 0;
    for (const slot of rule.slots) slotCount = Math.max(slotCount, slot + 1);
    for (const atom of rule.body) for (const term of atom.args) if (term < 0) slotCount = Math.max(slotCount, -term);
    const bound = new Uint8Array(slotCount);
    const isBound = (term: Term) => term >= 0 || bound[-term - 1] === 1;
    const typeOf = (slot: number) => typeOfSlot(rule, slot);
    const pendingChecks = [...rule.checks];
    const assigns = pendingChecks.filter((c): c is Extract<Check, { kind: "equal" }> => c.kind === "equal" && !c.negated);
    const ready = (): readonly Check[] => {
      if (pendingChecks.length === 0) return NO_CHECKS;
      const out: Check[] = [];
      for (let i = 0; i < pendingChecks.length; ) {
        const check = pendingChecks[i] as Check;
        const decided = check.kind === "equal" ? isBound(check.left) && isBound(check.right) : check.atom.args.every(isBound);
        if (decided) {
          out.push(check);
          pendingChecks.splice(i, 1);
        } else {
          i++;
        }
      }
      return out;
    };
    if (seed >= 0) for (const term of (rule.body[seed] as RuleAtom).args) if (term < 0) bound[-term - 1] = 1;
    const steps: Step[] = [];
    // Checks the seed's slots already decide run first.
    const first = ready();
    if (first.length > 0) steps.push({ kind: "check", checks: first });
    // Atoms without variables are counted (run), not joined.
    const remaining: number[] = [];
    for (let i = 0; i < rule.body.length; i++) if (i !== seed && !(rule.body[i] as RuleAtom).args.every((t) => t >= 0)) remaining.push(i);
    const propagate = () => {
      // Positive equalities with one side bound bind the other side.
      for (let changed = assigns.length > 0; changed; ) {
        changed = false;
        for (const eq of assigns) {
          const leftBound = isBound(eq.left);
          if (leftBound === isBound(eq.right)) continue;
          const [from, to] = leftBound ? [eq.left, eq.right] : [eq.right, eq.left];
          const slot = -to - 1;
          bound[slot] = 1;
          steps.push({ kind: "assign", slot, from, type: typeOf(slot), checks: ready() });
          changed = true;
        }
      }
    };
    propagate();
    const pick = (): number => {
      // An atom whose arguments are all bound is a lookup: take the first such one as it stands.
      let best = 0;
      let bestScore = -1;
      let bestSize = Number.POSITIVE_INFINITY;
      for (let at = 0; at < remaining.length; at++) {
        const atom = rule.body[remaining[at] as number] as RuleAtom;
        let boundCount = 0;
        for (const term of atom.args) if (isBound(term)) boundCount++;
        if (boundCount === atom.args.length) return at;
        if (boundCount > bestScore || (boundCount === bestScore && atom.relation.size < bestSize)) {
          best = at;
          bestScore = boundCount;
          bestSize = atom.relation.size;
        }
      }
      return best;
    };
    while (remaining.length > 0) {
      const position = remaining.splice(pick(), 1)[0] as number;
      const atom = rule.body[position] as RuleAtom;
      let mask = 0;
      const keyTerms: number[] = [];
      const binds: number[] = [];
      const repeats: number[] = [];
      const typeTests: number[] = [];
      const boundHere: number[] = [];
      atom.args.forEach((term, i) => {
        if (isBound(term)) {
          mask |= 1 << i;
          keyTerms.push(term);
          return;
        }
        const slot = -term - 1;
        if (boundHere.includes(slot)) {
          repeats.push(i, slot);
          return;
        }
        boundHere.push(slot);
        binds.push(i, slot);
        const type = typeOf(slot);
        if (type > 0) typeTests.push(slot, type);
      });
      for (const slot of boundHere) bound[slot] = 1;
      const allBound = mask === (1 << atom.args.length) - 1;
      const limit = !atom.relation.derived ? 0 : seed < 0 ? 0 : position < seed ? 1 : 2;
      steps.push({
        kind: "atom",
        relation: atom.relation,
        index: allBound || mask === 0 ? undefined : atom.relation.index(mask),
        allBound,
        keyTerms,
        binds,
        repeats,
        typeTests,
        limit,
        checks: ready(),
      });
      propagate();
    }
    for (const slot of rule.slots) {
      if (bound[slot] === 1) continue;
      bound[slot] = 1;
      steps.push({ kind: "enumerate", slot, type: typeOf(slot), checks: ready() });
      propagate();
    }
    return memoBlocks(steps, seed < 0 ? [] : slotsOf((rule.body[seed] as RuleAtom).args));
  }
}

function slotsOf(terms: readonly Term[]): number[] {
  const slots: number[] = [];
  for (const term of terms) if (term < 0) slots.push(-term - 1);
  return slots;
}

function checkSlots(check: Check): number[] {
  return check.kind === "equal" ? slotsOf([check.left, check.right]) : slotsOf(check.atom.args);
}

/** Whether an atom step's lookup reads no slot: every bound argument is a constant. */
function startsAnew(step: Step): boolean {
  return step.kind === "atom" && !step.allBound && step.keyTerms.every((term) => term >= 0);
}

/**
 * Marks the plan's blocks that bind nothing the steps before them bound
 * (see {@link Memo}): each starts at an atom whose lookup reads no slot,
 * after some step that loops, and ends before the next such atom, an
 * enumeration or the end. A block is kept whole when one of its lookups or
 * assignments reads a slot bound before it, or when one of its atoms is of
 * a relation that may grow during the join (an unseeded join over derived
 * atoms sees the tuples the join itself adds).
 */
function memoBlocks(steps: Step[], seedSlots: readonly number[]): Step[] {
  const before = new Set<number>(seedSlots);
  let looped = false;
  const bindsOf = (step: Step): number[] => {
    if (step.kind === "atom") return step.binds.filter((_, i) => i % 2 === 1);
    if (step.kind === "assign" || step.kind === "enumerate") return [step.slot];
    return [];
  };
  for (let start = 0; start < steps.length; ) {
    const first = steps[start] as Step;
    if (!(looped && startsAnew(first))) {
      if (first.kind === "enumerate" || (first.kind === "atom" && !first.allBound)) looped = true;
      for (const slot of bindsOf(first)) before.add(slot);
      start++;
      continue;
    }
    let end = start + 1;
    while (end < steps.length && !startsAnew(steps[end] as Step) && (steps[end] as Step).kind !== "enumerate") end++;
    const block = steps.slice(start, end);
    const independent = block.every((step) => {
      if (step.kind === "atom")
        return step.keyTerms.every((t) => t >= 0 || !before.has(-t - 1)) && !(step.relation.derived && step.limit === 0);
      if (step.kind === "assign") return step.from >= 0 || !before.has(-step.from - 1);
      return true;
    });
    if (independent) {
      const deferred: Check[] = [];
      const slots: number[] = [];
      for (let i = start; i < end; i++) {
        const step = steps[i] as Step;
        slots.push(...bindsOf(step));
        const own = step.checks.filter((check) => {
          const reads = checkSlots(check).some((slot) => before.has(slot));
          if (reads) deferred.push(check);
          return !reads;
        });
        const memo: Memo | undefined = i === start ? { end, slots, deferred, epoch: -1, values: new IntVec(64) } : undefined;
        steps[i] = step.kind === "atom" ? { ...step, checks: own, ...(memo ? { memo } : {}) } : { ...step, checks: own };
      }
    }
    for (const step of block) for (const slot of bindsOf(step)) before.add(slot);
    looped = true;
    start = end;
  }
  return steps;
}

const NO_CHECKS: readonly Check[] = Object.freeze([]);

/** A rule's progress: how many of its atoms without variables are still missing; enabled once none is. */
interface RuleState {
  readonly rule: Rule;
  readonly index: number;
  missing: number;
  enabled: boolean;
  /** Whether some atom of the rule with variables belongs to a relation that grows (then new tuples seed it). */
  seeded: boolean;
  unseededPlan?: Step[];
}

/** A rule body atom a relation's new tuples seed, with its join plan (made on first use). */
interface Seed {
  readonly state: RuleState;
  readonly position: number;
  plan: Step[] | undefined;
  unify: SeedUnify | undefined;
}

/** How a new tuple binds the slots of the rule atom it seeds: constants to match, slots to bind, repeated slots to compare, types to test. */
interface SeedUnify {
  readonly constants: readonly number[];
  readonly binds: readonly number[];
  readonly repeats: readonly number[];
  readonly typeTests: readonly number[];
}

function seedUnify(rule: Rule, atom: RuleAtom): SeedUnify {
  const constants: number[] = [];
  const binds: number[] = [];
  const repeats: number[] = [];
  const typeTests: number[] = [];
  const seen = new Set<number>();
  atom.args.forEach((term, i) => {
    if (term >= 0) {
      constants.push(i, term);
      return;
    }
    const slot = -term - 1;
    if (seen.has(slot)) {
      repeats.push(i, slot);
      return;
    }
    seen.add(slot);
    binds.push(i, slot);
    const type = typeOfSlot(rule, slot);
    if (type > 0) typeTests.push(slot, type);
  });
  return { constants, binds, repeats, typeTests };
}

function typeOfSlot(rule: Rule, slot: number): number {
  const i = rule.slots.indexOf(slot);
  return i < 0 ? 0 : (rule.types[i] as number);
}
