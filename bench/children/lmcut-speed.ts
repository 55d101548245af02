/**
 * The cost of one full LM-cut evaluation on an IPC instance: loads the PDDL,
 * compiles it as a search does (actions by specificity), takes `states`
 * rows by a seeded random walk from the start (the same rows on every run:
 * restarts from the start every `walk` steps), evaluates the `lmcut`
 * heuristic on each (full evaluations, no parent landmarks), and prints one
 * JSON line: the sum of the finite values (the check that a change keeps
 * the values), dead ends, µs per evaluation (wall and process CPU, medians
 * of `passes` passes after a warm-up pass, and the least CPU of a pass: on a
 * loaded machine the pass least disturbed) and the process's CPU time.
 *
 * `tsx bench/children/lmcut-speed.ts <problem.pddl> [states=2000] [passes=5] [seed=1] [walk=60]`
 * (the domain beside the problem, found as the CLI finds it: `domain.pddl`, `p01-domain.pddl`, …).
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { searchGoalOf } from "../../src/core/search-goal.js";
import { findPddlDomainFile, loadPddl } from "../../src/pddl/index.js";
import { bySpecificity } from "../../src/planner/action-order.js";
import { compileProblem } from "../../src/planner/compile.js";
import { EFFECT_ADD, passTests } from "../../src/planner/compiled-problem.js";
import { createHeuristic } from "../../src/planner/heuristics/registry.js";
import { RelaxedModel } from "../../src/planner/heuristics/relaxed-model.js";
import { runUnpaced, unpaced } from "../../src/planner/pace.js";

const problemFile = process.argv[2];
if (!problemFile) throw new Error("usage: lmcut-speed.ts <problem.pddl> [states] [passes] [seed] [walk]");
const states = Number(process.argv[3] ?? 2000);
const passes = Number(process.argv[4] ?? 5);
const seed = Number(process.argv[5] ?? 1);
const walk = Number(process.argv[6] ?? 60);
const domainFile = findPddlDomainFile(problemFile) ?? join(dirname(problemFile), "domain.pddl");

const task = loadPddl(readFileSync(domainFile, "utf8"), readFileSync(problemFile, "utf8"), { domainFile, problemFile });
const goal = searchGoalOf(task.goal);
const sorted = runUnpaced(bySpecificity(task.actions, unpaced()));
const p = compileProblem(task.state, goal, sorted);
const model = new RelaxedModel(p, p.start);
const h = createHeuristic("lmcut", p, model);

/** mulberry32: a small seeded generator, the same sequence everywhere. */
function random(s: number): () => number {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The walk: rows one after another in one buffer.
const width = p.width;
const rows = new Float64Array(states * width);
const next = random(seed);
const row = new Float64Array(p.start);
const applicable: number[] = [];
for (let s = 0, step = 0; s < states; step++) {
  if (step % walk === 0) row.set(p.start);
  applicable.length = 0;
  for (const a of p.actions) if (passTests(p, row, 0, a.testStart, a.testEnd)) applicable.push(a.index);
  if (applicable.length === 0) {
    row.set(p.start);
    continue;
  }
  const a = p.actions[applicable[Math.floor(next() * applicable.length)] as number]!;
  for (let e = a.effectStart; e < a.effectEnd; e++) {
    const key = p.effectKey[e] as number;
    const arg = p.effectArg[e] as number;
    row[key] = p.effectOp[e] === EFFECT_ADD ? (row[key] as number) + arg : arg;
  }
  rows.set(row, s * width);
  s++;
}

h.beginSearch?.(Number.POSITIVE_INFINITY);
function pass(): { sum: number; deadEnds: number; wallUs: number; cpuUs: number } {
  let sum = 0;
  let deadEnds = 0;
  const cpu = process.cpuUsage();
  const began = performance.now();
  for (let s = 0; s < states; s++) {
    const v = h.evaluate(rows, s * width);
    if (v === Number.POSITIVE_INFINITY) deadEnds++;
    else sum += v;
  }
  const wallUs = (performance.now() - began) * 1000;
  const used = process.cpuUsage(cpu);
  return { sum, deadEnds, wallUs, cpuUs: used.user + used.system };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const warm = pass();
const wall: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < passes; i++) {
  const r = pass();
  if (r.sum !== warm.sum || r.deadEnds !== warm.deadEnds) throw new Error("values differ between passes");
  wall.push(r.wallUs / states);
  cpu.push(r.cpuUs / states);
}
const total = process.cpuUsage();
process.stdout.write(
  `${JSON.stringify({
    instance: `${basename(dirname(problemFile))}/${basename(problemFile, ".pddl")}`,
    actions: p.actions.length,
    atoms: p.atoms.length,
    states,
    sumH: warm.sum,
    deadEnds: warm.deadEnds,
    usPerEval: Math.round(median(wall) * 10) / 10,
    cpuUsPerEval: Math.round(median(cpu) * 10) / 10,
    leastCpuUsPerEval: Math.round(Math.min(...cpu) * 10) / 10,
    processCpuMs: Math.round((total.user + total.system) / 1000),
  })}\n`,
);
