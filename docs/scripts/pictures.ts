/**
 * The site's pictures of plans, drawn by langgoap's own renderers
 * (renderPlanPng, renderGanttPng): the village NPC's dinner as a plan
 * graph, and the kitchen's durative actions scheduled in parallel as a
 * Gantt chart. Run after changing the renderers or the example domains:
 * `npm run docs:pictures` (writes docs/pictures/*.png).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadDomain } from "../../src/core/index.js";
import { schedulePlan } from "../../src/optimize/index.js";
import { plan } from "../../src/planner/index.js";
import { renderGanttPng, renderPlanPng } from "../../src/viz/index.js";

const root = join(import.meta.dirname, "..", "..");
const out = join(root, "docs", "pictures");

function planOf(file: string) {
  const { actions, state, goal } = loadDomain(readFileSync(join(root, "examples", "domains", file), "utf8"));
  const found = plan(state, goal ?? {}, actions);
  if (!found) throw new Error(`${file}: no plan`);
  return found;
}

const village = planOf("village.yaml");
writeFileSync(join(out, "village-plan.png"), await renderPlanPng(village, { scale: 2 }));

const kitchen = planOf("kitchen.yaml");
const { schedule } = await schedulePlan(kitchen);
writeFileSync(join(out, "kitchen-gantt.png"), await renderGanttPng(kitchen, { schedule, scale: 2 }));
console.log(`wrote ${out}/village-plan.png and kitchen-gantt.png`);
