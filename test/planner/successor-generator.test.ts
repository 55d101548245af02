import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ActionSpec, GoalSpec, type WorldState } from "../../src/core/index.js";
import { ApplicableActions } from "../../src/planner/applicable-actions.js";
import { type BitLayout, bitLayoutOf } from "../../src/planner/bit-layout.js";
import { compileProblem } from "../../src/planner/compile.js";
import { type HeuristicName, planDetailed } from "../../src/planner/index.js";
import { Pace, runUnpaced, unpaced } from "../../src/planner/pace.js";
import {
  buildSuccessorGenerator,
  type SuccessorGenerator,
  successorGeneratorSteps,
  successorGeneratorTuning,
} from "../../src/planner/successor-generator.js";

const DEFAULT_TUNING = { ...successorGeneratorTuning };
afterEach(() => {
  Object.assign(successorGeneratorTuning, DEFAULT_TUNING);
  vi.restoreAllMocks();
});

/** A small deterministic generator, so a failing task can be rebuilt from its seed. */
function lcg(seed: number): (n: number) => number {
  let x = seed >>> 0 || 1;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

/**
 * `count` actions over `facts` booleans, each testing `minPreconditions` to `maxPreconditions` facts (some may
 * coincide; a quarter of them want false) and writing
 * one to three; the goal is four facts a random walk from the start changed, so a plan exists.
 */
function randomTask(seed: number, facts: number, count: number, minPreconditions = 0, maxPreconditions = 4) {
  const rnd = lcg(seed);
  const start: WorldState = {};
  for (let f = 0; f < facts; f++) start[`f${f}`] = rnd(3) === 0;
  const actions: ActionSpec[] = [];
  for (let i = 0; i < count; i++) {
    const preconditions: Record<string, boolean> = {};
    for (let k = minPreconditions + rnd(maxPreconditions - minPreconditions + 1); k > 0; k--)
      preconditions[`f${rnd(facts)}`] = rnd(4) !== 0;
    const effects: Record<string, boolean> = {};
    for (let k = 1 + rnd(3); k > 0; k--) effects[`f${rnd(facts)}`] = rnd(3) !== 0;
    actions.push(new ActionSpec({ name: `a${i}`, preconditions, effects, cost: 1 + rnd(3) }));
  }
  let state: WorldState = { ...start };
  for (let step = 0; step < 40; step++) {
    const applicable = actions.filter((a) => Object.entries(a.preconditions).every(([k, v]) => state[k] === v));
    if (applicable.length === 0) break;
    const a = applicable[rnd(applicable.length)] as ActionSpec;
    state = { ...state, ...(a.effects as Record<string, boolean>) };
  }
  // Facts the walk changed, so the search has work to do.
  const changed = Object.keys(start).filter((f) => state[f] !== start[f]);
  const conditions: Record<string, boolean> = {};
  for (let k = 0; k < 4 && changed.length > 0; k++) {
    const f = changed.splice(rnd(changed.length), 1)[0] as string;
    conditions[f] = state[f] as boolean;
  }
  return { actions, start, goal: new GoalSpec({ conditions }) };
}

function layoutOf(seed: number, facts: number, count: number): BitLayout {
  const { actions, start, goal } = randomTask(seed, facts, count);
  const layout = bitLayoutOf(compileProblem(start, goal, actions));
  if (layout === null) throw new Error("a boolean task has a bit layout");
  return layout;
}

/** The actions the scan of search-bits.ts finds applicable in `state`, in its order. */
function scanned(layout: BitLayout, relevant: Uint8Array | undefined, state: Int32Array): number[] {
  const { preStart, preWord, preWordMask, preWordValue } = layout;
  const out: number[] = [];
  actions: for (let ai = 0; ai < preStart.length - 1; ai++) {
    if (relevant !== undefined && relevant[ai] === 0) continue;
    for (let k = preStart[ai] as number; k < (preStart[ai + 1] as number); k++) {
      if (((state[preWord[k] as number] as number) & (preWordMask[k] as number)) !== preWordValue[k]) continue actions;
    }
    out.push(ai);
  }
  return out;
}

/** The actions the tree lists for `state`, walked `budget` nodes at a time. */
function listed(list: ApplicableActions, state: Int32Array, budget = Number.POSITIVE_INFINITY): number[] {
  list.begin();
  while (!list.walk(state, 0, budget));
  const out: number[] = [];
  for (let ai = list.take(); ai >= 0; ai = list.take()) out.push(ai);
  return out;
}

/** The tree a search of `layout` without relevance analysis from the all-false state gets, or null for the scan. */
const searchTreeOf = (layout: BitLayout) => runUnpaced(successorGeneratorSteps(layout, undefined, new Int32Array(layout.words), unpaced()));

function generatorOf(layout: BitLayout, relevant?: Uint8Array): SuccessorGenerator {
  const generator = buildSuccessorGenerator(layout, relevant);
  if (generator === null) throw new Error("a small task gets a tree");
  return generator;
}

const stateOf = (layout: BitLayout) =>
  fc.array(fc.integer(), { minLength: layout.words, maxLength: layout.words }).map((w) => Int32Array.from(w));

describe("successor generator", () => {
  const layout = layoutOf(7, 90, 400);

  it("lists the actions the scan finds applicable, in ascending order, on random states", () => {
    const list = new ApplicableActions(generatorOf(layout));
    fc.assert(
      fc.property(stateOf(layout), (state) => {
        expect(listed(list, state)).toEqual(scanned(layout, undefined, state));
      }),
      { numRuns: 300 },
    );
  });

  it("lists only the actions relevance keeps", () => {
    const relevant = Uint8Array.from({ length: 400 }, (_, i) => (i % 3 === 1 ? 0 : 1));
    const list = new ApplicableActions(generatorOf(layout, relevant));
    fc.assert(
      fc.property(stateOf(layout), (state) => {
        expect(listed(list, state)).toEqual(scanned(layout, relevant, state));
      }),
      { numRuns: 200 },
    );
  });

  it("lists the same actions when its walk is cut into slices, and forgets a state left before its end", () => {
    const list = new ApplicableActions(generatorOf(layout));
    fc.assert(
      fc.property(stateOf(layout), stateOf(layout), fc.integer({ min: 1, max: 8 }), (left, state, budget) => {
        list.begin();
        while (!list.walk(left, 0, budget));
        list.take();
        expect(listed(list, state, budget)).toEqual(scanned(layout, undefined, state));
      }),
      { numRuns: 200 },
    );
  });

  it("tests negative preconditions and words past the first", () => {
    const wide = layoutOf(11, 150, 300);
    expect(wide.words).toBeGreaterThan(4);
    expect(Array.from(wide.preWordMask).some((mask, k) => (mask & ~(wide.preWordValue[k] as number)) !== 0)).toBe(true);
    const list = new ApplicableActions(generatorOf(wide));
    fc.assert(
      fc.property(stateOf(wide), (state) => {
        expect(listed(list, state)).toEqual(scanned(wide, undefined, state));
      }),
      { numRuns: 200 },
    );
  });

  it("is built once per layout and relevance set, only above the action threshold, and not past its literal bound", () => {
    successorGeneratorTuning.actionsPerChild = 0;
    expect(searchTreeOf(layout)).not.toBeNull();
    expect(searchTreeOf(layout)).toBe(searchTreeOf(layout));
    const small = layoutOf(3, 20, 40);
    expect(searchTreeOf(small)).toBeNull();
    successorGeneratorTuning.minActions = 0;
    expect(searchTreeOf(small)).not.toBeNull();
    expect(buildSuccessorGenerator(layout, undefined, 100)).toBeNull();
  });

  it("is built in slices, yielding between them, to the same tree", () => {
    const wide = layoutOf(13, 120, 500);
    Object.assign(successorGeneratorTuning, { minActions: 0, actionsPerChild: 0 });
    const steps = successorGeneratorSteps(wide, undefined, new Int32Array(wide.words), new Pace(0, Number.POSITIVE_INFINITY, undefined));
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBeGreaterThan(1);
    expect(step.value).toEqual(buildSuccessorGenerator(wide, undefined));
  });

  /** The outcome of a search of `task` with the tree from its start, and with the scan only. */
  function treeAndScan(task: ReturnType<typeof randomTask>, options: Parameters<typeof planDetailed>[3]) {
    Object.assign(successorGeneratorTuning, { minActions: 0, actionsPerChild: 0 });
    const tree = planDetailed(task.start, task.goal, task.actions, options);
    successorGeneratorTuning.minActions = Number.POSITIVE_INFINITY;
    const scan = planDetailed(task.start, task.goal, task.actions, options);
    return { tree, scan };
  }

  function expectSameSearch({ tree, scan }: ReturnType<typeof treeAndScan>): void {
    expect(tree.status).toBe(scan.status);
    expect(tree.plan?.actionNames).toEqual(scan.plan?.actionNames);
    expect(tree.plan?.totalCost).toBe(scan.plan?.totalCost);
    expect(tree.stats.nodesExpanded).toBe(scan.stats.nodesExpanded);
    expect(tree.stats.nodesGenerated).toBe(scan.stats.nodesGenerated);
  }

  it("finds the plans, costs, expansions and generated counts of the scan (blind search of seed 1 runs out of expansions)", () => {
    const walked = vi.spyOn(ApplicableActions.prototype, "begin");
    for (const seed of [1, 5, 6]) {
      const task = randomTask(seed, 70, 260);
      for (const heuristic of ["zero", "lmcut", "hmax"] as HeuristicName[]) {
        for (const relevance of [true, false]) expectSameSearch(treeAndScan(task, { heuristic, relevance, maxExpansions: 3000 }));
      }
    }
    expect(walked).toHaveBeenCalled();
  });

  it("takes the tree where few actions apply on a walk from the start, and keeps the scan where most do", () => {
    const walked = vi.spyOn(ApplicableActions.prototype, "begin");
    const options = { heuristic: "zero" as const, maxExpansions: 500 };
    // Each action wants four facts, so few apply: tens of actions per child.
    // The choice walks the tree on 64 states of its sample; a search that takes the tree walks it once per expansion.
    const sparse = randomTask(5, 70, 400, 4);
    const found = planDetailed(sparse.start, sparse.goal, sparse.actions, options);
    expect(walked).toHaveBeenCalledTimes(64 + found.stats.nodesExpanded);
    walked.mockClear();
    // No action tests anything: every one applies, about one action per child.
    const dense = randomTask(5, 70, 400, 0, 0);
    expect(planDetailed(dense.start, dense.goal, dense.actions, options).stats.nodesExpanded).toBeGreaterThan(1);
    expect(walked).toHaveBeenCalledTimes(64);
  });
});
