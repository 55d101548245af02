/**
 * What it costs to give each action a state of its own (issue 15, section
 * 5), on a 1,000-fact world (and a 20-fact one): a one-level spread (what actions got before:
 * cheap but shares nested values), `copyState` (the deep copy actions get
 * now), `structuredClone`, and deep freezing (the alternative: freezing a
 * fresh state, and re-freezing one whose nested values are already frozen,
 * as in a run's steady state). Reports microseconds per state and the
 * ratio to the spread, measured side by side in this process.
 */

import type { WorldState } from "../../src/core/index.js";
import { copyState } from "../../src/graph/copy-state.js";
import { emit, timeIt } from "../emit.js";

const FACTS = 1000;
const REPS = 200;

/** `facts` facts: booleans, numbers and strings only. */
function flatState(facts = FACTS): WorldState {
  const state: WorldState = {};
  for (let i = 0; i < facts; i++) state[`fact_${i}`] = i % 3 === 0 ? i % 2 === 0 : i % 3 === 1 ? i * 1.5 : `value_${i}`;
  return state;
}

/** 1,000 facts of which 100 are lists of 10 records (with a nested tag list), as agents keep documents or search results. */
function nestedState(): WorldState {
  const state = flatState();
  for (let i = 0; i < FACTS; i += 10) {
    state[`fact_${i}`] = Array.from({ length: 10 }, (_, j) => ({ id: `${i}-${j}`, score: j / 10, tags: ["a", "b", String(j)] }));
  }
  return state;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

let sink = 0;

export default async function stateIsolationBench(): Promise<void> {
  for (const [shape, make] of [
    ["flat", () => flatState()],
    ["nested", nestedState],
    ["small_20", () => flatState(20)],
  ] as const) {
    const state = make();
    // Freezing mutates in place, so each freezing round gets its own fresh states, built outside the timing.
    const fresh = () => Array.from({ length: REPS }, make);
    const frozenNested = deepFreeze(make());
    const ways: [string, (i: number) => unknown, (() => void) | undefined][] = [
      ["spread", () => ({ ...state }), undefined],
      ["copyState", () => copyState(state), undefined],
      ["structuredClone", () => structuredClone(state), undefined],
      ["deepFreeze_fresh", (i) => deepFreeze(pool[i]), () => (pool = fresh())],
      // A step's new state: a new top-level object over values frozen at earlier steps.
      ["deepFreeze_steady", () => deepFreeze({ ...frozenNested }), undefined],
    ];
    let pool: WorldState[] = [];
    let baseline = 0;
    for (const [way, fn, setup] of ways) {
      const round = () => {
        setup?.();
        const t0 = performance.now();
        for (let i = 0; i < REPS; i++) if (fn(i) === state) sink++;
        return performance.now() - t0;
      };
      const times: number[] = [];
      await timeIt(() => times.push(round()), { warmup: 3, minRuns: 15, minMs: 800, maxRuns: 200 });
      times.sort((a, b) => a - b);
      const usPerState = ((times[times.length >> 1] as number) / REPS) * 1000;
      if (way === "spread") baseline = usPerState;
      emit({
        suite: "state-isolation",
        shape,
        facts: Object.keys(state).length,
        way,
        usPerState: Number(usPerState.toFixed(2)),
        ratioToSpread: Number((usPerState / baseline).toFixed(2)),
      });
    }
  }
  if (sink < 0) process.stderr.write("unreachable\n");
}
