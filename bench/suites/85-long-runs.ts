/**
 * Long runs (issue 23.1): GOAP runs of 1,000 and 10,000 steps (100,000 with
 * `BENCH_LONG_STEPS=1000,10000,100000`) on a world of L = 50 facts, on a
 * MemorySaver and a SqliteSaver: ms per step over the whole run and over
 * its last tenth (flat when the last tenth costs what the average does),
 * the bytes the checkpointer holds at the end (MB; per step), and how much
 * the heap and the buffers outside it grew (a MemorySaver keeps every
 * checkpoint of the run, serialized, outside the heap). Each tenth of a
 * run prints its pace and memory on stderr while it runs. Two
 * domains: `counter` (one action incrementing `n`) and `chain` (eight
 * actions in a ring, each needing the one before it, and counting). Then a
 * 200-step counter run on a MemorySaver against a hand-written one-node
 * LangGraph loop doing the same job (the same 50-fact world updated and a
 * history record appended per step, same checkpointer).
 *
 * `npm run bench -- long-runs` (`BENCH_LONG_STEPS`, `BENCH_LONG_SAVERS=MemorySaver,SqliteSaver`,
 * `BENCH_LONG_DOMAINS=counter,chain`, `BENCH_LONG_LOOP=0` to skip the loop comparison); under
 * `node --expose-gc --import tsx bench/run.ts long-runs` the memory figures are taken after a full collection)
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Annotation, type BaseCheckpointSaver, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { ActionSpec, GoalSpec, type WorldState } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { emit, median } from "../emit.js";

const L = 50;
const STEPS = (process.env.BENCH_LONG_STEPS ?? "1000,10000").split(",").map(Number);
const SAVERS = (process.env.BENCH_LONG_SAVERS ?? "MemorySaver,SqliteSaver").split(",") as SaverKind[];
const DOMAINS = (process.env.BENCH_LONG_DOMAINS ?? "counter,chain").split(",") as Domain[];
const RING = 8;

type Domain = "counter" | "chain";
type SaverKind = "MemorySaver" | "SqliteSaver";

function world(): WorldState {
  const start: WorldState = { n: 0, at: 0 };
  for (let i = 2; i < L; i++) start[`f${i}`] = i;
  return start;
}

function actions(domain: Domain): ActionSpec[] {
  if (domain === "counter") {
    return [new ActionSpec({ name: "inc", effects: { n: { inc: 1 } }, execute: (s) => ({ n: (s.n as number) + 1 }) })];
  }
  return Array.from(
    { length: RING },
    (_, j) =>
      new ActionSpec({
        name: `step_${j}`,
        preconditions: { at: j },
        effects: { at: (j + 1) % RING, n: { inc: 1 } },
        execute: (s) => ({ at: (j + 1) % RING, n: (s.n as number) + 1 }),
      }),
  );
}

function saver(kind: SaverKind, dir: string): { saver: BaseCheckpointSaver; bytes: () => number } {
  if (kind === "SqliteSaver") {
    const file = join(dir, `cp-${Math.random().toString(36).slice(2)}.db`);
    const s = SqliteSaver.fromConnString(file);
    const size = (f: string) => {
      try {
        return statSync(f).size;
      } catch {
        return 0;
      }
    };
    return { saver: s, bytes: () => size(file) + size(`${file}-wal`) };
  }
  const s = new MemorySaver();
  const bytes = () => {
    let total = 0;
    for (const ns of Object.values(s.storage))
      for (const cps of Object.values(ns)) for (const [cp, md] of Object.values(cps)) total += cp.byteLength + md.byteLength;
    for (const writes of Object.values(s.writes)) for (const w of Object.values(writes)) total += w[2].byteLength;
    return total;
  };
  return { saver: s, bytes };
}

/** One run; the per-step times come from the `updates` stream (one executor/observer pair per step). */
async function longRun(domain: Domain, kind: SaverKind, steps: number, dir: string) {
  const graph = new GoapGraph(actions(domain));
  const { saver: checkpointer, bytes } = saver(kind, dir);
  const app = graph.compile({ checkpointer });
  collectGarbage();
  const memoryBefore = process.memoryUsage();
  const observed: number[] = [];
  const began = performance.now();
  const stream = await app.stream(graph.createInput(new GoalSpec({ conditions: { n: { gte: steps } } }), world()), {
    configurable: { thread_id: `long-${domain}-${steps}` },
    streamMode: "updates",
  });
  const tick = Math.max(1000, Math.floor(steps / 10));
  for await (const chunk of stream) {
    if (!("observer" in (chunk as object))) continue;
    observed.push(performance.now());
    // Progress on stderr, so a long run shows its pace and memory while it runs (stdout keeps one JSON line per result).
    if (observed.length % tick === 0) progress(domain, kind, steps, observed, tick, memoryBefore);
  }
  const ms = performance.now() - began;
  const state = (await app.getState({ configurable: { thread_id: `long-${domain}-${steps}` } })).values as {
    status: string;
    worldState: WorldState;
  };
  if (state.status !== "goal_achieved" || state.worldState.n !== steps) throw new Error(`${domain} run of ${steps} ended ${state.status}`);
  const tenth = Math.max(1, Math.floor(observed.length / 10));
  const lastTenthMs = (observed[observed.length - 1] as number) - (observed[observed.length - 1 - tenth] as number);
  const firstTenthMs = (observed[tenth] as number) - (observed[0] as number);
  const stored = bytes();
  collectGarbage();
  emit({
    suite: "long-runs",
    domain,
    checkpointer: kind,
    steps,
    facts: L,
    msPerStep: round(ms / steps),
    firstTenthMsPerStep: round(firstTenthMs / tenth),
    lastTenthMsPerStep: round(lastTenthMs / tenth),
    checkpointMB: round(stored / 2 ** 20),
    checkpointBytesPerStep: Math.round(stored / steps),
    ...memoryGrowth(memoryBefore),
  });
}

/** A full collection when node runs with `--expose-gc`, so the memory figures hold what the run keeps, not earlier runs' garbage. */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Growth of the JS heap and of buffers outside it (where a MemorySaver's serialized checkpoints live), in MB. */
function memoryGrowth(before: NodeJS.MemoryUsage): { heapGrowthMB: number; externalGrowthMB: number } {
  const now = process.memoryUsage();
  return {
    heapGrowthMB: round((now.heapUsed - before.heapUsed) / 2 ** 20),
    externalGrowthMB: round((now.external - before.external) / 2 ** 20),
  };
}

function progress(domain: Domain, kind: SaverKind, steps: number, observed: number[], tick: number, before: NodeJS.MemoryUsage): void {
  const done = observed.length;
  const recent = ((observed[done - 1] as number) - (observed[done - 1 - tick] ?? (observed[0] as number))) / tick;
  const { heapGrowthMB, externalGrowthMB } = memoryGrowth(before);
  process.stderr.write(
    `# ${domain} ${kind} ${steps}: ${done} steps, last ${tick}: ${round(recent)} ms/step, heap +${heapGrowthMB} MB, external +${externalGrowthMB} MB\n`,
  );
}

const round = (x: number) => Math.round(x * 1000) / 1000;

interface LoopRecord {
  actionName: string;
  success: boolean;
  stateBefore: WorldState;
  stateAfter: WorldState;
}
const LoopState = Annotation.Root({
  world: Annotation<WorldState>(),
  history: Annotation<LoopRecord[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  limit: Annotation<number>(),
});

/** The hand-written loop: one node updates the 50-fact world and appends a history record, until n reaches the limit. */
function bareLoop(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(LoopState)
    .addNode("step", (s) => {
      const after = { ...s.world, n: (s.world.n as number) + 1 };
      return { world: after, history: [{ actionName: "inc", success: true, stateBefore: s.world, stateAfter: after }] };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (s) => ((s.world.n as number) >= s.limit ? END : "step"))
    .compile({ checkpointer });
}

let loops = 0;
async function loopComparison(steps: number): Promise<void> {
  const goap: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 5; i++) {
    const graph = new GoapGraph(actions("counter"));
    const app = graph.compile({ checkpointer: new MemorySaver() });
    let t0 = performance.now();
    await app.invoke(graph.createInput(new GoalSpec({ conditions: { n: { gte: steps } } }), world()), {
      configurable: { thread_id: `cmp-${loops++}` },
    });
    goap.push(performance.now() - t0);
    const loop = bareLoop(new MemorySaver());
    t0 = performance.now();
    const out = await loop.invoke(
      { world: world(), limit: steps },
      { recursionLimit: steps + 10, configurable: { thread_id: `bare-${loops++}` } },
    );
    bare.push(performance.now() - t0);
    if (out.history.length !== steps) throw new Error(`bare loop recorded ${out.history.length}`);
  }
  const g = median(goap.slice(1)) / steps;
  const b = median(bare.slice(1)) / steps;
  emit({
    suite: "long-runs",
    comparison: "one-node loop",
    checkpointer: "MemorySaver",
    steps,
    facts: L,
    goapMsPerStep: round(g),
    loopMsPerStep: round(b),
    ratio: Math.round((g / b) * 100) / 100,
  });
}

export default async function longRuns(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-long-"));
  try {
    if (process.env.BENCH_LONG_LOOP !== "0") await loopComparison(200);
    for (const domain of DOMAINS) for (const kind of SAVERS) for (const steps of STEPS) await longRun(domain, kind, steps, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
