import { tool } from "@langchain/core/tools";
import { z } from "zod";
import type { CreateGoapAgentOptions } from "../../src/integrations/index.js";

/** Offline research tools: a premium search that can be taken down, a free fallback, a summarizer and a report writer. */
export function researchTools(options: { readonly premiumDown?: boolean } = {}) {
  const calls: string[] = [];
  const premiumSearch = tool(
    async ({ topic }: { topic: string }) => {
      calls.push("premium_search");
      if (options.premiumDown) throw new Error("401 Unauthorized: API key revoked");
      return [`premium:${topic}:1`, `premium:${topic}:2`];
    },
    { name: "premium_search", description: "Paid web search.", schema: z.object({ topic: z.string() }) },
  );
  const freeSearch = tool(
    async ({ topic }: { topic: string }) => {
      calls.push("free_search");
      return [`free:${topic}:1`];
    },
    { name: "free_search", description: "Free web search.", schema: z.object({ topic: z.string() }) },
  );
  const summarize = tool(
    async ({ sources }: { sources: string[] }) => {
      calls.push("summarize");
      return `summary of ${sources.length} source(s): ${sources.join(", ")}`;
    },
    { name: "summarize", description: "Summarizes sources.", schema: z.object({ sources: z.array(z.string()) }) },
  );
  const writeReport = tool(
    async ({ topic, summary }: { topic: string; summary: string }) => {
      calls.push("write_report");
      return `# ${topic}\n${summary}`;
    },
    { name: "write_report", description: "Writes the final report.", schema: z.object({ topic: z.string(), summary: z.string() }) },
  );
  return { tools: [premiumSearch, freeSearch, summarize, writeReport], calls };
}

/** The planning model of {@link researchTools}: premium search is cheaper, so it is planned first. */
export const researchModel = {
  preconditions: { summarize: { has_sources: true }, write_report: { has_summary: true } },
  effects: {
    premium_search: { has_sources: true },
    free_search: { has_sources: true },
    summarize: { has_summary: true },
    write_report: { report_ready: true },
  },
  costs: { premium_search: 1, free_search: 3, summarize: 2, write_report: 1 },
  resultKeys: { premium_search: "sources", free_search: "sources", summarize: "summary", write_report: "report" },
} satisfies CreateGoapAgentOptions;
