import { describe, expect, it } from "vitest";
import { ActionSpec, createRng, type WorldState } from "../../src/core/index.js";
import { buildDependencyGraph, criticalPath, type SolverName, schedulePlan } from "../../src/optimize/index.js";
import { Plan, replayPlan } from "../../src/planner/index.js";

const SOLVERS: SolverName[] = ["highs", "javascript-lp-solver"];

function planOf(actions: ActionSpec[], start: WorldState = {}): Plan {
  const replay = replayPlan(start, actions);
  expect(replay.valid).toBe(true);
  return new Plan({ actions, expectedStates: replay.states, startState: start, totalCost: replay.totalCost });
}

/** A task that needs the listed tasks done and uses one agent. */
function task(name: string, durationMs: number, after: string[] = [], agents = 1): ActionSpec {
  return new ActionSpec({
    name,
    preconditions: Object.fromEntries(after.map((p) => [`${p}_done`, true])),
    effects: { [`${name}_done`]: true },
    durationMs,
    resources: { agents },
  });
}

const chain = () => planOf([task("a", 2000), task("b", 3000, ["a"]), task("c", 1000, ["b"])]);
const parallel = () => planOf([task("a", 3000), task("b", 2000), task("c", 4000)]);
const diamond = () => planOf([task("a", 1000), task("b", 2000, ["a"]), task("c", 5000, ["a"]), task("d", 1000, ["b", "c"])]);

describe("buildDependencyGraph", () => {
  it("links each precondition to its nearest earlier producer", () => {
    expect(buildDependencyGraph(chain())).toEqual([[], [0], [1]]);
    expect(buildDependencyGraph(parallel())).toEqual([[], [], []]);
    expect(buildDependencyGraph(diamond())).toEqual([[], [0], [0], [1, 2]]);
  });

  it("picks the nearest producer and ignores writers that do not make the precondition true", () => {
    const open = new ActionSpec({ name: "open", effects: { door: "open" } });
    const close = new ActionSpec({ name: "close", preconditions: { door: "open" }, effects: { door: "closed" } });
    const reopen = new ActionSpec({ name: "reopen", preconditions: { door: "closed" }, effects: { door: "open" } });
    const walk = new ActionSpec({ name: "walk", preconditions: { door: "open" }, effects: { outside: true } });
    const plan = planOf([open, close, reopen, walk]);
    expect(buildDependencyGraph(plan, { mode: "producers" })).toEqual([[], [0], [1], [2]]);
  });

  it("in safe mode keeps writers of a key in order and makes an overwrite wait for earlier readers", () => {
    const setA = new ActionSpec({ name: "set_a", effects: { x: 1 } });
    const readA = new ActionSpec({ name: "read_a", preconditions: { x: 1 }, effects: { got_a: true } });
    const setB = new ActionSpec({ name: "set_b", effects: { x: 2 } });
    const readB = new ActionSpec({ name: "read_b", preconditions: { x: 2 }, effects: { got_b: true } });
    const plan = planOf([setA, readA, setB, readB]);
    expect(buildDependencyGraph(plan, { mode: "producers" })).toEqual([[], [0], [], [2]]);
    // set_b may not run before read_a has read x, nor before set_a wrote it.
    expect(buildDependencyGraph(plan)).toEqual([[], [0], [0, 1], [2]]);
  });

  it("criticalPath gives earliest starts and the longest path", () => {
    expect(criticalPath([1, 2, 5, 1], [[], [0], [0], [1, 2]])).toEqual({ earliestStart: [0, 1, 1, 6], makespan: 7 });
  });
});

describe("schedulePlan", () => {
  it.each(SOLVERS)("%s: chain, parallel and diamond shapes get the makespan of their longest path", async (solver) => {
    for (const [plan, makespan] of [
      [chain(), 6000],
      [parallel(), 4000],
      [diamond(), 7000],
    ] as const) {
      const result = await schedulePlan(plan, { solver });
      expect(result.status).toBe("optimal");
      expect(result.makespanMs).toBe(makespan);
      expect(result.solver).toBe(solver);
    }
    const d = await schedulePlan(diamond(), { solver });
    expect(d.schedule.map((e) => [e.actionName, e.startMs, e.endMs])).toEqual([
      ["a", 0, 1000],
      ["b", 1000, 3000],
      ["c", 1000, 6000],
      ["d", 6000, 7000],
    ]);
  });

  it.each(SOLVERS)("%s: with one agent the parallel plan serialises; with two it packs", async (solver) => {
    const one = await schedulePlan(parallel(), { solver, capacities: { agents: 1 } });
    expect(one.status).toBe("optimal");
    expect(one.makespanMs).toBe(9000);
    const intervals = one.schedule.map((e) => [e.startMs, e.endMs]).sort((x, y) => (x[0] as number) - (y[0] as number));
    for (let i = 1; i < intervals.length; i++) expect(intervals[i]?.[0]).toBeGreaterThanOrEqual(intervals[i - 1]?.[1] as number);
    const two = await schedulePlan(parallel(), { solver, capacities: { agents: 2 } });
    expect(two.makespanMs).toBe(5000);
    const diamondOne = await schedulePlan(diamond(), { solver, capacities: { agents: 1 } });
    expect(diamondOne.makespanMs).toBe(9000);
  });

  it.each(SOLVERS)("%s: matches brute force on random resource-constrained instances", async (solver) => {
    // javascript-lp-solver needs seconds on the first (tightly packed) instance of seed 11: it gets other instances.
    const rng = createRng(solver === "highs" ? 11 : 12);
    const rounds = solver === "highs" ? 8 : 5;
    for (let round = 0; round < rounds; round++) {
      const n = 6;
      const durations = Array.from({ length: n }, () => rng.int(1, 4));
      const demands = Array.from({ length: n }, () => [rng.int(0, 2), rng.int(0, 2)] as const);
      const capacities = { cpu: rng.int(2, 3), gpu: rng.int(2, 3) };
      const preds = Array.from({ length: n }, (_, j) => Array.from({ length: j }, (_, i) => i).filter(() => rng.next() < 0.25));
      const actions = durations.map(
        (d, j) =>
          new ActionSpec({
            name: `t${j}`,
            preconditions: Object.fromEntries((preds[j] as number[]).map((i) => [`t${i}_done`, true])),
            effects: { [`t${j}_done`]: true },
            durationMs: d * 1000,
            resources: { cpu: (demands[j] as readonly number[])[0] as number, gpu: (demands[j] as readonly number[])[1] as number },
          }),
      );
      const result = await schedulePlan(planOf(actions), { solver, capacities });
      const expected = bruteForceMakespan(
        durations,
        preds,
        [demands.map((u) => u[0]), demands.map((u) => u[1])],
        [capacities.cpu, capacities.gpu],
      );
      expect(result.status, `round ${round}`).toBe("optimal");
      expect(result.makespanMs, `round ${round}`).toBe(expected * 1000);
    }
  });

  it("derives an exact grid for fractional durations and rounds only when it must", async () => {
    const exact = await schedulePlan(planOf([task("a", 1.5), task("b", 2.25), task("c", 0.75)]), { capacities: { agents: 1 } });
    expect(exact.status).toBe("optimal");
    expect(exact.makespanMs).toBeCloseTo(4.5, 9);
    const coarse = await schedulePlan(planOf([task("a", 3000), task("b", 2000), task("c", 4000)]), {
      capacities: { agents: 2 },
      maxStartVariables: 5,
    });
    expect(coarse.status).toBe("feasible");
    expect(coarse.message).toMatch(/grid of \d+ ms/);
    expect(coarse.makespanMs).toBeGreaterThanOrEqual(5000);
    // A limit below one variable per task cannot be met: the coarsest grid is used instead of looping.
    const coarsest = await schedulePlan(parallel(), { capacities: { agents: 2 }, maxStartVariables: 1 });
    expect(coarsest.status).toBe("feasible");
    expect(coarsest.schedule).toHaveLength(3);
  });

  it("stops javascript-lp-solver when it overruns its time limit, and still returns a valid schedule", async () => {
    // A 30-task project: javascript-lp-solver stays inside one LP relaxation far past its own timeout.
    const rng = createRng(3);
    const actions = Array.from({ length: 30 }, (_, j) => {
      const preds = Array.from({ length: j }, (_, i) => i).filter((i) => j - i <= 8 && rng.next() < 0.25);
      const crew = rng.next() < 0.5 ? "masons" : "fitters";
      return new ActionSpec({
        name: `t${j}`,
        preconditions: Object.fromEntries(preds.map((i) => [`t${i}_done`, true])),
        effects: { [`t${j}_done`]: true },
        durationMs: rng.int(1, 10) * 1000,
        resources: { [crew]: rng.int(1, 4) },
      });
    });
    const result = await schedulePlan(planOf(actions), {
      capacities: { masons: 6, fitters: 6 },
      solver: "javascript-lp-solver",
      timeLimitMs: 300,
    });
    expect(result.status).toBe("timeout");
    expect(result.message).toMatch(/did not stop at its time limit of 300 ms; its worker was stopped/);
    expect(result.schedule).toHaveLength(30);
    expect(result.makespanMs).toBeGreaterThanOrEqual(result.lowerBoundMs);
  });

  it("reports an action that needs more than the capacity as infeasible, naming it", async () => {
    const result = await schedulePlan(planOf([task("a", 1000), task("big", 1000, [], 3)]), { capacities: { agents: 2 } });
    expect(result.status).toBe("infeasible");
    expect(result.message).toBe('action "big" needs 3 of "agents" but the capacity is 2');
    expect(result.schedule).toEqual([]);
  });

  it("skips plans without durations, and rejects bad capacities", async () => {
    const plan = planOf([new ActionSpec({ name: "x", effects: { x: true } })]);
    expect((await schedulePlan(plan)).status).toBe("skipped");
    await expect(schedulePlan(parallel(), { capacities: { agents: -1 } })).rejects.toThrow(
      /capacity of "agents" must be a finite number >= 0/,
    );
  });
});

/** Minimum makespan over every precedence-feasible order, each placed greedily on an integer timeline. */
function bruteForceMakespan(durations: number[], preds: number[][], demands: number[][], capacities: number[]): number {
  const n = durations.length;
  let best = Number.POSITIVE_INFINITY;
  const place = (order: number[]): number => {
    const horizon = durations.reduce((a, b) => a + b, 0) + 1;
    const usage = capacities.map(() => new Array<number>(horizon).fill(0));
    const start = new Array<number>(n).fill(0);
    for (const j of order) {
      let t = Math.max(0, ...(preds[j] as number[]).map((i) => (start[i] as number) + (durations[i] as number)));
      const fits = (s: number) =>
        capacities.every((cap, r) => {
          for (let u = s; u < s + (durations[j] as number); u++) {
            if ((usage[r]?.[u] as number) + (demands[r]?.[j] as number) > cap) return false;
          }
          return true;
        });
      while (!fits(t)) t++;
      start[j] = t;
      capacities.forEach((_, r) => {
        for (let u = t; u < t + (durations[j] as number); u++)
          (usage[r] as number[])[u] = (usage[r]?.[u] as number) + (demands[r]?.[j] as number);
      });
    }
    return Math.max(...start.map((s, j) => s + (durations[j] as number)));
  };
  const visit = (order: number[], done: Set<number>) => {
    if (order.length === n) {
      best = Math.min(best, place(order));
      return;
    }
    for (let j = 0; j < n; j++) {
      if (done.has(j) || !(preds[j] as number[]).every((i) => done.has(i))) continue;
      done.add(j);
      order.push(j);
      visit(order, done);
      order.pop();
      done.delete(j);
    }
  };
  visit([], new Set());
  return best;
}
