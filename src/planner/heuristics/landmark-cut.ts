/**
 * The LM-cut heuristic (Helmert & Domshlak, 2009): repeatedly finds a
 * disjunctive action landmark (a cut in the justification graph of hmax),
 * adds its cheapest cost and removes that cost from the cut's actions, until
 * the relaxed goal costs nothing. Admissible, and on growing problems far
 * more informed than hmax (which counts only the costliest chain).
 *
 * It works on the relaxed model's atoms (conditions), so numeric conditions
 * are relaxed as "one application of an achiever makes it true": never more
 * than the true cost. The value is the larger of LM-cut and hmax with the
 * model's numeric bounds, both admissible.
 *
 * A child whose parent's goal ended at cost 0 usually needs no round: when
 * the parent's zero-cost relaxed plan still reaches the goal from the
 * child, its first hmax pass is skipped (the value is the same).
 *
 * Buffers are allocated once per compiled problem; an evaluation allocates
 * nothing but its record in the landmark store.
 */
import type { CompiledProblem } from "../compiled-problem.js";
import { LandmarkStore } from "../landmark-store.js";
import { CutFinder } from "./justification-cut.js";
import { EPSILON, JustificationGraph } from "./justification-graph.js";
import type { RelaxedModel } from "./relaxed-model.js";
import { ReuseGate } from "./reuse-gate.js";

/**
 * Work one evaluation may spend finding cuts before it settles for the
 * landmarks found so far, in units of atoms and actions scanned: a round
 * (one cut and the hmax update after it) is counted as the atoms plus the
 * actions of the problem, what its scans cost at most. A count, not a
 * time: the value (and so the order of expansions and the plan) is the
 * same on any machine under any load. 2^19 units are 87 cuts on the
 * 3,000-step chain of the bounded bench and never bind on the scale
 * series (about 100 cuts at most there, 3,000 allowed). Measured at 55 ns
 * a unit on a 2-core machine at load 20 (29 ms for a capped evaluation),
 * a few ms when the machine is not shared. An evaluation
 * stopped by the cap still gives a lower bound (every cut found is a
 * disjoint landmark).
 */
export const EVALUATION_WORK = 1 << 19;

/** Rounds between readings of the clock against the search's deadline. */
const DEADLINE_EVERY = 4;

export class LmCut {
  readonly #model: RelaxedModel;
  readonly #graph: JustificationGraph;
  readonly #cuts: CutFinder;
  readonly #goalAtoms: Int32Array;
  /** The action costs of the problem (the graph's costs are reduced during an evaluation). */
  readonly #baseCost: Float64Array;
  /** When the current search must end: an evaluation still running past it gives up (NaN) and the search ends. */
  #deadline = Number.POSITIVE_INFINITY;
  /** The landmarks of the nodes evaluated in this search, by node. */
  readonly #store = new LandmarkStore();
  /** LM-cut's sum of landmark costs at the state evaluated last, or -1 when that evaluation found no landmarks. */
  #lastSum = -1;
  /** True when every atom is a plain fact test and every effect assigns: the model's hmax adds nothing. */
  readonly #atomsOnly: boolean;

  /** Evaluations whose first pass was skipped because the parent's zero-cost relaxed plan still reached the goal. */
  passesSkipped = 0;
  /** Which evaluations keep their zero-cost relaxed plan for their children. */
  readonly #reuse = new ReuseGate();
  /** Whether a child may reuse its parent's zero-cost relaxed plan (tests turn it off to compare values). */
  readonly #reusePlans: boolean;

  /**
   * @param options.reuseZeroCostPlans - skip a child's first pass when its
   *   parent's zero-cost relaxed plan still reaches the goal (the default):
   *   the same values, fewer passes.
   */
  constructor(p: CompiledProblem, model: RelaxedModel, options: { readonly reuseZeroCostPlans?: boolean } = {}) {
    this.#reusePlans = options.reuseZeroCostPlans ?? true;
    this.#model = model;
    this.#atomsOnly = model.hasOnlyPlainAtoms();
    this.#graph = new JustificationGraph(p, model);
    this.#cuts = new CutFinder(this.#graph.lists, this.#graph);
    this.#goalAtoms = Int32Array.from(new Set(p.goalAtoms));
    this.#baseCost = new Float64Array(p.actions.length + 1);
    this.#baseCost.set(model.costLow);
    this.#graph.integerCosts = allIntegers(this.#baseCost);
  }

  /** Takes the model's action costs again: a reused problem's cost functions are re-estimated at each new start. */
  rebindCosts(): void {
    this.#baseCost.set(this.#model.costLow);
    this.#graph.integerCosts = allIntegers(this.#baseCost);
  }

  /**
   * Forgets the landmarks remembered by an earlier search (node numbers
   * start again). `deadline` (a `performance.now()` time) is when the
   * search must end: an evaluation that passes it returns NaN instead of a
   * value, and the search stops there (the clock ends searches, it never
   * shortens an evaluation into a different value).
   */
  beginSearch(deadline = Number.POSITIVE_INFINITY): void {
    this.#store.reset();
    this.passesSkipped = 0;
    this.#reuse.reset();
    this.#deadline = deadline;
  }

  /**
   * The heuristic value of the row at `offset`; Infinity when the relaxed
   * goal is unreachable; NaN when the search's deadline passed during the
   * evaluation (no value: the search must end).
   */
  evaluate(row: Float64Array, offset: number): number {
    return this.#run(row, offset, -1, -1, -1);
  }

  /**
   * The value of search node `node`, reached from node `parent` by action
   * `action`: the parent's landmarks that do not contain the action are
   * still landmarks here, so the evaluation starts from them and only looks
   * for the cuts they leave; the node's landmarks are remembered for its own
   * children. A parent without remembered landmarks (or `parent` -1) means
   * a full evaluation.
   */
  evaluateNode(row: Float64Array, offset: number, node: number, parent: number, action: number): number {
    return this.#run(row, offset, node, parent, action);
  }

  #run(row: Float64Array, offset: number, node: number, parent: number, action: number): number {
    this.#lastSum = -1;
    const model = this.#model;
    let hmaxBound = 0;
    // On a numeric domain the model's hmax knows the numeric bounds, which LM-cut's atoms do not: the larger counts.
    // Without numeric atoms LM-cut's own first hmax is the same value, so the model's is not computed twice.
    if (!this.#atomsOnly) {
      hmaxBound = model.goalHmax(row, offset);
      if (hmaxBound === Number.POSITIVE_INFINITY || hmaxBound === 0) return hmaxBound;
    }
    if (this.#goalAtoms.length === 0) return hmaxBound;
    // The relaxed model's costs are as admissible as LM-cut's, but the model
    // must be refreshed with the new costs on every round, so LM-cut keeps its own.
    const graph = this.#graph;
    const cuts = this.#cuts;
    const cut = graph.cut;
    model.fillHolds(row, offset, graph.holds);
    graph.cost.set(this.#baseCost);
    let h = 0;
    const cost = graph.cost;
    const store = this.#store;
    // Past its cap the store stops growing: later nodes are evaluated in full (the same bound, more work).
    const remember = node >= 0 && store.hasRoom;
    if (remember) store.begin();
    const first = remember ? store.firstOf(parent) : -1;
    if (first >= 0) {
      // The parent's landmarks without the action: still landmarks, and their costs still a partition of the costs.
      const end = first + store.countOf(parent);
      for (let i = first; i < end; i++) {
        const from = store.actStart[i] as number;
        const to = store.actEnd[i] as number;
        let contains = false;
        for (let k = from; k < to; k++) {
          if (store.acts[k] === action) {
            contains = true;
            break;
          }
        }
        if (contains) continue;
        const m = store.cost[i] as number;
        h += m;
        for (let k = from; k < to; k++) {
          const a = store.acts[k] as number;
          const left = (cost[a] as number) - m;
          cost[a] = left <= EPSILON ? 0 : left;
        }
        store.add(m, store.acts, from, to);
      }
      // Most children of a node whose goal ended at cost 0 need no round either. The parent's zero-cost relaxed
      // plan still reaching the goal here (its actions still free, each atom it needs holding or reached by one
      // of them or by a free action from this state) proves hmax is 0 under these costs: the pass would find no
      // cut and the value is the inherited sum, so the pass is skipped. openstacks-opt08 p13: half the search.
      const support = this.#reusePlans ? store.supportOf(parent) : -1;
      if (support >= 0 && graph.supportReachesGoal(store.supportItems, store.supportStart(support), store.supportStart(support + 1))) {
        store.commit(node, support);
        this.passesSkipped++;
        this.#reuse.skipped();
        this.#lastSum = h;
        return Math.max(h, hmaxBound);
      }
    }
    let goalCost = graph.computeHmax();
    if (goalCost === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    // hmax under the whole costs bounds a full evaluation (a seeded one starts from reduced costs).
    if (this.#atomsOnly && first < 0) hmaxBound = goalCost;
    // Every round adds a disjoint landmark, so stopping early still gives a lower bound: a long evaluation
    // (thousands of landmarks on a long plan) stops after a fixed amount of work, the same on every machine.
    const rounds = Math.max(1, Math.floor(EVALUATION_WORK / graph.roundWork));
    const timed = this.#deadline !== Number.POSITIVE_INFINITY;
    if (goalCost > EPSILON) graph.prepareRounds();
    for (let round = 0; round < rounds && round <= graph.goalAction && goalCost > EPSILON; round++) {
      // The next evaluation's `begin` drops the record left uncommitted here.
      if (timed && round % DEADLINE_EVERY === DEADLINE_EVERY - 1 && performance.now() > this.#deadline) return Number.NaN;
      const size = cuts.find();
      if (size === 0) break;
      let m = Number.POSITIVE_INFINITY;
      for (let i = 0; i < size; i++) m = Math.min(m, cost[cut[i] as number] as number);
      h += m;
      for (let i = 0; i < size; i++) {
        const a = cut[i] as number;
        const left = (cost[a] as number) - m;
        cost[a] = left <= EPSILON ? 0 : left;
      }
      if (remember) store.add(m, cut, 0, size);
      goalCost = graph.updateHmax(size);
    }
    if (remember) {
      let support = -1;
      if (goalCost === 0 && this.#reusePlans && store.hasRoomForSupports && this.#reuse.offer()) {
        graph.findZeroCostSupport();
        support = store.addSupport(graph.supportPairs, graph.supportPairCount);
      }
      store.commit(node, support);
    }
    this.#lastSum = h;
    return Math.max(h, hmaxBound);
  }

  /**
   * A lower bound for the state reached by `action` from the state evaluated
   * last: the landmarks found there that do not contain `action` are still
   * landmarks after it (a plan from the child, prefixed by the action, is a
   * plan from the parent), and their costs still partition the action costs.
   * Their sum is the parent's value less what the action's cost paid into
   * landmarks. Zero after an evaluation that found none.
   */
  childEstimate(action: number): number {
    if (this.#lastSum < 0) return 0;
    return this.#lastSum - ((this.#baseCost[action] as number) - (this.#graph.cost[action] as number));
  }
}

/** True when every cost is an integer: LM-cut's costs then stay integers (cuts take integer minima off them). */
function allIntegers(costs: Float64Array): boolean {
  for (let i = 0; i < costs.length; i++) if (!Number.isInteger(costs[i])) return false;
  return true;
}
