/**
 * Deterministic benchmark problem generators, implemented from the spec in
 * the foundation issue so any planner (ours or a peer's) can be fed the very
 * same instances. `chainProblem` fingerprints are checked by a test.
 */
import { createHash } from "node:crypto";
import { ActionSpec, GoalSpec, mulberry32Step, type WorldState } from "../src/core/index.js";

export interface StripsAction {
  readonly name: string;
  readonly pre: number[];
  readonly add: number[];
  readonly del: number[];
  readonly cost: number;
}

export interface ChainProblem {
  readonly family: "chain";
  readonly N: number;
  readonly M: number;
  readonly D: number;
  readonly seed: number;
  readonly init: number[];
  readonly goal: number[];
  readonly actions: StripsAction[];
}

function stream(seed: number): () => number {
  let s = seed;
  return () => {
    const { value, seed: next } = mulberry32Step(s);
    s = next;
    return value;
  };
}

/** Generates the `chain` family: a chain of D actions to the goal fact among M−D distractors over N facts. */
export function chainProblem({ N, M, D, seed }: { N: number; M: number; D: number; seed: number }): ChainProblem {
  const rand = stream(seed);
  const randInt = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (k: number, pool: number[]): number[] => {
    const a = [...pool];
    for (let i = 0; i < k && i < a.length; i++) {
      const j = i + Math.floor(rand() * (a.length - i));
      [a[i], a[j]] = [a[j] as number, a[i] as number];
    }
    return a.slice(0, k).sort((x, y) => x - y);
  };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
  const noise = range(D, N);
  const all = range(0, N);
  const goalFact = D - 1;
  const actions: StripsAction[] = [];
  for (let i = 0; i < D; i++) {
    const extra = pick(randInt(0, 1), noise);
    const pre = [...(i > 0 ? [i - 1] : []), ...extra].sort((x, y) => x - y);
    const del = pick(
      randInt(0, 1),
      noise.filter((f) => !pre.includes(f)),
    );
    actions.push({ name: `c${i}`, pre, add: [i], del, cost: 1 });
  }
  for (let i = 0; i < M - D; i++) {
    const pre = pick(randInt(0, 2), all);
    const add = pick(randInt(1, 2), noise);
    const del = pick(
      randInt(0, 1),
      all.filter((f) => f !== goalFact && !add.includes(f)),
    );
    actions.push({ name: `x${i}`, pre, add, del, cost: randInt(1, 3) });
  }
  return { family: "chain", N, M, D, seed, init: [], goal: [goalFact], actions };
}

/** First 16 hex digits of the SHA-256 of the problem's JSON. */
export function fingerprint(problem: unknown): string {
  return createHash("sha256").update(JSON.stringify(problem)).digest("hex").slice(0, 16);
}

/** The chain problem as langgoap actions, start state and goal. */
export function chainToLanggoap(p: ChainProblem): { actions: ActionSpec[]; start: WorldState; goal: GoalSpec } {
  const fact = (i: number) => `f${i}`;
  const actions = p.actions.map(
    (a) =>
      new ActionSpec({
        name: a.name,
        preconditions: Object.fromEntries(a.pre.map((f) => [fact(f), true])),
        effects: { ...Object.fromEntries(a.del.map((f) => [fact(f), false])), ...Object.fromEntries(a.add.map((f) => [fact(f), true])) },
        cost: a.cost,
      }),
  );
  const start: WorldState = {};
  for (let i = 0; i < p.N; i++) start[fact(i)] = p.init.includes(i);
  return { actions, start, goal: new GoalSpec({ conditions: Object.fromEntries(p.goal.map((g) => [fact(g), true])) }) };
}

export interface ResourceProblemParams {
  readonly CAP: number;
  readonly W: number;
  readonly S: number;
  readonly G: number;
  readonly H: number;
}

/** A numeric action of the resource family: bounds on variables, then deltas. */
export interface NumericAction {
  readonly name: string;
  readonly atLeast: Readonly<Record<string, number>>;
  readonly atMost: Readonly<Record<string, number>>;
  readonly delta: Readonly<Record<string, number>>;
  readonly cost: number;
}

export const RESOURCE_VARS = ["wood", "stone", "iron", "tools", "gold", "house"] as const;

/** Generates the numeric `resource` family: gather, craft, trade and build a house. */
export function resourceProblem({ CAP, W, S, G, H }: ResourceProblemParams): {
  params: ResourceProblemParams;
  actions: NumericAction[];
  goal: { house: number };
} {
  const actions: NumericAction[] = [
    { name: "chop", atLeast: {}, atMost: { wood: CAP - 2 }, delta: { wood: 2 }, cost: 2 },
    { name: "quarry", atLeast: {}, atMost: { stone: CAP - 1 }, delta: { stone: 1 }, cost: 2 },
    { name: "craftTool", atLeast: { wood: 2, stone: 1 }, atMost: { tools: 1 }, delta: { wood: -2, stone: -1, tools: 1 }, cost: 2 },
    { name: "mine", atLeast: { tools: 1 }, atMost: { iron: CAP - 1 }, delta: { iron: 1 }, cost: 3 },
    { name: "sellWood", atLeast: { wood: 3 }, atMost: { gold: CAP - 1 }, delta: { wood: -3, gold: 1 }, cost: 1 },
    { name: "smelt", atLeast: { iron: 2 }, atMost: { gold: CAP - 2 }, delta: { iron: -2, gold: 2 }, cost: 2 },
    {
      name: "build",
      atLeast: { wood: W, stone: S, gold: G },
      atMost: { house: CAP - 1 },
      delta: { wood: -W, stone: -S, gold: -G, house: 1 },
      cost: 5,
    },
  ];
  return { params: { CAP, W, S, G, H }, actions, goal: { house: H } };
}

/** The resource problem as langgoap actions with native numeric conditions and effects. */
export function resourceToLanggoap(p: ReturnType<typeof resourceProblem>): { actions: ActionSpec[]; start: WorldState; goal: GoalSpec } {
  const actions = p.actions.map((a) => {
    const preconditions: Record<string, { gte?: number; lte?: number }> = {};
    for (const [k, v] of Object.entries(a.atLeast)) preconditions[k] = { ...preconditions[k], gte: v };
    for (const [k, v] of Object.entries(a.atMost)) preconditions[k] = { ...preconditions[k], lte: v };
    const effects = Object.fromEntries(Object.entries(a.delta).map(([k, d]) => [k, d >= 0 ? { inc: d } : { dec: -d }]));
    return new ActionSpec({ name: a.name, preconditions, effects, cost: a.cost });
  });
  const start = Object.fromEntries(RESOURCE_VARS.map((v) => [v, 0]));
  return { actions, start, goal: new GoalSpec({ conditions: { house: { gte: p.goal.house } } }) };
}

export const CHAIN_INSTANCES = {
  "chain-S": { N: 16, M: 24, D: 8, seed: 1 },
  "chain-M": { N: 20, M: 32, D: 10, seed: 1 },
  "chain-L": { N: 24, M: 48, D: 12, seed: 1 },
  "chain-XL": { N: 28, M: 64, D: 12, seed: 1 },
} as const;

export const RESOURCE_INSTANCES = {
  "res-1": { CAP: 10, W: 4, S: 2, G: 2, H: 1 },
  "res-2": { CAP: 12, W: 6, S: 3, G: 4, H: 2 },
} as const;

/** A problem as langgoap takes it. */
export interface LanggoapProblem {
  readonly actions: ActionSpec[];
  readonly start: WorldState;
  readonly goal: GoalSpec;
}

/**
 * The unsolvable numeric example of the bounded-search issue: `add_two`
 * adds 2 to `n` from 0 and `finish` needs `n == 3`. Relaxed reachability
 * cannot refute it (n grows without bound), so only a budget stops A*.
 */
export function addTwoProblem(): LanggoapProblem {
  return {
    actions: [
      new ActionSpec({ name: "add_two", effects: { n: { inc: 2 } } }),
      new ActionSpec({ name: "finish", preconditions: { n: 3 }, effects: { done: true } }),
    ],
    start: { n: 0, done: false },
    goal: new GoalSpec({ conditions: { done: true } }),
  };
}

/**
 * An unsolvable boolean problem over 2^(n+2) states: `n` toggles that `set_a` reads, and
 * a goal `{ a: true, b: true }` that relaxation thinks reachable but no
 * order reaches (`set_b` clears `a` for good; `set_a` needs `b` false).
 */
export function togglesProblem(n: number): LanggoapProblem {
  const actions: ActionSpec[] = [];
  const start: WorldState = { a: false, b: false };
  for (let i = 0; i < n; i++) {
    actions.push(new ActionSpec({ name: `on${i}`, preconditions: { [`x${i}`]: false }, effects: { [`x${i}`]: true } }));
    actions.push(new ActionSpec({ name: `off${i}`, preconditions: { [`x${i}`]: true }, effects: { [`x${i}`]: false } }));
    start[`x${i}`] = false;
  }
  // set_a reads every toggle, so relevance analysis cannot leave them out: the 2^n states stay.
  const allOn = Object.fromEntries(Array.from({ length: n }, (_, i) => [`x${i}`, true]));
  actions.push(new ActionSpec({ name: "set_a", preconditions: { b: false, ...allOn }, effects: { a: true } }));
  actions.push(new ActionSpec({ name: "set_b", effects: { b: true, a: false } }));
  return { actions, start, goal: new GoalSpec({ conditions: { a: true, b: true } }) };
}

/** An unsolvable numeric problem with `n` counters (0..3) beside `add_two`: many states, 8-byte slots. */
export function countersProblem(n: number): LanggoapProblem {
  const { actions, start, goal } = addTwoProblem();
  const wide: WorldState = { ...start };
  for (let i = 0; i < n; i++) {
    actions.push(new ActionSpec({ name: `inc${i}`, preconditions: { [`c${i}`]: { lt: 3 } }, effects: { [`c${i}`]: { inc: 1 } } }));
    wide[`c${i}`] = 0;
  }
  return { actions, start: wide, goal };
}

/**
 * A chain of `length` actions: `step_i` needs `s_i` and makes `s_{i+1}`
 * true; only `s_0` is set at the start. The plan has `length` steps over
 * `length + 1` facts, so copying whole states per step costs the square.
 */
export function longChainProblem(length: number): LanggoapProblem {
  const actions = Array.from(
    { length },
    (_, i) => new ActionSpec({ name: `step_${i}`, preconditions: { [`s${i}`]: true }, effects: { [`s${i + 1}`]: true } }),
  );
  return { actions, start: { s0: true }, goal: new GoalSpec({ conditions: { [`s${length}`]: true } }) };
}

/**
 * A wide numeric world (issue 23 §2): the unsolvable `add_two` core beside
 * `W` extra facts `w0..w{W-1}` (start `i mod 3`) and `W` extra actions
 * `tend_i` (needs `w_i < 3`, adds 1, costs `1 + i mod 4`). Every state is a
 * row of W + 2 numbers and every expansion tries W + 2 actions, so one
 * expansion alone costs time in proportion to W²: compiling, the heuristic
 * and each expansion get heavy together. Only a budget or a signal stops it.
 */
export function wideWorldProblem(W: number): LanggoapProblem {
  const { actions, start, goal } = addTwoProblem();
  const wide: WorldState = { ...start };
  for (let i = 0; i < W; i++) {
    actions.push(
      new ActionSpec({ name: `tend_${i}`, preconditions: { [`w${i}`]: { lt: 3 } }, effects: { [`w${i}`]: { inc: 1 } }, cost: 1 + (i % 4) }),
    );
    wide[`w${i}`] = i % 3;
  }
  return { actions, start: wide, goal };
}
