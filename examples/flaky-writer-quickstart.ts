/**
 * Quickstart: four actions, one goal, one failure, no retry code.
 *
 * A post needs research, a draft and publishing. Two writers can draft it:
 * the fast one (cost 1) and the premium one (cost 5). The planner picks the
 * cheap path, the fast writer fails (rate limited), the observer blacklists
 * it, and the planner replans through the premium writer. The run is a real
 * LangGraph graph: this script streams its events as they happen.
 *
 * Run: npx tsx examples/flaky-writer-quickstart.ts
 */
import { ActionSpec, GoalSpec } from "../src/core/index.js";
import { GoapGraph, type GoapRunResult, type GoapStreamEvent, successfulActionNames } from "../src/graph/index.js";

// 1. Actions: what each needs, what it changes, what it costs, and the real work.
let fastWriterCalls = 0;
const draft: Record<string, string> = {};
const actions = [
  new ActionSpec({
    name: "research",
    effects: { researched: true },
    cost: 1,
    execute: (state) => {
      draft.notes = `3 sources on ${String(state.topic)}`;
    },
  }),
  new ActionSpec({
    name: "write_fast",
    preconditions: { researched: true },
    effects: { drafted: true },
    cost: 1,
    execute: () => {
      fastWriterCalls++;
      if (fastWriterCalls === 1) throw new Error("429 rate limited");
      draft.text = "a quick draft";
    },
  }),
  new ActionSpec({
    name: "write_premium",
    preconditions: { researched: true },
    effects: { drafted: true },
    cost: 5,
    execute: () => {
      draft.text = `a careful draft from ${draft.notes}`;
    },
  }),
  new ActionSpec({ name: "publish", preconditions: { drafted: true }, effects: { published: true }, cost: 1 }),
];

// 2. A goal, and 3. a graph that plans, executes, observes and replans.
const goal = new GoalSpec({ conditions: { published: true }, name: "publish a post" });
const graph = new GoapGraph(actions, { logger: { warn: (m) => console.log(`  ! ${m}`) } });

console.log(`Goal: ${goal.label}, starting from { topic: "GOAP" }.\n`);
let result: GoapRunResult | undefined;
for await (const [mode, chunk] of await graph.stream(goal, { topic: "GOAP" }, { streamMode: ["custom", "values"] })) {
  if (mode === "values") {
    result = chunk as GoapRunResult;
    continue;
  }
  const event = chunk as GoapStreamEvent;
  if (event.kind === "plan")
    console.log(`${event.replan ? "Replanned" : "Planned"} (cost ${event.totalCost}): ${event.actions.join(" → ")}`);
  if (event.kind === "action") console.log(`  ${event.success ? "✓" : "✗"} ${event.actionName}${event.error ? ` — ${event.error}` : ""}`);
  if (event.kind === "finish") console.log(`Finished: ${event.status}`);
}
if (!result) throw new Error("the graph streamed no state");

console.log(`\nPublished: ${draft.text}`);
console.log(`Replans: ${result.replanCount}; blacklisted: ${result.blacklistedActions.join(", ") || "none"}`);

// 4. Check the outcome (CI runs every example).
const problems: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) problems.push(what);
};
check(result.status === "goal_achieved", `status is ${result.status}, expected goal_achieved`);
check(
  JSON.stringify(result.executionHistory.map((r) => `${r.actionName}:${r.success ? "ok" : "failed"}`)) ===
    JSON.stringify(["research:ok", "write_fast:failed", "write_premium:ok", "publish:ok"]),
  "expected research, a failed fast write, the premium write, then publish",
);
check(
  JSON.stringify(successfulActionNames(result)) === JSON.stringify(["research", "write_premium", "publish"]),
  "wrong successful actions",
);
check(result.replanCount === 1, `replanned ${result.replanCount} times, expected once`);
check(JSON.stringify(result.blacklistedActions) === JSON.stringify(["write_fast"]), "write_fast should be blacklisted");
check(result.plan?.totalCost === 6, `the replanned remainder should cost 6 (premium 5 + publish 1), got ${result.plan?.totalCost}`);
check(fastWriterCalls === 1, `the fast writer ran ${fastWriterCalls} times, expected once`);
check(draft.text === "a careful draft from 3 sources on GOAP", "the published draft is not the premium one");

if (problems.length > 0) {
  console.error(`\nFAILED:\n- ${problems.join("\n- ")}`);
  process.exitCode = 1;
} else {
  console.log("OK: the failed writer was routed around by replanning.");
}
