/**
 * Cloud balancing (the OptaPlanner classic): assign every process to a
 * computer so that no computer runs out of CPU, memory or network, and pay
 * as little as possible for the computers that are switched on.
 *
 * The same problem is shown twice:
 *   1. as a GOAP domain (power on computers, place processes) whose budgets
 *      are per-computer constraints built with ConstraintBuilder.where();
 *      the cheapest plan A* finds piles everything on one machine, and
 *      validatePlan / explainInfeasibility say exactly what overflows;
 *   2. as an assignment MILP solved by HiGHS and by javascript-lp-solver,
 *      turned back into a plan that validates.
 * The optimum is checked against brute force over all 4^9 assignments.
 *
 * Run: npx tsx examples/cloud-balancing.ts
 */
import { ActionSpec, type ConstraintSpec, GoalSpec } from "../src/core/index.js";
import {
  ConstraintBuilder,
  createSolver,
  explainInfeasibility,
  MilpModelBuilder,
  type MilpResult,
  planTotal,
  type SolverName,
  validatePlan,
} from "../src/optimize/index.js";
import { Plan, plan as planCheapest, replayPlan } from "../src/planner/index.js";
import { bruteForceCloudBalance, type Computer, type Process } from "./lib/brute-force.js";

const computers: Computer[] = [
  { name: "small_a", cpu: 8, memory: 16, network: 4, cost: 120 },
  { name: "small_b", cpu: 8, memory: 16, network: 4, cost: 130 },
  { name: "medium", cpu: 16, memory: 32, network: 8, cost: 220 },
  { name: "large", cpu: 32, memory: 64, network: 12, cost: 400 },
];
const processes: Process[] = [
  { name: "web", cpu: 4, memory: 8, network: 1 },
  { name: "api", cpu: 3, memory: 6, network: 2 },
  { name: "search", cpu: 5, memory: 10, network: 1 },
  { name: "queue", cpu: 2, memory: 4, network: 3 },
  { name: "render", cpu: 6, memory: 8, network: 2 },
  { name: "cache", cpu: 3, memory: 12, network: 1 },
  { name: "auth", cpu: 4, memory: 4, network: 2 },
  { name: "mail", cpu: 2, memory: 8, network: 1 },
  { name: "batch", cpu: 5, memory: 6, network: 2 },
];
const KINDS = ["cpu", "memory", "network"] as const;

// --- 1. The GOAP view -------------------------------------------------------
// Processes are placed in a fixed order (each placement needs the previous
// one), so plans differ only in where things go, not in the order.
const powerOn = computers.map(
  (c) => new ActionSpec({ name: `power_on_${c.name}`, effects: { [`${c.name}_on`]: true }, cost: c.cost, resources: { usd: c.cost } }),
);
const place = processes.flatMap((p, i) =>
  computers.map(
    (c) =>
      new ActionSpec({
        name: `place_${p.name}_on_${c.name}`,
        preconditions: { [`${c.name}_on`]: true, ...(i > 0 ? { [`${processes[i - 1]?.name}_placed`]: true } : {}) },
        effects: { [`${p.name}_placed`]: true },
        cost: 0,
        resources: { cpu: p.cpu, memory: p.memory, network: p.network },
        metadata: { computer: c.name },
      }),
  ),
);
const capacityConstraints: ConstraintSpec[] = computers.flatMap((c) =>
  KINDS.map((kind) =>
    ConstraintBuilder.forPlan()
      .sumResource(kind)
      .where((a) => a.metadata?.computer === c.name)
      .bounded(undefined, c[kind])
      .asConstraint(`${c.name}_${kind}`),
  ),
);
const goal = new GoalSpec({
  conditions: { [`${processes[processes.length - 1]?.name}_placed`]: true },
  ...ConstraintBuilder.build(...capacityConstraints, ConstraintBuilder.forPlan().sumResource("usd").minimize().asObjective("monthly_cost")),
});

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const cheapest = planCheapest({}, goal, [...powerOn, ...place]);
if (!cheapest) throw new Error("A* found no plan for the cloud-balancing domain");
console.log(`A* (ignoring capacities) powers on ${cheapest.actionNames.filter((n) => n.startsWith("power_on")).join(", ")}`);
const naive = validatePlan(cheapest, goal);
const why = explainInfeasibility(cheapest, goal);
console.log(`  validatePlan: ${naive.status}`);
for (const s of why?.resourceShortfalls ?? []) console.log(`    ${s.constraint}: ${s.total} > ${s.limit} (over by ${s.amount})`);
check(
  naive.status === "infeasible" && (why?.resourceShortfalls.length ?? 0) > 0,
  "the cheapest unconstrained plan is infeasible and explained",
);

// --- 2. The assignment MILP -------------------------------------------------
function assignmentModel() {
  const b = new MilpModelBuilder();
  const used = computers.map((c) => b.addBinary(`use_${c.name}`));
  const assign = processes.map((p) => computers.map((c) => b.addBinary(`put_${p.name}_${c.name}`)));
  processes.forEach((p, i) => {
    b.addConstraint(
      `place_${p.name}`,
      (assign[i] as number[]).map((v) => [v, 1] as const),
      { min: 1, max: 1 },
    );
  });
  computers.forEach((c, j) => {
    for (const kind of KINDS) {
      b.addConstraint(
        `${c.name}_${kind}`,
        [...processes.map((p, i) => [assign[i]?.[j] as number, p[kind]] as const), [used[j] as number, -c[kind]]],
        {
          max: 0,
        },
      );
    }
  });
  b.setObjective(
    "minimize",
    computers.map((c, j) => [used[j] as number, c.cost] as const),
  );
  return b.build();
}

function planFromAssignment(result: MilpResult): Plan {
  const host = processes.map((p) => computers.findIndex((c) => result.values[`put_${p.name}_${c.name}`] === 1));
  const powered = computers
    .filter((_, j) => host.includes(j))
    .map((c) => powerOn.find((a) => a.name === `power_on_${c.name}`) as ActionSpec);
  const placements = processes.map(
    (p, i) => place.find((a) => a.name === `place_${p.name}_on_${computers[host[i] as number]?.name}`) as ActionSpec,
  );
  const actions = [...powered, ...placements];
  const replay = replayPlan({}, actions, goal);
  if (!replay.valid) throw new Error("the MILP assignment does not replay as a plan");
  return new Plan({ actions, expectedStates: replay.states, startState: {}, totalCost: replay.totalCost });
}

const reference = bruteForceCloudBalance(computers, processes);
console.log(
  `\nBrute force over ${computers.length}^${processes.length} = ${computers.length ** processes.length} assignments: optimum ${reference?.cost}`,
);
const model = assignmentModel();
console.log(`Assignment MILP: ${model.variables.length} binaries, ${model.constraints.length} rows`);
for (const name of ["highs", "javascript-lp-solver"] as SolverName[]) {
  const result = await createSolver(name).solve(model, { timeLimitMs: 20_000 });
  console.log(`\n${name}: ${result.status}, monthly cost ${result.objective} (${result.solveTimeMs.toFixed(1)} ms)`);
  check(result.status === "optimal" && result.objective === reference?.cost, `${name} proves the brute-force optimum ${reference?.cost}`);
  if (result.status !== "optimal") continue;
  const balanced = planFromAssignment(result);
  for (const c of computers) {
    const mine = balanced.actions.filter((a) => a.metadata?.computer === c.name);
    if (mine.length === 0) continue;
    const load = KINDS.map((k) => `${k} ${planTotal(balanced, k, { where: (a) => a.metadata?.computer === c.name })}/${c[k]}`).join(", ");
    console.log(`  ${c.name.padEnd(8)} ${mine.map((a) => a.name.split("_")[1]).join(", ")}  [${load}]`);
  }
  const report = validatePlan(balanced, goal);
  check(report.status === "feasible", `${name}'s assignment, as a plan, meets every capacity constraint`);
  check(planTotal(balanced, "usd") === reference?.cost, `${name}'s plan costs ${planTotal(balanced, "usd")} a month`);
}

if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed`);
  process.exitCode = 1;
} else {
  console.log("\nAll checks passed.");
}
