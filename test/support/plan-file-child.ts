/**
 * A fresh process for the plan-file test (bundled by ChildBundle and run by
 * plain `node`): loads the plan file named by its one argument with the
 * village's actions and prints the plan as one JSON line.
 *
 *   argv[2] = JSON of the plan file's path
 */
import { createVillageActions } from "../../examples/lib/village.js";
import { loadPlan } from "../../src/graph/plan-files.js";

const file = JSON.parse(process.argv[2] as string) as string;
const p = await loadPlan(file, createVillageActions());
console.log(JSON.stringify({ actions: p.actionNames, cost: p.totalCost, final: p.finalState }));
