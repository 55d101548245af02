/**
 * Project job scheduling (the OptaPlanner classic, single-mode RCPSP): a
 * house is built by jobs with durations, precedences and crews — two
 * carpenters, one electrician, one plumber — and must be inspected within a
 * deadline. Framing and drywall can each be done the cheap way or a faster,
 * dearer way.
 *
 * The pipeline runs end to end: A* finds the cheapest plan; its schedule
 * under the crew capacities (a resource-constrained project scheduling
 * MILP) misses the deadline; the k cheapest distinct plans are enumerated,
 * each is scheduled, and the MILP selection keeps the cheapest one that
 * meets the deadline. Every makespan is checked against brute force over
 * all job orders, and both solver back-ends must agree.
 *
 * Run: npx tsx examples/project-scheduling.ts
 */
import { ActionSpec, GoalSpec } from "../src/core/index.js";
import {
  ConstraintBuilder,
  enumeratePlans,
  type OptimizeMetadata,
  pipelinePlan,
  planTotal,
  type SolverName,
  schedulePlan,
} from "../src/optimize/index.js";
import { type Plan, plan as planCheapest } from "../src/planner/index.js";
import { bruteForceMakespan, type Job } from "./lib/brute-force.js";

const DAY = 86_400_000;
const crews = { carpenter: 2, electrician: 1, plumber: 1 };

interface JobSpec {
  readonly name: string;
  /** The milestone it completes (variants of a job share one). */
  readonly milestone: string;
  readonly days: number;
  readonly after: readonly string[];
  readonly crew: Readonly<Record<string, number>>;
  readonly usd: number;
}

const jobSpecs: JobSpec[] = [
  { name: "survey", milestone: "surveyed", days: 1, after: [], crew: {}, usd: 500 },
  { name: "foundation", milestone: "founded", days: 3, after: ["surveyed"], crew: { carpenter: 2 }, usd: 6000 },
  { name: "frame_onsite", milestone: "framed", days: 5, after: ["founded"], crew: { carpenter: 2 }, usd: 6000 },
  { name: "frame_prefab", milestone: "framed", days: 2, after: ["founded"], crew: { carpenter: 1 }, usd: 9000 },
  { name: "roofing", milestone: "roofed", days: 3, after: ["framed"], crew: { carpenter: 2 }, usd: 5000 },
  { name: "plumbing", milestone: "plumbed", days: 4, after: ["framed"], crew: { plumber: 1 }, usd: 4000 },
  { name: "electrical", milestone: "wired", days: 4, after: ["framed"], crew: { electrician: 1 }, usd: 4000 },
  { name: "hvac", milestone: "ventilated", days: 2, after: ["framed"], crew: { plumber: 1, electrician: 1 }, usd: 3500 },
  { name: "windows", milestone: "glazed", days: 2, after: ["framed"], crew: { carpenter: 1 }, usd: 3000 },
  {
    name: "insulation",
    milestone: "insulated",
    days: 2,
    after: ["roofed", "plumbed", "wired", "ventilated"],
    crew: { carpenter: 1 },
    usd: 2000,
  },
  { name: "drywall_crew", milestone: "walled", days: 4, after: ["insulated"], crew: { carpenter: 2 }, usd: 4000 },
  { name: "drywall_panels", milestone: "walled", days: 2, after: ["insulated"], crew: { carpenter: 1 }, usd: 7500 },
  { name: "painting", milestone: "painted", days: 3, after: ["walled", "glazed"], crew: { carpenter: 1 }, usd: 3000 },
  { name: "inspection", milestone: "inspected", days: 1, after: ["painted"], crew: {}, usd: 300 },
];
const actions = jobSpecs.map(
  (j) =>
    new ActionSpec({
      name: j.name,
      preconditions: Object.fromEntries(j.after.map((m) => [m, true])),
      effects: { [j.milestone]: true },
      cost: j.usd / 1000,
      durationMs: j.days * DAY,
      resources: { ...j.crew, usd: j.usd },
    }),
);

const DEADLINE_DAYS = 22;
const goal = new GoalSpec({
  conditions: { inspected: true },
  ...ConstraintBuilder.build(
    ConstraintBuilder.forPlan()
      .sumResource("makespanMs")
      .bounded(undefined, DEADLINE_DAYS * DAY)
      .asConstraint("deadline"),
    ConstraintBuilder.forPlan().sumResource("usd").minimize().asObjective("budget"),
  ),
});

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

/** The plan as brute-force jobs (predecessors: the jobs that complete each needed milestone). */
function jobsOf(plan: Plan): Job[] {
  const specs = plan.actionNames.map((n) => jobSpecs.find((j) => j.name === n) as JobSpec);
  return specs.map((j) => ({
    duration: j.days,
    predecessors: j.after.map((m) => specs.findIndex((s) => s.milestone === m)),
    demands: j.crew,
  }));
}

function gantt(plan: Plan): void {
  const meta = plan.metadata.csp as OptimizeMetadata;
  for (const e of meta.schedule ?? []) {
    const start = e.startMs / DAY;
    const days = e.durationMs / DAY;
    console.log(`  ${e.actionName.padEnd(15)} ${" ".repeat(start)}${"#".repeat(days)}  day ${start}-${start + days}`);
  }
}

// Every distinct way to build the house, with its exact makespan under the crews.
const variants = enumeratePlans({}, goal, actions, { count: 10, distinct: "actions" });
console.log(`${variants.length} distinct ways to build the house (deadline ${DEADLINE_DAYS} days):`);
const reference = variants.map((p) => ({ plan: p, usd: planTotal(p, "usd"), days: bruteForceMakespan(jobsOf(p), crews) }));
for (const r of reference) {
  const how = r.plan.actionNames.filter((n) => n.includes("_")).join(" + ");
  console.log(`  ${how.padEnd(30)} $${r.usd}  ${r.days} days (brute force)${r.days <= DEADLINE_DAYS ? "" : "  misses the deadline"}`);
}
const expected = reference.filter((r) => r.days <= DEADLINE_DAYS).sort((a, b) => a.usd - b.usd)[0];

const cheapest = planCheapest({}, goal, actions);
if (!cheapest) throw new Error("A* found no plan for the house");
const cheapestDays = bruteForceMakespan(jobsOf(cheapest), crews);
const unlimited = await schedulePlan(cheapest);
console.log(
  `\nA* picks the cheapest plan ($${planTotal(cheapest, "usd")}): ${unlimited.makespanMs / DAY} days on its critical path, ` +
    `but ${cheapestDays} days with the crews available.`,
);
check(cheapestDays > DEADLINE_DAYS, "the cheapest plan misses the deadline, so the pipeline has work to do");

for (const solver of ["highs", "javascript-lp-solver"] as SolverName[]) {
  const started = performance.now();
  const result = await pipelinePlan({}, goal, actions, { solver, capacities: crews, maxAlternatives: 5, timeLimitMs: 20_000 });
  const meta = result?.metadata.csp as OptimizeMetadata | undefined;
  console.log(`\n${solver}: ${meta?.status}, $${result ? planTotal(result, "usd") : "?"}, makespan ${(meta?.makespanMs ?? 0) / DAY} days`);
  console.log(`  (${result?.metadata.alternativesConsidered} candidate plans, ${(performance.now() - started).toFixed(0)} ms)`);
  if (!result || !meta) {
    check(false, `${solver} returns a plan`);
    continue;
  }
  gantt(result);
  check(meta.status === "optimal", `${solver}: selection and schedule proved optimal`);
  check(result.actionNames.join() === expected?.plan.actionNames.join(), `${solver} picks the cheapest plan that meets the deadline`);
  check(meta.makespanMs === bruteForceMakespan(jobsOf(result), crews) * DAY, `${solver}'s makespan equals the brute-force optimum`);
  const relaxed = await schedulePlan(result, { solver });
  check(
    relaxed.makespanMs <= (meta.makespanMs as number),
    `${solver}: crews can only lengthen the schedule (critical path ${relaxed.makespanMs / DAY} days)`,
  );
}

if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed`);
  process.exitCode = 1;
} else {
  console.log("\nAll checks passed.");
}
