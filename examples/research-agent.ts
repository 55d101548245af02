/**
 * Research agent built from LangChain tools, offline.
 *
 * Five `tool()` tools with fake back-ends (two web searches, a price feed, a
 * summarizer, a brief writer) become GOAP actions: `goapifyTool` wraps one by
 * hand (to map its argument onto a differently named world-state key), and
 * `createGoapAgent` wraps the rest from per-tool maps of preconditions,
 * effects, costs and result keys. The goal is a sentence, interpreted once
 * by the offline keyword interpreter.
 *
 * Day 1: the Tavily key has been revoked. The cheap search fails, the
 * observer blacklists it, and the planner replans through DuckDuckGo; no
 * retry code anywhere. Day 2: the key is back and the cheap plan runs.
 * Every run is recorded in an execution history (a LangGraph store) and
 * traced; the script queries both at the end.
 *
 * Run: npx tsx examples/research-agent.ts
 */

import { tool } from "@langchain/core/tools";
import { InMemoryStore } from "@langchain/langgraph";
import { z } from "zod";
import type { GoalSpec, PlanningTracer } from "../src/core/index.js";
import { type ActionResult, type GoapRunResult, StoreExecutionHistory, successfulActionNames } from "../src/graph/index.js";
import { createGoapAgent, goapifyTool } from "../src/integrations/index.js";
import type { Plan } from "../src/planner/index.js";
import { MultiTracer, RecordingTracer } from "../src/tracing/index.js";

// --- Offline back-ends ----------------------------------------------------------
const NEWS: Record<string, string> = {
  ACME: "ACME beats estimates on cloud revenue",
  GLOBEX: "GLOBEX opens a second battery plant",
  INITECH: "INITECH settles its licensing dispute",
};
const PRICES: Record<string, number> = { ACME: 182.4, GLOBEX: 57.9, INITECH: 23.15 };
let tavilyKeyRevoked = true;
const toolCalls: string[] = [];

const tickersSchema = z.object({ tickers: z.array(z.string()).min(1) });

const tavilySearch = tool(
  async ({ tickers }: { tickers: string[] }) => {
    toolCalls.push("tavily_search");
    if (tavilyKeyRevoked) throw new Error("401 Unauthorized: the Tavily API key was revoked");
    return tickers.map((t) => `[tavily] ${NEWS[t] ?? `no news for ${t}`}`);
  },
  { name: "tavily_search", description: "Ranked news search (paid API, cheapest per useful result).", schema: tickersSchema },
);

const duckduckgoSearch = tool(
  async ({ tickers }: { tickers: string[] }) => {
    toolCalls.push("duckduckgo_search");
    return tickers.map((t) => `[ddg] ${NEWS[t] ?? `no news for ${t}`}`);
  },
  { name: "duckduckgo_search", description: "Free web search; noisier, so it costs more to use.", schema: tickersSchema },
);

const fetchPrices = tool(
  async ({ symbols }: { symbols: string[] }) => {
    toolCalls.push("fetch_prices");
    return Object.fromEntries(symbols.map((s) => [s, PRICES[s] ?? null]));
  },
  { name: "fetch_prices", description: "Latest closing prices.", schema: z.object({ symbols: z.array(z.string()).min(1) }) },
);

const summarize = tool(
  async ({ headlines, prices }: { headlines: string[]; prices: Record<string, number> }) => {
    toolCalls.push("summarize");
    const priced = Object.entries(prices).map(([s, p]) => `${s} $${p.toFixed(2)}`);
    return `${headlines.length} headlines; closes: ${priced.join(", ")}.`;
  },
  {
    name: "summarize",
    description: "Summarizes headlines and prices (an offline stand-in for an LLM call).",
    schema: z.object({ headlines: z.array(z.string()), prices: z.record(z.string(), z.number()) }),
  },
);

const writeBrief = tool(
  async ({ tickers, headlines, summary }: { tickers: string[]; headlines: string[]; summary: string }) => {
    toolCalls.push("write_brief");
    return [`# Research brief: ${tickers.join(", ")}`, "", summary, "", ...headlines.map((h) => `- ${h}`)].join("\n");
  },
  {
    name: "write_brief",
    description: "Writes the research brief.",
    schema: z.object({ tickers: z.array(z.string()), headlines: z.array(z.string()), summary: z.string() }),
  },
);

// --- Tools as GOAP actions --------------------------------------------------------
// By hand: the price feed calls its argument `symbols`; the world state calls them `tickers`.
const prices = goapifyTool(fetchPrices, {
  input: { symbols: "tickers" },
  effects: { has_prices: true },
  resultKey: "prices",
  cost: 1,
});

const history = new StoreExecutionHistory(new InMemoryStore());
const recorder = new RecordingTracer();
const narrator: PlanningTracer = {
  onPlanComplete: (plan) => console.log(`  plan (cost ${(plan as Plan).totalCost}): ${(plan as Plan).actionNames.join(" → ")}`),
  onActionComplete: (result) => {
    const r = result as ActionResult;
    console.log(`  ${r.success ? "✓" : "✗"} ${r.actionName}${r.error ? ` — ${r.error}` : ""}`);
  },
  onReplan: (reason) => console.log(`  ↻ replanning (${reason})`),
};

const agent = await createGoapAgent([tavilySearch, duckduckgoSearch, prices, summarize, writeBrief], "Write the research brief", {
  interpreter: "keyword",
  preconditions: { summarize: { has_headlines: true, has_prices: true }, write_brief: { has_summary: true } },
  effects: {
    tavily_search: { has_headlines: true },
    duckduckgo_search: { has_headlines: true },
    summarize: { has_summary: true },
    write_brief: { brief_ready: true },
  },
  costs: { tavily_search: 1, duckduckgo_search: 4, summarize: 2, write_brief: 1 },
  resources: { tavily_search: { usd: 0.008 }, duckduckgo_search: { usd: 0 } },
  resultKeys: { tavily_search: "headlines", duckduckgo_search: "headlines", summarize: "summary", write_brief: "brief" },
  history,
  tracer: new MultiTracer([recorder, narrator]),
  logger: { warn: (m) => console.log(`  ! ${m}`) },
});

const goal = agent.goapGoal as GoalSpec;
console.log(`"Write the research brief" → goal ${JSON.stringify(goal.conditions)}`);
const start = { tickers: ["ACME", "GLOBEX", "INITECH"] };

console.log("\nDay 1 — the Tavily key is revoked:");
const day1: GoapRunResult = await agent.invoke({ goal, worldState: start });
const day1Events = [...recorder.names];
console.log(`\n${String(day1.worldState.brief)}\n`);

console.log("Day 2 — the key is restored:");
tavilyKeyRevoked = false;
toolCalls.length = 0;
recorder.clear();
const day2: GoapRunResult = await agent.invoke({ goal, worldState: start });
const day2Events = [...recorder.names];

const runs = await history.queryByGoal(goal);
const tavilyFailures = await history.queryFailures("tavily_search");
console.log("\nExecution history:");
for (const record of runs) {
  console.log(
    `  ${record.status}: plan ${record.planActions.join(" → ")}; failed [${record.failedActions.join(", ")}]; replans ${record.replanCount}`,
  );
}
const count = (names: string[], name: string) => names.filter((n) => n === name).length;
console.log(
  `Trace: day 1 had ${day1Events.length} events (${count(day1Events, "replan")} replan), day 2 had ${day2Events.length} (${count(day2Events, "replan")} replans).`,
);

// --- Self-check ----------------------------------------------------------------------
const problems: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) problems.push(what);
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
check(
  same(goal.conditions, { brief_ready: true }),
  `the sentence became ${JSON.stringify(goal.conditions)}, expected { brief_ready: true }`,
);
check(day1.status === "goal_achieved", `day 1 ended ${day1.status}`);
check(
  same(
    day1.executionHistory.map((r) => `${r.actionName}:${r.success}`),
    ["tavily_search:false", "duckduckgo_search:true", "fetch_prices:true", "summarize:true", "write_brief:true"],
  ),
  "day 1 should fail on Tavily, then search DuckDuckGo, fetch prices, summarize and write",
);
check(day1.replanCount === 1 && same(day1.blacklistedActions, ["tavily_search"]), "day 1 should replan once with Tavily blacklisted");
check(
  String(day1.worldState.brief).startsWith(
    "# Research brief: ACME, GLOBEX, INITECH\n\n3 headlines; closes: ACME $182.40, GLOBEX $57.90, INITECH $23.15.",
  ) && String(day1.worldState.brief).includes("- [ddg] GLOBEX opens a second battery plant"),
  "day 1 brief should be built from DuckDuckGo headlines and the price feed",
);
check(day2.status === "goal_achieved" && day2.replanCount === 0, "day 2 should succeed without replanning");
check(same(successfulActionNames(day2), ["tavily_search", "fetch_prices", "summarize", "write_brief"]), "day 2 should use Tavily");
check(same(toolCalls, ["tavily_search", "fetch_prices", "summarize", "write_brief"]), `day 2 tool calls were ${toolCalls.join(", ")}`);
check(runs.length === 2, `history holds ${runs.length} runs of the goal, expected 2`);
check(
  tavilyFailures.length === 1 && same(tavilyFailures[0]?.failedActions, ["tavily_search"]) && tavilyFailures[0]?.replanCount === 1,
  "history should hold exactly one run in which Tavily failed",
);
check(
  count(day1Events, "replan") === 1 && count(day2Events, "replan") === 0,
  "the tracer should see one replan on day 1 and none on day 2",
);
check(day1Events.at(-1) === "goal_achieved" && day2Events.at(-1) === "goal_achieved", "both traces should end with goal_achieved");

if (problems.length > 0) {
  console.error(`\nFAILED:\n- ${problems.join("\n- ")}`);
  process.exitCode = 1;
} else {
  console.log("OK: the agent survived the search outage by replanning, and history and trace recorded it.");
}
