import { describe, expect, it } from "vitest";
import { createRng, LangGoapError } from "../../src/core/index.js";
import {
  createSolver,
  findViolation,
  HighsSolver,
  JsLpSolver,
  type MilpModel,
  MilpModelBuilder,
  type MilpSolver,
  solveLexicographic,
} from "../../src/optimize/index.js";

const backends: MilpSolver[] = [
  new HighsSolver({ timeLimitMs: 5000 }),
  new JsLpSolver({ timeLimitMs: 5000 }),
  // In-process, as in a browser: javascript-lp-solver is imported on the first solve.
  new JsLpSolver({ timeLimitMs: 5000, isolate: false }),
];
/** Each back-end with a label that tells the two javascript-lp-solver set-ups apart. */
const labelled = backends.map((s, i) => [i === 2 ? `${s.name} (in process)` : s.name, s] as const);

function knapsack(values: number[], weights: number[], capacity: number): MilpModel {
  const b = new MilpModelBuilder();
  const x = values.map((_, i) => b.addBinary(`x${i}`));
  b.addConstraint(
    "weight",
    x.map((v, i) => [v, weights[i] as number] as const),
    { max: capacity },
  );
  b.setObjective(
    "maximize",
    x.map((v, i) => [v, values[i] as number] as const),
  );
  return b.build();
}

/** Exhaustive optimum of a model whose variables are all small bounded integers. */
function bruteForce(model: MilpModel): number | null {
  let best: number | null = null;
  const values = model.variables.map((v) => v.lower);
  const visit = (j: number): void => {
    if (j === values.length) {
      if (findViolation(model, values) !== null) return;
      const obj = model.objective.terms.reduce((s, t) => s + t.coefficient * (values[t.variable] as number), model.objective.constant);
      if (best === null || (model.objective.sense === "minimize" ? obj < best : obj > best)) best = obj;
      return;
    }
    const v = model.variables[j];
    for (let x = v?.lower as number; x <= (v?.upper as number); x++) {
      values[j] = x;
      visit(j + 1);
    }
  };
  visit(0);
  return best;
}

describe("MILP back-ends", () => {
  it.each(labelled)("%s solves a knapsack to optimality and reports every variable", async (_name, solver) => {
    const result = await solver.solve(knapsack([10, 13, 7, 8], [5, 6, 3, 4], 10));
    expect(result.status).toBe("optimal");
    expect(result.objective).toBe(21);
    // javascript-lp-solver omits zeros; the result fills them in.
    expect(result.values).toEqual({ x0: 0, x1: 1, x2: 0, x3: 1 });
    expect(result.solver).toBe(solver.name);
  });

  it.each(labelled)("%s proves infeasibility and returns no values", async (_name, solver) => {
    const b = new MilpModelBuilder();
    const x = b.addVariable("x", { upper: 3, integer: true });
    b.addConstraint("too_much", [[x, 1]], { min: 5 });
    b.setObjective("minimize", [[x, 1]]);
    const result = await solver.solve(b.build());
    expect(result.status).toBe("infeasible");
    expect(result.values).toEqual({});
    expect(result.objective).toBeNull();
  });

  it.each(labelled)("%s reports an unbounded objective as an error", async (_name, solver) => {
    const b = new MilpModelBuilder();
    const x = b.addVariable("x", { integer: true });
    b.addConstraint("floor", [[x, 1]], { min: 1 });
    b.setObjective("maximize", [[x, 1]]);
    const result = await solver.solve(b.build());
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/unbounded/);
  });

  it.each(labelled)("%s handles negative bounds, equalities and an objective constant", async (_name, solver) => {
    const b = new MilpModelBuilder();
    const x = b.addVariable("x", { lower: -5, upper: 5, integer: true });
    const y = b.addVariable("y", { lower: -2.5, upper: 4 });
    b.addConstraint(
      "sum",
      [
        [x, 1],
        [y, 2],
      ],
      { min: 3, max: 3 },
    );
    b.setObjective("minimize", [[x, 1]], 10);
    const result = await solver.solve(b.build());
    expect(result.status).toBe("optimal");
    expect(result.values.x).toBe(-5);
    expect(result.values.y).toBeCloseTo(4, 9);
    expect(result.objective).toBe(5);
  });

  it("both back-ends agree with brute force on 60 random small integer programs", async () => {
    const rng = createRng(7);
    for (let round = 0; round < 60; round++) {
      const b = new MilpModelBuilder();
      const n = rng.int(2, 4);
      const vars = Array.from({ length: n }, (_, j) =>
        b.addVariable(`v${j}`, { lower: rng.int(-2, 0), upper: rng.int(1, 3), integer: true }),
      );
      for (let r = 0; r < rng.int(1, 3); r++) {
        const terms = vars.map((v) => [v, rng.int(-4, 4)] as const);
        const rhs = rng.int(-3, 6);
        b.addConstraint(`r${r}`, terms, rng.next() < 0.5 ? { max: rhs } : { min: -rhs });
      }
      b.setObjective(
        rng.next() < 0.5 ? "minimize" : "maximize",
        vars.map((v) => [v, rng.int(-5, 5)] as const),
      );
      const model = b.build();
      const expected = bruteForce(model);
      for (const solver of backends) {
        const result = await solver.solve(model);
        if (expected === null) {
          expect(result.status, `${solver.name} round ${round}`).toBe("infeasible");
        } else {
          expect(result.status, `${solver.name} round ${round}`).toBe("optimal");
          expect(result.objective, `${solver.name} round ${round}`).toBeCloseTo(expected, 9);
          expect(
            findViolation(
              model,
              model.variables.map((v) => result.values[v.name] as number),
            ),
          ).toBeNull();
        }
      }
    }
  });

  it("javascript-lp-solver's fractional answer after a timeout is an error, never a solution", async () => {
    // A correlated knapsack (value = weight + 100) is hard for branch and bound;
    // after its timeout javascript-lp-solver returns the LP relaxation as "feasible".
    const rng = createRng(3);
    const weights = Array.from({ length: 200 }, () => rng.int(1, 1000));
    const capacity = Math.floor(weights.reduce((a, b) => a + b, 0) / 2) + 0.5;
    const model = knapsack(
      weights.map((w) => w + 100),
      weights,
      capacity,
    );
    const result = await new JsLpSolver().solve(model, { timeLimitMs: 50 });
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/fractional/);
    expect(result.values).toEqual({});
    // HiGHS proves the optimum of the same model.
    const highs = await new HighsSolver().solve(model, { timeLimitMs: 20_000 });
    expect(highs.status).toBe("optimal");
    expect(Number.isInteger(highs.objective)).toBe(true);
  });

  it("a time limit reached before any solution is reported as timeout", async () => {
    const b = new MilpModelBuilder();
    const x = b.addBinary("x");
    b.addConstraint("c", [[x, 1]], { max: 1 });
    const fake: MilpSolver = createSolver({
      name: "slow",
      solve: async () => ({ status: "timeout", values: {}, objective: null, solver: "slow", solveTimeMs: 1, message: "too slow" }),
    });
    const result = await solveLexicographic(
      b.build(),
      [{ sense: "maximize", terms: [{ variable: x, coefficient: 1 }], constant: 0 }],
      fake,
    );
    expect(result.status).toBe("timeout");
    expect(result.levelValues).toEqual([]);
  });

  it("solves levels lexicographically: a later level never trades against an earlier one", async () => {
    // Three options: (cost 1, time 9), (cost 9, time 1), (cost 2, time 5).
    const b = new MilpModelBuilder();
    const picks = [0, 1, 2].map((i) => b.addBinary(`p${i}`));
    b.addConstraint(
      "one",
      picks.map((p) => [p, 1] as const),
      { min: 1, max: 1 },
    );
    const cost = {
      sense: "minimize" as const,
      terms: [1, 9, 2].map((c, i) => ({ variable: picks[i] as number, coefficient: c })),
      constant: 0,
    };
    const time = {
      sense: "minimize" as const,
      terms: [9, 1, 5].map((c, i) => ({ variable: picks[i] as number, coefficient: c })),
      constant: 0,
    };
    for (const solver of backends) {
      const costFirst = await solveLexicographic(b.build(), [cost, time], solver);
      expect(costFirst.values).toMatchObject({ p0: 1 });
      expect(costFirst.levelValues).toEqual([1, 9]);
      const timeFirst = await solveLexicographic(b.build(), [time, cost], solver);
      expect(timeFirst.values).toMatchObject({ p1: 1 });
      expect(timeFirst.status).toBe("optimal");
    }
  });

  it("rejects bad models and options with errors that name the culprit", () => {
    const b = new MilpModelBuilder();
    b.addBinary("x");
    expect(() => b.addBinary("x")).toThrow(/duplicate MILP variable "x"/);
    expect(() => b.addVariable("y", { lower: 2, upper: 1 })).toThrow(/lower bound 2 exceeds upper bound 1/);
    expect(() => b.addConstraint("c", [[0, Number.NaN]], { max: 1 })).toThrow(/coefficient of variable 0 must be a finite number/);
    expect(() => b.addConstraint("c", [[3, 1]], { max: 1 })).toThrow(/variable index 3/);
    expect(() => b.addConstraint("c", [[0, 1]], {})).toThrow(LangGoapError);
    expect(() => createSolver("glpk" as never)).toThrow(/unknown solver "glpk"/);
    expect(() => new HighsSolver({ timeLimitMs: 0 })).toThrow(/timeLimitMs must be a finite number > 0/);
  });
});

describe("the default solver", () => {
  it("is HiGHS on Node.js and javascript-lp-solver in-process where there is no Node (a browser), which then solves", async () => {
    expect(createSolver().name).toBe("highs");
    const processGlobal = process as { getBuiltinModule?: unknown };
    const getBuiltinModule = processGlobal.getBuiltinModule;
    let solver: MilpSolver;
    try {
      // What a browser bundle sees: no Node built-ins to load HiGHS's runtime or a worker from.
      processGlobal.getBuiltinModule = undefined;
      solver = createSolver(undefined, { timeLimitMs: 5000 });
      expect(solver.name).toBe("javascript-lp-solver");
      const result = await solver.solve(knapsack([10, 13, 7], [3, 4, 2], 6));
      expect(result.status).toBe("optimal");
      expect(result.objective).toBe(20);
    } finally {
      processGlobal.getBuiltinModule = getBuiltinModule;
    }
  });
});
