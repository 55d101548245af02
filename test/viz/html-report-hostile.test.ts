/**
 * Reports of runs whose data is hostile: huge values are bounded with a
 * marker, records of the wrong shape are refused by path, and nothing from
 * data reaches the page as a control character.
 */
import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { type RunReport, renderHtmlReport } from "../../src/viz/index.js";
import { villagePlan } from "./fixtures.js";
import { hostilePlan, unsafeChars } from "./hostile.js";

const HUGE = "A".repeat(200_000);
const MARKER = "… [198,000 of 200,000 characters cut]";

function embeddedData(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="langgoap-report">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error("no embedded report data");
  return JSON.parse(match[1] as string);
}

function refusal(report: unknown): LangGoapError {
  try {
    renderHtmlReport(report as RunReport);
  } catch (error) {
    if (error instanceof LangGoapError) return error;
    throw error;
  }
  throw new Error("expected renderHtmlReport to refuse the report");
}

describe("renderHtmlReport bounds every value", () => {
  it("cuts 200,000-character values to 2,000 with a marker, on the page and in the embedded data", () => {
    const html = renderHtmlReport({
      title: HUGE,
      plan: villagePlan(),
      startState: { tool_output: HUGE, [HUGE]: 1 },
      finalState: { tool_output: HUGE },
      executionHistory: [{ actionName: "go_to_tree", success: false, error: HUGE, attempts: 1, durationMs: 2 }],
      rounds: [{ plan: null, reason: null, planningMs: 1, failure: HUGE }],
      events: [{ atMs: 0, hook: "onActionComplete", summary: HUGE }],
      explanation: { suggestion: HUGE, unreachableConditions: [HUGE], missingPreconditions: [], unusableActions: [] },
    });
    // Ten huge fields, each at most 2,000 characters and a marker: far below one copy of a value.
    expect(html.length).toBeLessThan(120_000);
    expect(html).not.toContain("A".repeat(2001));
    expect(html).toContain(`${"A".repeat(2000)}${MARKER}`);
    const data = embeddedData(html);
    expect((data.executionHistory as { error: string }[])[0]?.error).toBe(`${"A".repeat(2000)}${MARKER}`);
    expect((data.events as { summary: string }[])[0]?.summary).toBe(`${"A".repeat(2000)}${MARKER}`);
  });

  it("keeps embedded data finite: cycles and deep nesting in plan metadata are marked, not followed", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 100; i++) deep = { deep };
    const plan = villagePlan().with({ metadata: { extra: { cyclic, deep } } as never });
    const metadata = (embeddedData(renderHtmlReport({ plan })).plan as { metadata: { extra: { cyclic: { self: unknown } } } }).metadata;
    expect(metadata.extra.cyclic.self).toBe("[circular]");
    expect(JSON.stringify(metadata)).toContain("[nested deeper than 32 levels: not embedded]");
  });

  it("shows control and bidi characters from names, keys and values as visible escapes", () => {
    const html = renderHtmlReport({
      plan: hostilePlan(),
      startState: { "key\u001b]0;title\u0007": "value\u202e\u009b31m" },
      executionHistory: [{ actionName: "click", success: false, error: "boom\r\u001b[2K fake ok", attempts: 1 }],
    });
    expect(unsafeChars(html)).toEqual([]);
    expect(html).toContain("key\\u001b]0;title\\u0007");
    expect(html).toContain("value\\u202e\\u009b31m");
    expect(html).toContain("boom\\r\\u001b[2K fake ok");
  });
});

describe("renderHtmlReport validates records before drawing them", () => {
  const base = { plan: null };
  const record = { actionName: "chop", success: true, attempts: 1, durationMs: 1 };

  it.each<[string, string, Record<string, unknown>]>([
    ["executionHistory[0].attempts", "a non-negative integer", { executionHistory: [{ ...record, attempts: "<script>" }] }],
    ["executionHistory[0].attempts", "a non-negative integer", { executionHistory: [{ ...record, attempts: -1 }] }],
    ["executionHistory[1].durationMs", "a finite number >= 0", { executionHistory: [record, { ...record, durationMs: "5" }] }],
    ["executionHistory[0].success", "a boolean", { executionHistory: [{ ...record, success: "yes" }] }],
    ["executionHistory[0].actionName", "a string", { executionHistory: [{ ...record, actionName: { toString: (): string => "x" } }] }],
    ["executionHistory[0].error", "a string", { executionHistory: [{ ...record, error: ["<b>"] }] }],
    ["executionHistory[0]", "an object", { executionHistory: ["<script>"] }],
    ["executionHistory", "an array", { executionHistory: "<script>" }],
    ["replanCount", "a non-negative integer", { replanCount: "<img src=x onerror=alert(1)>" }],
    ["droppedEvents", "a non-negative integer", { droppedEvents: "<script>" }],
    ["rounds[0].planningMs", "a finite number >= 0", { rounds: [{ plan: null, reason: null, planningMs: "<i>" }] }],
    ["rounds[0].plan", "a Plan or null", { rounds: [{ plan: { actionNames: ["<script>"] }, reason: null, planningMs: 1 }] }],
    ["events[0].hook", "a string", { events: [{ atMs: 0, hook: 1, summary: "s" }] }],
    [
      "explanation.unreachableConditions",
      "an array of strings",
      { explanation: { suggestion: "s", unreachableConditions: [1], missingPreconditions: [], unusableActions: [] } },
    ],
    ["stats.nodesExpanded", "a finite number", { stats: { nodesExpanded: "<b>", planningTimeMs: 1 } }],
    ["title", "a string", { title: 5 }],
    ["plan", "a Plan or null", { plan: { actions: [] } }],
  ])("refuses report.%s that is not %s", (field, expected, patch) => {
    const error = refusal({ ...base, ...patch });
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.details.field).toBe(`report.${field}`);
    expect(error.message).toMatch(new RegExp(`^renderHtmlReport: report\\.${field.replace(/[.[\]]/g, "\\$&")} must be ${expected}, got `));
  });

  it("bounds and escapes the offending value in its message", () => {
    const error = refusal({ plan: null, replanCount: `\u001b[2J${"x".repeat(10_000)}` });
    expect(error.message.length).toBeLessThan(300);
    expect(error.message).toContain('got "\\u001b[2Jxxx');
    expect(unsafeChars(error.message)).toEqual([]);
  });

  it("accepts the records a graph run produces, extra fields included", () => {
    const html = renderHtmlReport({
      plan: villagePlan(),
      executionHistory: [
        {
          actionName: "go_to_tree",
          success: true,
          error: null,
          failure: null,
          attempts: 1,
          durationMs: 3,
          stateBefore: {},
          stateAfter: {},
        } as never,
      ],
      replanCount: 0,
    });
    expect(html).toContain("<td>go_to_tree</td>".replace("<td>", "<td><code>").replace("</td>", "</code></td>"));
  });
});
