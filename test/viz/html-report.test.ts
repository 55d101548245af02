import { describe, expect, it } from "vitest";
import { createVillageActions, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec } from "../../src/core/index.js";
import { explainNoPlan, Plan } from "../../src/planner/index.js";
import { renderHtmlReport, visualize } from "../../src/viz/index.js";
import { scheduledVillagePlan, villagePlan } from "./fixtures.js";

function embeddedData(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="langgoap-report">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error("no embedded report data");
  return JSON.parse(match[1] as string);
}

describe("renderHtmlReport", () => {
  it("is one self-contained document that references nothing outside itself", () => {
    const html = renderHtmlReport({ plan: scheduledVillagePlan(), goal: { is_hungry: false }, startState: villageStartState() });
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    // The only URL is the SVG namespace, which is a name, not a request.
    expect(html.match(/https?:\/\/[^\s"')]+/g)?.every((url) => url === "http://www.w3.org/2000/svg")).toBe(true);
    expect(html).not.toMatch(/<link[^>]+href="(?!data:)/);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/@import|url\((?!#)/);
  });

  it("shows every step in the graph, the table and the Gantt chart", () => {
    const p = scheduledVillagePlan();
    const html = renderHtmlReport({ plan: p });
    for (const [i, name] of p.actionNames.entries()) {
      expect(html).toContain(`<text class="node-name" x="`);
      expect(html).toMatch(new RegExp(`<g class="node planned" data-step="${i}"[^>]*>.*?\\[${i}\\] ${name}</text>`, "s"));
      expect(html).toContain(`<code class="action-name">${name}</code>`);
      expect(html).toMatch(new RegExp(`<g class="bar planned" data-step="${i}">`));
    }
    expect(html).toContain("Schedule from constraint refinement");
  });

  it("escapes action names and titles everywhere, including the embedded JSON", () => {
    const evil = new ActionSpec({ name: "<script>alert(1)</script>", effects: { pwned: true } });
    const p = new Plan({ actions: [evil], expectedStates: [{ pwned: true }], totalCost: 1 });
    const html = renderHtmlReport({ plan: p, title: "</title><b>x" });
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<title>&lt;/title&gt;&lt;b&gt;x</title>");
    expect(embeddedData(html).plan).toMatchObject({ actions: ["<script>alert(1)</script>"] });
  });

  it("colours executed steps from the tail of the history and charts the execution", () => {
    const p = villagePlan();
    const html = renderHtmlReport({
      plan: p,
      status: "failed",
      executionHistory: [
        { actionName: "go_to_shelter", success: true, durationMs: 5 },
        { actionName: "go_to_tree", success: true, durationMs: 10 },
        { actionName: "chop_wood", success: false, error: "axe broke", failure: "error", durationMs: 20, attempts: 3 },
      ],
    });
    expect(html).toContain('<g class="node succeeded" data-step="0"');
    expect(html).toContain('<g class="node failed" data-step="1"');
    expect(html).toContain('<g class="node planned" data-step="2"');
    expect(html).toContain("Executed actions with measured durations, end to end");
    expect(html).toContain("error: axe broke");
    expect(html).toContain('<span class="badge bad" id="status">failed</span>');
  });

  it("explains a missing plan", () => {
    const goal = { has_gold: true };
    const explanation = explainNoPlan(villageStartState(), goal, createVillageActions());
    const html = renderHtmlReport({ plan: null, goal, explanation });
    expect(html).toContain('<span class="badge bad" id="status">no_plan</span>');
    expect(html).toContain("No plan was found.");
    expect(html).toContain("<li><code>has_gold = true</code></li>");
    expect(embeddedData(html)).toMatchObject({
      status: "no_plan",
      plan: null,
      explanation: { unreachableConditions: ["has_gold = true"] },
    });
  });

  it("lists planning rounds with replan reasons and the trace timeline", () => {
    const p = villagePlan();
    const html = renderHtmlReport({
      plan: p,
      rounds: [
        { plan: p, reason: null, planningMs: 1 },
        { plan: null, reason: "chop_wood failed", planningMs: 2, failure: "no plan" },
        { plan: p, reason: "world changed", planningMs: 1.5 },
      ],
      events: [
        { atMs: 0, hook: "onPlanStart", summary: "planning" },
        { atMs: 3, hook: "onReplan", summary: "chop_wood failed" },
      ],
    });
    expect(html).toContain("<p>3 planning round(s), 2 replan(s).</p>");
    expect(html).toContain("<td>chop_wood failed</td>");
    expect(html).toContain("no plan: no plan");
    expect(html).toContain('<button type="button" data-hook-filter="onReplan" aria-pressed="true">onReplan (1)</button>');
    expect(embeddedData(html).rounds).toHaveLength(3);
  });

  it("is what visualize(plan, { format: 'html' }) returns", () => {
    const p = villagePlan();
    expect(visualize(p, { format: "html", title: "t" })).toBe(renderHtmlReport({ title: "t", plan: p, startState: villageStartState() }));
  });
});
