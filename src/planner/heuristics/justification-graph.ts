/**
 * LM-cut's justification graph (Helmert & Domshlak, 2009) over the relaxed
 * model's atoms, with an artificial init atom (the precondition of actions
 * without one) and goal action (its lists: `justification-lists.ts`): hmax
 * under the current action costs with each action's precondition choice
 * (its costliest precondition), and the incremental hmax update after a
 * cut's actions got cheaper. The cut itself is `justification-cut.ts`'s;
 * `landmark-cut.ts` runs the rounds. Buffers are allocated once; nothing is
 * allocated per evaluation.
 *
 * An action whose effects all hold in the evaluated state is kept out of
 * the precondition-choice lists (it lowers no cost and crosses into no
 * goal zone, which holds no state atom while the goal costs more than 0);
 * the passes walk whole effect lists, where an atom that holds costs 0
 * and is reached from the start already, so it changes nothing. Most
 * evaluations of a search run no round (the goal costs nothing, or the
 * parent's landmarks already paid for it), so the first hmax pass only
 * records the order in which actions were reached, and the lists are
 * built from it by {@link JustificationGraph.prepareRounds} when a round
 * is due: the pass then costs what Fast Downward's does.
 * @internal
 */
import type { CompiledProblem } from "../compiled-problem.js";
import { CostQueue, MIN_BUCKETS_BEFORE_SWITCH } from "../cost-queue.js";
import { type JustificationLists, justificationLists } from "./justification-lists.js";
import type { RelaxedModel } from "./relaxed-model.js";

/**
 * Bucket passes in a row that may give way to the queue pass before the graph
 * runs the queue pass directly: where costs are large and sparse (parcprinter's
 * millions) every bucket pass gave way after part of its work. Which pass runs
 * never changes a value or a choice (they pop in the same order), only its cost.
 */
const MAX_BUCKET_BAILS = 8;

/** Costs below this count as spent (costs are sums and differences of floats). */
export const EPSILON = 1e-9;

export class JustificationGraph {
  readonly #nAtoms: number;
  readonly #init: number;
  readonly #goal: number;
  /** The artificial goal action's index (one past the last action). */
  readonly goalAction: number;
  /** Work units one round (a cut and the hmax update after it) costs at most: the atoms plus the actions. */
  readonly roundWork: number;
  /** The graph's shape (the cut is found over it too). */
  readonly lists: JustificationLists;
  // Forward lists, with the init atom and goal action.
  readonly #preStart: Int32Array;
  readonly #preAtom: Int32Array;
  readonly #preCount: Int32Array;
  /** Per action, the distinct atoms it achieves (the cut's forward pass walks them too). */
  readonly effStart: Int32Array;
  readonly effAtom: Int32Array;
  /** The atoms that hold in the evaluated state, in increasing order (the first `stateCount`), filled by `computeHmax`. */
  readonly stateAtoms: Int32Array;
  stateCount = 0;
  // Inverse lists: actions needing an atom.
  readonly #needStart: Int32Array;
  readonly #needAction: Int32Array;
  /** The action costs of the current evaluation (a cut's cost is taken off its actions). */
  readonly cost: Float64Array;
  /** Per atom: 1 when it holds in the evaluated state (the caller fills it). */
  readonly holds: Uint8Array;
  /** The last cut's actions (`CutFinder.find` writes them). */
  readonly cut: Int32Array;
  readonly #hmax: Float64Array;
  readonly #remaining: Int32Array;
  /** Per action: its precondition choice, the costliest precondition (-1 while unreached). */
  readonly pcf: Int32Array;
  /** The actions `computeHmax` reached, in the order they were reached (the first `reachedCount`). */
  readonly reachedOrder: Int32Array;
  reachedCount = 0;
  /** The graph's out-edges: per atom, a doubly linked list of the actions whose precondition choice it is (heads, links). */
  readonly supHead: Int32Array;
  readonly supNext: Int32Array;
  readonly #supPrev: Int32Array;
  /**
   * Per atom: the action that last lowered its hmax in this evaluation (read only for atoms that do not hold and
   * were reached: the others keep stale entries). At cost 0 these form a relaxed plan ({@link findZeroCostSupport}).
   */
  readonly #achiever: Int32Array;
  /** Stamps, per-atom plan and stack of the support walks ({@link findZeroCostSupport}, {@link supportReachesGoal}). */
  readonly #seenAtom: Int32Array;
  readonly #plannedMark: Int32Array;
  readonly #plannedAction: Int32Array;
  #seen = 0;
  readonly #walk: Int32Array;
  /** What {@link findZeroCostSupport} found: the first `supportPairCount` entries, (atom, action) pairs. */
  readonly supportPairs: Int32Array;
  supportPairCount = 0;
  readonly #heap: CostQueue;
  #integerCosts = false;
  /** Bucket passes in a row that gave way to the queue (see {@link MAX_BUCKET_BAILS}). */
  #bucketBails = 0;
  /** The first pass's bucket queue with integer costs (see {@link computeHmax}): per cost its last entry, per entry its atom and the entry before it. */
  #bucketHead = new Int32Array(64);
  #entryItem = new Int32Array(256);
  #entryNext = new Int32Array(256);

  constructor(p: CompiledProblem, model: RelaxedModel) {
    const nAtoms = p.atoms.length;
    const nActions = p.actions.length;
    const lists = justificationLists(p, model);
    this.#nAtoms = nAtoms;
    this.#init = lists.init;
    this.#goal = lists.goal;
    this.goalAction = lists.goalAction;
    this.#preStart = lists.pre.start;
    this.#preAtom = lists.pre.items;
    this.#preCount = lists.preCount;
    this.effStart = lists.eff.start;
    this.effAtom = lists.eff.items;
    this.#needStart = lists.need.start;
    this.#needAction = lists.need.items;
    this.lists = lists;
    const width = nAtoms + 2;
    this.cost = new Float64Array(nActions + 1);
    this.#hmax = new Float64Array(width);
    this.#remaining = new Int32Array(nActions + 1);
    this.pcf = new Int32Array(nActions + 1);
    this.reachedOrder = new Int32Array(nActions + 1);
    this.supHead = new Int32Array(width);
    this.supNext = new Int32Array(nActions + 1);
    this.#supPrev = new Int32Array(nActions + 1);
    // Two more than the atoms: the init and goal atoms never hold (effects are tested against it without a bound check).
    this.holds = new Uint8Array(width);
    this.stateAtoms = new Int32Array(nAtoms);
    this.cut = new Int32Array(nActions + 1);
    this.#achiever = new Int32Array(width);
    this.#seenAtom = new Int32Array(width);
    this.#plannedMark = new Int32Array(width);
    this.#plannedAction = new Int32Array(width);
    this.#walk = new Int32Array(width);
    this.supportPairs = new Int32Array(width * 2);
    this.#heap = new CostQueue(width * 2);
    this.roundWork = width + nActions + 1;
  }

  /** Declares whether every action cost is an integer (the queue is then a bucket queue; see `CostQueue`). */
  set integerCosts(integer: boolean) {
    this.#heap.integerCosts = integer;
    this.#integerCosts = integer;
    this.#bucketBails = 0;
  }

  /**
   * Resets what a first pass computes: every atom unreached but the state's
   * (listed in `stateAtoms`, ascending) and the init atom, at cost 0; every
   * action waiting for all its preconditions, without a choice. Returns the
   * number of state atoms; the pass then queues them and the init atom.
   */
  #startPass(): number {
    const hm = this.#hmax;
    const holds = this.holds;
    const stateAtoms = this.stateAtoms;
    hm.fill(Number.POSITIVE_INFINITY);
    this.#remaining.set(this.#preCount);
    this.pcf.fill(-1);
    let count = 0;
    for (let i = 0; i < this.#nAtoms; i++) {
      if (holds[i] === 1) {
        hm[i] = 0;
        stateAtoms[count++] = i;
      }
    }
    this.stateCount = count;
    hm[this.#init] = 0;
    return count;
  }

  /**
   * hmax under the current costs from the state in `holds`, explored to the
   * end (actions past the goal may still cross into the goal zone); records
   * each action's precondition choice, its costliest precondition, and the
   * order in which actions were reached. An effect that holds in the state
   * costs 0 already, so relaxing it changes nothing: the pass walks the
   * whole effect lists, and the trimmed ones are built only for rounds
   * ({@link prepareRounds}).
   */
  computeHmax(): number {
    if (this.#integerCosts && this.#bucketBails < MAX_BUCKET_BAILS) {
      const value = this.#computeHmaxBuckets();
      if (!Number.isNaN(value)) {
        this.#bucketBails = 0;
        return value;
      }
      this.#bucketBails++;
    }
    return this.computeHmaxOnQueue();
  }

  /**
   * {@link computeHmax} with integer costs: the bucket queue of `CostQueue`
   * on local arrays (the pass is most of an evaluation's time). Pops in the
   * same order as `CostQueue` (lowest bucket first, last in first out
   * within one), so every value and choice is the same; NaN when a push
   * would have turned `CostQueue` into a heap (a cost far above the lowest
   * bucket), and the caller reruns the pass on `CostQueue`.
   */
  #computeHmaxBuckets(): number {
    const hm = this.#hmax;
    const count = this.#startPass();
    const stateAtoms = this.stateAtoms;
    let head = this.#bucketHead;
    let item = this.#entryItem;
    let next = this.#entryNext;
    // Bucket 0 holds the state's atoms and the init atom, pushed in that order (as the queue pass pushes them).
    if (count + 1 > item.length) [item, next] = this.#growEntries(count + 1);
    for (let i = 0; i <= count; i++) {
      item[i] = i < count ? (stateAtoms[i] as number) : this.#init;
      next[i] = i === 0 ? -1 : i - 1;
    }
    head[0] = count;
    let used = count + 1;
    let size = count + 1;
    let low = 0;
    let high = 0;
    const effStart = this.effStart;
    const effAtom = this.effAtom;
    const needStart = this.#needStart;
    const needAction = this.#needAction;
    const cost = this.cost;
    const remaining = this.#remaining;
    const pcf = this.pcf;
    const order = this.reachedOrder;
    const achiever = this.#achiever;
    let reachedCount = 0;
    pass: while (size > 0) {
      let c = low;
      while ((head[c] as number) < 0) c++;
      low = c;
      const entry = head[c] as number;
      head[c] = next[entry] as number;
      size--;
      const atom = item[entry] as number;
      // An atom is queued only when its cost falls, so the entry that matches its cost is its only one left.
      if (c > (hm[atom] as number)) continue;
      const needEnd = needStart[atom + 1] as number;
      for (let k = needStart[atom] as number; k < needEnd; k++) {
        const a = needAction[k] as number;
        const left = (remaining[a] as number) - 1;
        remaining[a] = left;
        if (left !== 0) continue;
        // Atoms leave the queue in cost order, so the last precondition to arrive is the costliest.
        pcf[a] = atom;
        order[reachedCount++] = a;
        const reach = c + (cost[a] as number);
        const to = effStart[a + 1] as number;
        for (let e = effStart[a] as number; e < to; e++) {
          const q = effAtom[e] as number;
          if (reach >= (hm[q] as number)) continue;
          // Where CostQueue would turn into a heap (see its push), the pass is rerun on it.
          const ahead = reach - low;
          if ((reach | 0) !== reach || (ahead > MIN_BUCKETS_BEFORE_SWITCH && ahead > used)) {
            reachedCount = -1;
            break pass;
          }
          hm[q] = reach;
          achiever[q] = a;
          if (used === item.length) [item, next] = this.#growEntries(used + 1);
          if (reach >= head.length) head = this.#growBuckets(reach);
          while (high < reach) head[++high] = -1;
          item[used] = q;
          next[used] = head[reach] as number;
          head[reach] = used++;
          size++;
        }
      }
    }
    if (reachedCount < 0) return Number.NaN;
    this.reachedCount = reachedCount;
    return hm[this.#goal] as number;
  }

  #growEntries(least: number): [Int32Array<ArrayBuffer>, Int32Array<ArrayBuffer>] {
    const length = Math.max(least, this.#entryItem.length * 2);
    const item = new Int32Array(length);
    item.set(this.#entryItem);
    const next = new Int32Array(length);
    next.set(this.#entryNext);
    this.#entryItem = item;
    this.#entryNext = next;
    return [item, next];
  }

  #growBuckets(cost: number): Int32Array<ArrayBuffer> {
    const head = new Int32Array(Math.max(cost + 1, this.#bucketHead.length * 2));
    head.set(this.#bucketHead);
    this.#bucketHead = head;
    return head;
  }

  /**
   * {@link computeHmax} on `CostQueue`: where costs are not integers, or
   * where the bucket pass gives way to it (tests compare the two).
   */
  computeHmaxOnQueue(): number {
    const hm = this.#hmax;
    const count = this.#startPass();
    const stateAtoms = this.stateAtoms;
    const heap = this.#heap;
    heap.clear();
    for (let i = 0; i < count; i++) heap.push(stateAtoms[i] as number, 0);
    heap.push(this.#init, 0);
    const effStart = this.effStart;
    const effAtom = this.effAtom;
    const needStart = this.#needStart;
    const needAction = this.#needAction;
    const cost = this.cost;
    const remaining = this.#remaining;
    const pcf = this.pcf;
    const order = this.reachedOrder;
    const achiever = this.#achiever;
    let reachedCount = 0;
    while (heap.size > 0) {
      heap.pop();
      const atom = heap.poppedItem;
      const c = heap.poppedCost;
      // An atom is queued only when its cost falls, so the entry that matches its cost is its only one left.
      if (c > (hm[atom] as number)) continue;
      const needEnd = needStart[atom + 1] as number;
      for (let k = needStart[atom] as number; k < needEnd; k++) {
        const a = needAction[k] as number;
        const left = (remaining[a] as number) - 1;
        remaining[a] = left;
        if (left !== 0) continue;
        // Atoms leave the queue in cost order, so the last precondition to arrive is the costliest.
        pcf[a] = atom;
        order[reachedCount++] = a;
        const reach = c + (cost[a] as number);
        const to = effStart[a + 1] as number;
        for (let e = effStart[a] as number; e < to; e++) {
          const q = effAtom[e] as number;
          if (reach < (hm[q] as number)) {
            hm[q] = reach;
            achiever[q] = a;
            heap.push(q, reach);
          }
        }
      }
    }
    this.reachedCount = reachedCount;
    return hm[this.#goal] as number;
  }

  /**
   * Builds what the rounds after the last {@link computeHmax} work on: the
   * precondition-choice lists (`supHead`/`supNext`), each action linked in
   * the order the pass reached it, as if it had been linked there, unless
   * every effect it has holds in the state.
   */
  prepareRounds(): void {
    const holds = this.holds;
    const effStart = this.effStart;
    const effAtom = this.effAtom;
    const order = this.reachedOrder;
    const pcf = this.pcf;
    this.supHead.fill(-1);
    for (let i = 0; i < this.reachedCount; i++) {
      const a = order[i] as number;
      const end = effStart[a + 1] as number;
      for (let e = effStart[a] as number; e < end; e++) {
        if (holds[effAtom[e] as number] === 0) {
          this.#link(a, pcf[a] as number);
          break;
        }
      }
    }
  }

  /**
   * hmax again after the cut's actions got cheaper: only what those actions
   * reach can get cheaper, so the decreases are propagated from them (costs
   * only fall, so every atom stays reachable and a precondition choice only
   * changes when the chosen precondition itself got cheaper).
   */
  updateHmax(cutSize: number): number {
    const hm = this.#hmax;
    const pcf = this.pcf;
    const cost = this.cost;
    const heap = this.#heap;
    const supHead = this.supHead;
    const supNext = this.supNext;
    const preStart = this.#preStart;
    const preAtom = this.#preAtom;
    const effStart = this.effStart;
    const effAtom = this.effAtom;
    const cut = this.cut;
    const achiever = this.#achiever;
    heap.clear();
    for (let i = 0; i < cutSize; i++) this.#relaxEffects(cut[i] as number);
    while (heap.size > 0) {
      heap.pop();
      const q = heap.poppedItem;
      const qCost = hm[q] as number;
      if (heap.poppedCost > qCost) continue;
      // The actions whose choice is q: their costliest precondition may now be another (the first costlier
      // than q in list order, as a scan that keeps q on ties).
      for (let a = supHead[q] as number, next = -1; a >= 0; a = next) {
        next = supNext[a] as number;
        let best = q;
        let bestCost = qCost;
        const preEnd = preStart[a + 1] as number;
        for (let j = preStart[a] as number; j < preEnd; j++) {
          const x = preAtom[j] as number;
          const xCost = hm[x] as number;
          if (xCost > bestCost) {
            best = x;
            bestCost = xCost;
          }
        }
        if (best !== q) {
          pcf[a] = best;
          this.#unlink(a, q);
          this.#link(a, best);
        }
        // The effects of `a` fall to its new precondition choice's cost plus its own (inlined #relaxEffects).
        const reach = bestCost + (cost[a] as number);
        const effEnd = effStart[a + 1] as number;
        for (let e = effStart[a] as number; e < effEnd; e++) {
          const r = effAtom[e] as number;
          if (reach < (hm[r] as number) - EPSILON) {
            hm[r] = reach;
            achiever[r] = a;
            heap.push(r, reach);
          }
        }
      }
    }
    return hm[this.#goal] as number;
  }

  /**
   * The relaxed plan behind a goal that costs nothing: call it when the last
   * pass or round returned exactly 0. Writes, for each atom the plan needs
   * that does not hold in the state, a pair (the atom, the action that
   * reaches it at cost 0) into `supportPairs`; the goal atom's pair comes
   * first. A child's evaluation hands the pairs to
   * {@link supportReachesGoal} to tell whether hmax is still 0 there
   * without a pass.
   */
  findZeroCostSupport(): void {
    const mark = this.#nextMark();
    const seenAtom = this.#seenAtom;
    const stack = this.#walk;
    const holds = this.holds;
    const achiever = this.#achiever;
    const pairs = this.supportPairs;
    let count = 0;
    let top = 0;
    seenAtom[this.#goal] = mark;
    stack[top++] = this.#goal;
    while (top > 0) {
      const q = stack[--top] as number;
      if (q === this.#init || holds[q] === 1) continue;
      // At cost 0 an achiever's preconditions were all at 0 when it lowered q, and nothing lowers an atom past 0:
      // the achievers form an acyclic relaxed plan (the stamps bound the walk regardless).
      const a = achiever[q] as number;
      pairs[count++] = q;
      pairs[count++] = a;
      top = this.#pushPreconditions(a, mark, top);
    }
    this.supportPairCount = count;
  }

  /**
   * True when the zero-cost relaxed plan in `pairs[from .. to - 1]` (as
   * {@link findZeroCostSupport} wrote it, for another state) still reaches
   * the goal from the state in `holds` under the current costs: walking back
   * from the goal, each atom that does not hold either has its action in
   * the plan at cost exactly 0, or (an atom the other state held, or whose
   * action costs more now) an action that costs 0 and needs only atoms that
   * hold here. Then hmax is 0 here (the first pass would return 0).
   */
  supportReachesGoal(pairs: Int32Array, from: number, to: number): boolean {
    const mark = this.#nextMark();
    const planned = this.#plannedMark;
    const plannedAction = this.#plannedAction;
    for (let k = from; k < to; k += 2) {
      const q = pairs[k] as number;
      planned[q] = mark;
      plannedAction[q] = pairs[k + 1] as number;
    }
    const seenAtom = this.#seenAtom;
    const stack = this.#walk;
    const holds = this.holds;
    const cost = this.cost;
    let top = 0;
    seenAtom[this.#goal] = mark;
    stack[top++] = this.#goal;
    while (top > 0) {
      const q = stack[--top] as number;
      if (holds[q] === 1 || q === this.#init) continue;
      let a = planned[q] === mark ? (plannedAction[q] as number) : -1;
      // An atom the plan took from the other state (gone here) or reached by an action that costs more now: an
      // action that costs 0 and needs only atoms that hold here reaches it as well (nothing more is searched, so
      // the walk stays as cheap as the plan and cannot close a cycle).
      if (a < 0 || cost[a] !== 0) {
        a = this.#freeFromState(q);
        if (a < 0) return false;
        continue;
      }
      top = this.#pushPreconditions(a, mark, top);
    }
    return true;
  }

  /** Pushes action `a`'s preconditions not yet stamped `mark` onto the walk's stack; returns the new top. */
  #pushPreconditions(a: number, mark: number, top: number): number {
    const seenAtom = this.#seenAtom;
    const stack = this.#walk;
    const preAtom = this.#preAtom;
    const end = this.#preStart[a + 1] as number;
    let t = top;
    for (let j = this.#preStart[a] as number; j < end; j++) {
      const x = preAtom[j] as number;
      if (seenAtom[x] === mark) continue;
      seenAtom[x] = mark;
      stack[t++] = x;
    }
    return t;
  }

  /** An action that achieves `atom`, costs 0 and needs only atoms that hold in the state; -1 when there is none. */
  #freeFromState(atom: number): number {
    const achStart = this.lists.ach.start;
    const achAction = this.lists.ach.items;
    const preStart = this.#preStart;
    const preAtom = this.#preAtom;
    const holds = this.holds;
    const cost = this.cost;
    const init = this.#init;
    const end = achStart[atom + 1] as number;
    actions: for (let k = achStart[atom] as number; k < end; k++) {
      const b = achAction[k] as number;
      if (cost[b] !== 0) continue;
      const preEnd = preStart[b + 1] as number;
      for (let j = preStart[b] as number; j < preEnd; j++) {
        const x = preAtom[j] as number;
        if (holds[x] !== 1 && x !== init) continue actions;
      }
      return b;
    }
    return -1;
  }

  /** A fresh stamp for the walks' marks (no clearing of whole arrays per walk). */
  #nextMark(): number {
    if (this.#seen >= 0x7ffffff0) {
      this.#seenAtom.fill(0);
      this.#plannedMark.fill(0);
      this.#seen = 0;
    }
    return ++this.#seen;
  }

  /** Adds action `a` to the actions whose precondition choice is `atom`. */
  #link(a: number, atom: number): void {
    const head = this.supHead[atom] as number;
    this.supNext[a] = head;
    this.#supPrev[a] = -1;
    if (head >= 0) this.#supPrev[head] = a;
    this.supHead[atom] = a;
  }

  /** Removes action `a` from the actions whose precondition choice is `atom`. */
  #unlink(a: number, atom: number): void {
    const prev = this.#supPrev[a] as number;
    const next = this.supNext[a] as number;
    if (prev >= 0) this.supNext[prev] = next;
    else this.supHead[atom] = next;
    if (next >= 0) this.#supPrev[next] = prev;
  }

  /**
   * Lowers the hmax of what cut action `a` achieves to its costliest
   * precondition's cost plus its own. The costliest is read again, not taken
   * from the precondition choice: relaxing an earlier action of the same cut
   * may have lowered the choice below another precondition (it is chosen
   * again when it leaves the queue), and its cost would then lower these
   * effects below hmax (floortile-opt11 p02-003 did; Fast Downward keeps
   * the choice's cost from when it was chosen for the same reason).
   */
  #relaxEffects(a: number): void {
    const hm = this.#hmax;
    const effStart = this.effStart;
    const effAtom = this.effAtom;
    let costliest = 0;
    const preEnd = this.#preStart[a + 1] as number;
    for (let j = this.#preStart[a] as number; j < preEnd; j++) costliest = Math.max(costliest, hm[this.#preAtom[j] as number] as number);
    const reach = costliest + (this.cost[a] as number);
    for (let e = effStart[a] as number; e < (effStart[a + 1] as number); e++) {
      const q = effAtom[e] as number;
      if (reach < (hm[q] as number) - EPSILON) {
        hm[q] = reach;
        this.#achiever[q] = a;
        this.#heap.push(q, reach);
      }
    }
  }
}
