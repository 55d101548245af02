/**
 * Durative actions and Gantt charts: a software release whose CI jobs take
 * minutes. A* finds what to do; `schedulePlan` (langgoap/optimize, a MILP
 * solver) decides when, running independent jobs in parallel; the text
 * Gantt chart shows it. Then the same plan with one and two CI runners:
 * actions that need a runner compete for it (resource-constrained
 * scheduling), which stretches the schedule.
 *
 *   npx tsx examples/temporal-gantt.ts
 */
import { ActionSpec } from "../src/core/index.js";
import { schedulePlan } from "../src/optimize/index.js";
import { plan } from "../src/planner/index.js";
import { formatMs, renderAscii, renderAsciiGantt } from "../src/viz/index.js";

const MINUTE = 60_000;
const runner = { runners: 1 };

const actions = [
  new ActionSpec({ name: "compile", durationMs: 4 * MINUTE, resources: runner, effects: { built: true } }),
  new ActionSpec({ name: "unit_tests", durationMs: 6 * MINUTE, resources: runner, effects: { unit_ok: true } }),
  new ActionSpec({
    name: "integration_tests",
    durationMs: 9 * MINUTE,
    resources: runner,
    preconditions: { built: true },
    effects: { integration_ok: true },
  }),
  new ActionSpec({
    name: "security_scan",
    durationMs: 7 * MINUTE,
    resources: runner,
    preconditions: { built: true },
    effects: { scanned: true },
  }),
  // A person writes the notes: no CI runner needed.
  new ActionSpec({ name: "write_release_notes", durationMs: 5 * MINUTE, effects: { notes_ready: true } }),
  new ActionSpec({
    name: "package",
    durationMs: 3 * MINUTE,
    resources: runner,
    preconditions: { unit_ok: true, integration_ok: true, scanned: true },
    effects: { packaged: true },
  }),
  new ActionSpec({
    name: "publish",
    durationMs: 1 * MINUTE,
    preconditions: { packaged: true, notes_ready: true },
    effects: { published: true },
  }),
];

const release = plan({}, { published: true }, actions);
if (!release) throw new Error("no release plan found");
const serial = release.actions.reduce((sum, a) => sum + (a.durationMs ?? 0), 0);
console.log(`Plan: ${release.actionNames.join(" → ")}`);
console.log(`One job after another it would take ${formatMs(serial)}.\n`);

const failures: string[] = [];
const expect = (what: string, actual: unknown, wanted: unknown) => {
  if (actual !== wanted) failures.push(`${what}: expected ${String(wanted)}, got ${String(actual)}`);
};

for (const [label, capacities, wanted] of [
  ["as many CI runners as needed", undefined, 17 * MINUTE],
  ["two CI runners", { runners: 2 }, 17 * MINUTE],
  ["one CI runner", { runners: 1 }, 30 * MINUTE],
] as const) {
  const result = await schedulePlan(release, capacities ? { capacities } : {});
  console.log(`— With ${label}: makespan ${formatMs(result.makespanMs)} (${result.status}, ${result.solver})`);
  console.log(renderAscii(release, { schedule: result.schedule, showResources: false }));
  console.log(renderAsciiGantt(release, { schedule: result.schedule, width: 60 }));
  expect(`${label}: makespan`, result.makespanMs, wanted);
  expect(`${label}: status`, result.status, "optimal");
  // The schedule must respect the plan: nothing starts before what it needs has finished.
  const end = new Map(result.schedule.map((e) => [e.actionName, e.endMs]));
  const start = new Map(result.schedule.map((e) => [e.actionName, e.startMs]));
  for (const [after, before] of [
    ["integration_tests", "compile"],
    ["security_scan", "compile"],
    ["package", "integration_tests"],
    ["package", "unit_tests"],
    ["publish", "package"],
    ["publish", "write_release_notes"],
  ] as const) {
    if ((start.get(after) as number) < (end.get(before) as number)) failures.push(`${label}: ${after} starts before ${before} ends`);
  }
}

if (failures.length > 0) {
  console.error(`FAILED:\n  ${failures.join("\n  ")}`);
  process.exitCode = 1;
} else {
  console.log("OK: parallel jobs cut the release from 35min to 17min; two runners keep it at 17min, one runner needs 30min.");
}
