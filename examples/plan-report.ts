/**
 * An HTML report of a run: the village NPC is hungry, but its axe slips
 * every time it chops wood, so the run replans to foraging berries. A
 * `ReportRecorder` traces the run; `renderHtmlReport` writes one
 * self-contained page (plan graph, Gantt charts, replans, execution
 * history, trace events) that opens in any browser, offline.
 *
 *   npx tsx examples/plan-report.ts [out.html]
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ActionSpec } from "../src/core/index.js";
import { GoapGraph } from "../src/graph/index.js";
import { ReportRecorder, renderHtmlReport } from "../src/viz/index.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "./lib/village.js";

const actions = [
  ...createVillageActions().map((action) =>
    action.name === "chop_wood"
      ? action.with({
          execute: () => {
            throw new Error("the axe slipped out of the villager's hands");
          },
        })
      : action,
  ),
  new ActionSpec({
    name: "forage_berries",
    cost: 9,
    effects: { has_food: true },
    description: "Search the bushes for berries: slow, but needs no wood.",
  }),
];

const recorder = new ReportRecorder();
const graph = new GoapGraph(actions, { tracer: recorder, logger: {} });
const start = villageStartState();
const result = await graph.invoke(VILLAGE_GOALS.notHungry, start);

const html = renderHtmlReport(
  recorder.toReport({
    title: "Village NPC: hungry, with a slippery axe",
    goal: VILLAGE_GOALS.notHungry,
    startState: start,
    plan: recorder.lastPlan,
    status: result.status,
    finalState: result.worldState,
    executionHistory: result.executionHistory,
    replanCount: result.replanCount,
  }),
);
const out = resolve(process.argv[2] ?? join(tmpdir(), "langgoap-plan-report.html"));
writeFileSync(out, html);

console.log(`Run: ${result.status} after ${result.executionHistory.length} actions and ${result.replanCount} replan(s).`);
for (const [i, round] of recorder.rounds.entries()) {
  console.log(`  plan ${i + 1}${round.reason ? ` (replanned: ${round.reason})` : ""}: ${round.plan?.actionNames.join(" → ") ?? "none"}`);
}
console.log(`Report: ${out}`);
console.log("Open it in a browser; it needs no network.");

const executed = result.executionHistory.map((r) => `${r.actionName}:${r.success ? "ok" : "failed"}`);
const failures: string[] = [];
if (result.status !== "goal_achieved") failures.push(`status ${result.status}, expected goal_achieved`);
if (result.replanCount !== 1) failures.push(`replanCount ${result.replanCount}, expected 1`);
if (executed.join(" ") !== "go_to_tree:ok chop_wood:failed forage_berries:ok eat_food:ok") failures.push(`executed ${executed.join(" ")}`);
if (recorder.rounds.length !== 2 || recorder.rounds[1]?.reason === null)
  failures.push("expected two planning rounds, the second with a replan reason");
for (const name of ["forage_berries", "eat_food"]) {
  if (!html.includes(`<code class="action-name">${name}</code>`)) failures.push(`the report does not show ${name}`);
}
if (!html.includes("the axe slipped")) failures.push("the report does not show the failure");
if (failures.length > 0) {
  console.error(`FAILED:\n  ${failures.join("\n  ")}`);
  process.exitCode = 1;
}
