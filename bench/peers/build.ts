/**
 * Builds the benchmark instances for the peer planners installed from npm
 * (`goap@1.1.1`, `mahler@4.1.5`) from the same generator output langgoap uses.
 */
import goapModule from "goap";
import { Task } from "mahler";
import { Planner } from "mahler/planner";
import {
  CHAIN_INSTANCES,
  chainProblem,
  type NumericAction,
  RESOURCE_INSTANCES,
  RESOURCE_VARS,
  resourceProblem,
  type StripsAction,
} from "../problems.js";

type State = Record<string, number | boolean>;

/** A uniform view of one instance: initial state, goal test and actions as functions. */
export interface PeerInstance {
  readonly initial: State;
  readonly goalKey: string;
  readonly goalValue: number | boolean;
  readonly isGoal: (s: State) => boolean;
  readonly actions: { name: string; cost: number; applicable: (s: State) => boolean; apply: (s: State) => void }[];
}

export function peerInstance(name: string): PeerInstance {
  if (name in CHAIN_INSTANCES) {
    const p = chainProblem(CHAIN_INSTANCES[name as keyof typeof CHAIN_INSTANCES]);
    const initial: State = {};
    for (let i = 0; i < p.N; i++) initial[`f${i}`] = false;
    const goalKey = `f${p.goal[0]}`;
    return {
      initial,
      goalKey,
      goalValue: true,
      isGoal: (s) => s[goalKey] === true,
      actions: p.actions.map((a: StripsAction) => ({
        name: a.name,
        cost: a.cost,
        applicable: (s) => a.pre.every((f) => s[`f${f}`] === true),
        apply: (s) => {
          for (const f of a.del) s[`f${f}`] = false;
          for (const f of a.add) s[`f${f}`] = true;
        },
      })),
    };
  }
  const params = RESOURCE_INSTANCES[name as keyof typeof RESOURCE_INSTANCES];
  const p = resourceProblem(params);
  const initial: State = Object.fromEntries(RESOURCE_VARS.map((v) => [v, 0]));
  return {
    initial,
    goalKey: "house",
    goalValue: p.goal.house,
    isGoal: (s) => (s.house as number) >= p.goal.house,
    actions: p.actions.map((a: NumericAction) => ({
      name: a.name,
      cost: a.cost,
      applicable: (s) =>
        Object.entries(a.atLeast).every(([k, v]) => (s[k] as number) >= v) &&
        Object.entries(a.atMost).every(([k, v]) => (s[k] as number) <= v),
      apply: (s) => {
        for (const [k, d] of Object.entries(a.delta)) s[k] = (s[k] as number) + d;
      },
    })),
  };
}

/** Plans with goap@1.1.1 (uniform-cost search with a goal-count tie-breaker over cloned objects). Returns action names. */
export function planWithGoap(inst: PeerInstance): string[] | null {
  const { Agent, Action } = goapModule as unknown as {
    Agent: new (
      world: State,
    ) => { action(a: unknown): void; goal(name: string, fn: unknown): void; plan(): { name: string }[] | undefined };
    Action: new (o: { name: string; cost: number }) => { precondition(fn: unknown): unknown; effect(fn: unknown): unknown };
  };
  class BenchAgent extends Agent {
    move() {}
    isInRange() {
      return true;
    }
    getActionCost(action: { cost: number }) {
      return action.cost;
    }
  }
  const agent = new BenchAgent({ ...inst.initial });
  for (const a of inst.actions) {
    const action = new Action({ name: a.name, cost: a.cost });
    action.precondition((s: State) => a.applicable(s));
    action.effect((s: State) => {
      a.apply(s);
      return s;
    });
    agent.action(action);
  }
  agent.goal("goal", (_world: State, s: State) => inst.isGoal(s));
  const found = agent.plan();
  return found ? found.map((a) => a.name).reverse() : null;
}

/** Plans with mahler@4.1.5 (depth-first HTN planner; the target is the goal key's value). */
export function planWithMahler(inst: PeerInstance): { names: string[]; iterations: number } | null {
  const tasks = inst.actions.map((a) =>
    Task.from<State>({
      condition: (s) => a.applicable(s as State),
      effect: (s) => {
        a.apply(s._ as State);
      },
      description: a.name,
    }),
  );
  const planner = Planner.from<State>({ tasks, config: { maxSearchDepth: 1000 } });
  const result = planner.findPlan({ ...inst.initial }, { [inst.goalKey]: inst.goalValue } as never) as {
    success: boolean;
    start: { action?: { description?: string }; next?: unknown } | null;
    stats: { iterations: number };
  };
  if (!result.success) return null;
  const names: string[] = [];
  for (let n = result.start as { action?: { description?: string }; next?: unknown } | null; n; n = n.next as typeof n) {
    if (n.action?.description) names.push(n.action.description);
  }
  return { names, iterations: result.stats.iterations };
}

/** Cost of a sequence of action names, replayed and checked against the instance. */
export function replayCost(inst: PeerInstance, names: readonly string[]): number | null {
  const s = { ...inst.initial };
  let cost = 0;
  for (const name of names) {
    const a = inst.actions.find((x) => x.name === name && x.applicable(s));
    if (!a) return null;
    a.apply(s);
    cost += a.cost;
  }
  return inst.isGoal(s) ? cost : null;
}
