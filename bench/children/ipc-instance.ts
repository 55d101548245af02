/**
 * One IPC instance in its own process (bench/suites/90-ipc.ts): parse and
 * ground with loadPddl, search with the default optimal search under a time
 * budget, validate the plan twice (replayed on the grounded actions, and by
 * the lifted PDDL plan checker of the tests), and print one JSON line.
 * Usage: ipc-instance.ts <domain.pddl> <problem.pddl> <timeBudgetMs>
 */
import { readFileSync } from "node:fs";
import { toGoalSpec } from "../../src/core/index.js";
import { loadPddl } from "../../src/pddl/index.js";
import { planDetailed, replayPlan } from "../../src/planner/index.js";
import { checkPddlPlan } from "../../test/support/pddl-plan-check.js";

const [domainFile, problemFile, budget] = process.argv.slice(2) as [string, string, string];
const task = loadPddl(readFileSync(domainFile, "utf8"), readFileSync(problemFile, "utf8"), { domainFile, problemFile });
const started = performance.now();
const result = planDetailed(task.state, task.goal, task.actions, { timeBudgetMs: Number(budget), maxNodes: 20_000_000 });
const searchMs = performance.now() - started;
let valid: boolean | undefined;
let checkedCost: number | undefined;
if (result.plan) {
  const replayed = replayPlan(task.state, result.plan.actions, toGoalSpec(task.goal));
  const steps = task
    .formatPlan(result.plan.actionNames)
    .split("\n")
    .filter((l) => l.startsWith("("));
  const lifted = checkPddlPlan(task.domain, task.problem, steps);
  valid =
    replayed.valid &&
    replayed.reachesGoal &&
    replayed.totalCost === result.plan.totalCost &&
    lifted.valid &&
    lifted.cost === result.plan.totalCost;
  checkedCost = lifted.cost;
}
process.stdout.write(
  `${JSON.stringify({
    status: result.status,
    cost: result.plan?.totalCost ?? null,
    validated: valid ?? null,
    checkedCost: checkedCost ?? null,
    expansions: result.stats.nodesExpanded,
    generated: result.stats.nodesGenerated,
    searchMs: Math.round(searchMs),
    groundingMs: Math.round(task.stats.groundingMs),
    facts: task.stats.facts,
    operators: task.stats.operators,
    heuristic: result.plan?.metadata.heuristic ?? null,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  })}\n`,
);
