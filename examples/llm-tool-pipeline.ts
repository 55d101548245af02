/**
 * An LLM research pipeline as a GOAP graph, offline: the tools are LangChain
 * tools with fake back-ends and the "LLM" is a scripted chat model. The
 * preferred search tool fails (its API key was revoked), the executor records
 * the failure, the observer blacklists the tool and the planner routes around
 * it through the fallback search — no hand-written retry logic anywhere.
 *
 *   npx tsx examples/llm-tool-pipeline.ts
 */
import { type AIMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { z } from "zod";
import { GoalSpec, type PlanningTracer } from "../src/core/index.js";
import {
  FunctionalGuard,
  GoapGraph,
  type GoapState,
  type GoapStreamEvent,
  MaxLLMCallsPolicy,
  successfulActionNames,
} from "../src/graph/index.js";
import { goapifyTool } from "../src/integrations/index.js";
import type { Plan } from "../src/planner/index.js";

// --- Fake back-ends ---------------------------------------------------------
const CORPUS: Record<string, string[]> = {
  "goal-oriented action planning": [
    "GOAP plans a sequence of actions by searching over preconditions and effects (Orkin, F.E.A.R., 2005).",
    "A* with an admissible heuristic returns the cheapest plan; replanning handles a changing world.",
    "LangGraph runs the plan as a state machine with checkpoints and human-in-the-loop interrupts.",
  ],
};

const premiumSearch = tool(
  async ({ topic }: { topic: string }) => {
    throw new Error(`401 Unauthorized: API key for premium_search was revoked (query "${topic}")`);
  },
  { name: "premium_search", description: "Paid web search with ranked results.", schema: z.object({ topic: z.string() }) },
);

const freeSearch = tool(async ({ topic }: { topic: string }) => (CORPUS[topic] ?? []).map((_, i) => `https://example.org/${i + 1}`), {
  name: "free_search",
  description: "Free web search (slower, less ranked).",
  schema: z.object({ topic: z.string() }),
});

const fetchPages = tool(
  async ({ search_results, topic }: { search_results: string[]; topic: string }) => search_results.map((_, i) => CORPUS[topic]?.[i] ?? ""),
  {
    name: "fetch_pages",
    description: "Downloads each result's text.",
    schema: z.object({ search_results: z.array(z.string()), topic: z.string() }),
  },
);

const llm = new FakeListChatModel({
  responses: [
    "GOAP searches preconditions and effects for the cheapest action sequence; LangGraph runs it with checkpoints and approvals.",
  ],
});
let llmCalls = 0;
const summarize = tool(
  async ({ pages }: { pages: string[] }) => {
    llmCalls++;
    const reply = await llm.invoke([new HumanMessage(`Summarize in one sentence:\n${pages.join("\n")}`)]);
    return (reply as AIMessage).content as string;
  },
  { name: "summarize", description: "LLM summary of the fetched pages.", schema: z.object({ pages: z.array(z.string()) }) },
);

const writeReport = tool(
  async ({ summary, topic }: { summary: string; topic: string }) => `# ${topic}\n\n${summary}\n\nSources: ${CORPUS[topic]?.length ?? 0}`,
  { name: "write_report", description: "Formats the final report.", schema: z.object({ summary: z.string(), topic: z.string() }) },
);

// --- Tools as GOAP actions ----------------------------------------------------
const actions = [
  goapifyTool(premiumSearch, { effects: { has_results: true }, resultKey: "search_results", cost: 1 }),
  goapifyTool(freeSearch, { effects: { has_results: true }, resultKey: "search_results", cost: 3 }),
  goapifyTool(fetchPages, { preconditions: { has_results: true }, effects: { has_pages: true }, resultKey: "pages", cost: 1 }),
  goapifyTool(summarize, {
    preconditions: { has_pages: true },
    effects: { has_summary: true },
    resultKey: "summary",
    cost: 2,
    resources: { llm_calls: 1 },
  }),
  goapifyTool(writeReport, { preconditions: { has_summary: true }, effects: { report_ready: true }, resultKey: "report", cost: 1 }),
];

// --- Run ----------------------------------------------------------------------
const log = (line: string) => console.log(line);
const tracer: PlanningTracer = {
  onReplan: (reason, plan) => log(`  ↻ replanned after ${reason}: ${(plan as Plan).actionNames.join(" → ")}`),
};
const spendGuard = new FunctionalGuard("llm-budget", (action) => ({
  passed: action.name !== "summarize" || llmCalls < 3,
  message: "LLM budget nearly spent",
}));
const graph = new GoapGraph(actions, {
  tracer,
  guards: [spendGuard],
  terminationPolicies: [new MaxLLMCallsPolicy(5)],
  logger: { warn: (m) => log(`  ! ${m}`) },
});

const goal = new GoalSpec({ conditions: { report_ready: true }, name: "research report" });
log(`Goal: ${goal.label} on "goal-oriented action planning"`);
let result: GoapState | undefined;
for await (const [mode, chunk] of await graph.stream(
  goal,
  { topic: "goal-oriented action planning" },
  { streamMode: ["custom", "values"] },
)) {
  if (mode === "values") {
    result = chunk as GoapState;
    continue;
  }
  const event = chunk as GoapStreamEvent;
  if (event.kind === "plan" && !event.replan) log(`  plan (cost ${event.totalCost}): ${event.actions.join(" → ")}`);
  if (event.kind === "action") log(`  ${event.success ? "✓" : "✗"} ${event.actionName}${event.error ? ` — ${event.error}` : ""}`);
  if (event.kind === "finish") log(`  finished: ${event.status}`);
}

if (!result) throw new Error("the graph streamed no state");
log(`\nReport:\n${String(result.worldState.report)}\n`);
log(`Blacklisted: ${result.blacklistedActions.join(", ") || "none"}; replans: ${result.replanCount}; LLM calls: ${llmCalls}`);

// --- Self-check ---------------------------------------------------------------
const problems: string[] = [];
const expect = (ok: boolean, what: string) => {
  if (!ok) problems.push(what);
};
expect(result.status === "goal_achieved", `status is ${result.status}, expected goal_achieved`);
expect(result.replanCount === 1, `replanned ${result.replanCount} times, expected once`);
expect(
  JSON.stringify(result.executionHistory.map((r) => `${r.actionName}:${r.success}`)) ===
    JSON.stringify(["premium_search:false", "free_search:true", "fetch_pages:true", "summarize:true", "write_report:true"]),
  "execution history differs from premium failure → free search → fetch → summarize → report",
);
expect(
  JSON.stringify(successfulActionNames(result)) === JSON.stringify(["free_search", "fetch_pages", "summarize", "write_report"]),
  "wrong successful actions",
);
expect(JSON.stringify(result.blacklistedActions) === JSON.stringify(["premium_search"]), "premium_search should be blacklisted");
expect(String(result.worldState.report).startsWith("# goal-oriented action planning\n\nGOAP searches"), "report text is wrong");
expect(llmCalls === 1, `the LLM was called ${llmCalls} times, expected once`);

if (problems.length) {
  console.error(`\nFAILED:\n- ${problems.join("\n- ")}`);
  process.exitCode = 1;
} else {
  log("OK: the pipeline recovered from the tool failure by replanning.");
}
