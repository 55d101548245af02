/**
 * Checkpoint-friendly state (issue 14): a checkpoint holds the records a
 * step appended, not the whole execution history again, and the plan keeps
 * per-step changes, not whole expected states; so a checkpoint's size does
 * not grow with the run. Reading and resuming rebuild the full history.
 */
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec, type WorldState } from "../../src/core/index.js";
import { expectedStatesOf, GoapGraph, type GoapState } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

/** A chain of `length` actions over `length + 1` facts, so every whole state grows with the run. */
function chain(length: number, stopAt = -1) {
  const actions = Array.from(
    { length },
    (_, i) =>
      new ActionSpec({
        name: `step_${i}`,
        preconditions: { [`s${i}`]: true },
        effects: { [`s${i + 1}`]: true },
        requireHumanApproval: i === stopAt,
        execute: () => ({ [`s${i + 1}`]: true }),
      }),
  );
  const start: WorldState = {};
  for (let i = 0; i <= length; i++) start[`s${i}`] = i === 0;
  return { actions, start, goal: { [`s${length}`]: true } };
}

const bytes = (value: unknown): number => JSON.stringify(value ?? null).length;

describe("checkpoints that do not grow with the run", () => {
  it("stores each step's history records once and the plan as per-step changes", async () => {
    const steps = 120;
    const { actions, start, goal } = chain(steps);
    const saver = new MemorySaver();
    const graph = new GoapGraph(actions, { logger: quietLogger(), recursionLimit: steps * 4 + 20 });
    const compiled = graph.compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "growth" } };
    const result = (await compiled.invoke(graph.createInput(goal, start), config)) as GoapState;
    expect(result.status).toBe("goal_achieved");
    expect(result.executionHistory.map((r) => r.actionName)).toEqual(actions.map((a) => a.name));

    // The plan: one changed fact per step, whole expected states on read.
    expect(result.plan?.expectedChanges?.every((change) => Object.keys(change.set).length === 1)).toBe(true);
    expect(result.plan?.expectedStates).toBeUndefined();
    expect(expectedStatesOf(result.plan!)[steps - 1]).toEqual({
      ...start,
      ...Object.fromEntries(actions.map((_, i) => [`s${i + 1}`, true])),
    });

    const tuples = [];
    for await (const tuple of saver.list(config)) tuples.push(tuple);
    const withHistory = tuples.filter((t) => Object.hasOwn(t.checkpoint.channel_values, "executionHistory"));
    // Whole copies only at the snapshot cadence (every 64 executor steps), never at every step.
    expect(withHistory.length).toBeGreaterThan(0);
    expect(withHistory.length).toBeLessThanOrEqual(4);
    // The plan is stored when planned (a delta channel too), not in every step's checkpoint.
    expect(tuples.filter((t) => Object.hasOwn(t.checkpoint.channel_values, "plan")).length).toBeLessThanOrEqual(2);
    const underWay = tuples.filter((t) => {
      const values = t.checkpoint.channel_values as { worldState?: WorldState; executionHistory?: unknown; plan?: unknown };
      return values.worldState?.s1 === true && !Object.hasOwn(values, "executionHistory") && !Object.hasOwn(values, "plan");
    });
    const sizes = underWay.map((t) => bytes(t.checkpoint.channel_values));
    // One checkpoint per step: the steps go straight on, the observer runs once at the goal.
    expect(sizes.length).toBeGreaterThan(steps - 10);
    expect(tuples.length).toBeLessThan(steps + 10);
    // Once under way, a checkpoint without a snapshot weighs the same at step 10 as at step 110, and less than the plan alone.
    expect(Math.max(...sizes) / Math.min(...sizes)).toBeLessThan(1.1);
    expect(Math.max(...sizes)).toBeLessThan(bytes(result.plan));
  });

  it("rebuilds the whole history when reading any checkpoint and when a fresh graph resumes", async () => {
    const steps = 80;
    const stopAt = 70;
    const { actions, start, goal } = chain(steps, stopAt);
    const saver = new MemorySaver();
    const build = () => new GoapGraph(actions, { logger: quietLogger(), recursionLimit: steps * 4 + 20 });
    const first = build();
    const app = first.compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "resume" } };
    await first.invoke(goal, start, config);

    // Paused at step_70's approval: the first 70 actions are in the history, read back from deltas and a snapshot.
    const paused = await app.getState(config);
    expect((paused.values as GoapState).executionHistory.map((r) => r.actionName)).toEqual(actions.slice(0, stopAt).map((a) => a.name));

    // An earlier checkpoint reads as it was then.
    const history = [];
    for await (const snapshot of app.getStateHistory(config)) history.push(snapshot);
    const lengths = history.map((s) => (s.values as GoapState).executionHistory?.length ?? 0);
    expect(lengths[0]).toBe(stopAt);
    expect(lengths).toContain(35);
    expect([...lengths].reverse()).toEqual([...lengths].sort((a, b) => a - b));

    // A fresh graph (as in a new process) resumes the pause and finishes with the whole history, each action once.
    const fresh = build();
    fresh.compile({ checkpointer: saver });
    const done = (await fresh.resume(true, config)) as GoapState;
    expect(done.status).toBe("goal_achieved");
    expect(done.executionHistory.map((r) => r.actionName)).toEqual(actions.map((a) => a.name));
  });
});
