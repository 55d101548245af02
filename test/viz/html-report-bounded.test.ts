/**
 * The whole HTML report is bounded (issue 23.10): a long run's report was
 * 4.3 / 42.7 / 178.7 MB for 1k / 10k / 50k history rows with 50 KB errors.
 * Lists keep their first and last rows around a marker that counts what
 * was left out; the embedded JSON counts it in `elided`; escaping holds.
 */
import { describe, expect, it } from "vitest";
import type { LangGoapError } from "../../src/core/index.js";
import { Plan } from "../../src/planner/index.js";
import { DEFAULT_MAX_REPORT_BYTES, type ReportActionResult, renderHtmlReport } from "../../src/viz/index.js";
import { villagePlan } from "./fixtures.js";

const ERROR = "E".repeat(50_000);

function embeddedData(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="langgoap-report">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error("no embedded report data");
  return JSON.parse(match[1] as string);
}

function longHistory(rows: number): ReportActionResult[] {
  return Array.from({ length: rows }, (_, i) => ({
    actionName: i === rows - 1 ? "last<script>alert(1)</script>" : `act_${i}`,
    success: i % 2 === 0,
    error: i % 2 === 0 ? null : `${i}: ${ERROR}`,
    attempts: 1,
    durationMs: 5,
  }));
}

const bytes = (html: string) => Buffer.byteLength(html, "utf8");

describe("a size-capped HTML report", () => {
  it("10,000 history rows with 50 KB errors fit the 5 MB default, first and last rows kept around a counted marker", () => {
    expect(DEFAULT_MAX_REPORT_BYTES).toBe(5_000_000);
    const history = longHistory(10_000);
    const html = renderHtmlReport({ plan: villagePlan(), status: "failed", executionHistory: history });
    expect(bytes(html)).toBeLessThanOrEqual(5_000_000);
    expect(bytes(html)).toBeGreaterThan(2_500_000); // the cap is used, not a tiny page
    const marker = /… ([\d,]+) of 10,000 executed actions not shown: the report is size-capped \(maxBytes\) …/.exec(html);
    if (!marker) throw new Error("no marker row");
    const shownCount = marker[1] as string;
    const elided = Number(shownCount.replace(/,/g, ""));
    expect(elided).toBeGreaterThan(0);
    // The first row and the last row are there; the last row's name stays escaped.
    expect(html).toContain("<td>1</td><td><code>act_0</code></td>");
    expect(html).toContain("<td>10000</td><td><code>last&lt;script&gt;alert(1)&lt;/script&gt;</code></td>");
    expect(html).not.toContain("<script>alert(1)");
    const data = embeddedData(html);
    expect(data.elided).toMatchObject({ executionHistory: elided });
    const rows = data.executionHistory as unknown[];
    expect(rows).toHaveLength(10_000 - elided + 1);
    expect(rows[0]).toMatchObject({ actionName: "act_0" });
    expect(rows.at(-1)).toMatchObject({ actionName: "last<script>alert(1)</script>" });
    expect(rows.filter((r) => typeof r === "string")).toEqual([
      `… ${shownCount} of 10,000 executionHistory not shown: the report is size-capped (maxBytes) …`,
    ]);
  });

  it("honours a smaller maxBytes, cutting values shorter when rows alone do not fit", () => {
    const html = renderHtmlReport({ plan: villagePlan(), executionHistory: longHistory(2_000) }, { maxBytes: 64_000 });
    expect(bytes(html)).toBeLessThanOrEqual(64_000);
    expect(html).toMatch(/of 2,000 executed actions not shown/);
    const data = embeddedData(html);
    expect(data.valueChars).toBeLessThan(2_000);
    expect((data.elided as Record<string, number>).executionHistory).toBeGreaterThan(1_900);
  });

  it("cuts every long list: events, rounds' plans, states, and the Gantt bars", () => {
    const events = Array.from({ length: 30_000 }, (_, i) => ({
      atMs: i,
      hook: i % 2 ? "onActionComplete" : "onActionStart",
      summary: `e${i} ${"x".repeat(300)}`,
    }));
    const state = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`fact_${i}`, "v".repeat(100)]));
    const html = renderHtmlReport(
      { plan: villagePlan(), executionHistory: longHistory(3_000), events, startState: state, finalState: state },
      { maxBytes: 1_000_000 },
    );
    expect(bytes(html)).toBeLessThanOrEqual(1_000_000);
    expect(html).toMatch(/of 30,000 events not shown/);
    expect(html).toMatch(/of 30,000 facts not shown/);
    expect(html).toMatch(/of 3,000 bars not shown/);
    // Filter chips count every event of their hook, shown or not.
    expect(html).toContain(">onActionComplete (15000)</button>");
    expect(embeddedData(html).elided).toMatchObject({ events: expect.any(Number), executionHistory: expect.any(Number) });
  });

  it("leaves a report that fits as it was: no marker, no elided counts", () => {
    const html = renderHtmlReport({ plan: villagePlan(), executionHistory: longHistory(50) });
    expect(html).not.toContain("not shown");
    expect(embeddedData(html).elided).toBeUndefined();
    expect(html).toContain("<td>50</td>");
  });

  it("falls back to a summary page when even the smallest budget does not fit", () => {
    const base = villagePlan();
    const bloated = new Plan({
      actions: base.actions,
      expectedStates: base.expectedStates,
      totalCost: base.totalCost,
      metadata: { ...base.metadata, notes: Array.from({ length: 5_000 }, (_, i) => `note ${i} ${"n".repeat(100)}`) } as never,
    });
    const html = renderHtmlReport({ plan: bloated, title: "<b>run</b>", executionHistory: longHistory(100) }, { maxBytes: 64_000 });
    expect(bytes(html)).toBeLessThanOrEqual(64_000);
    expect(html).toContain("only its summary is shown");
    expect(html).toContain("<title>&lt;b&gt;run&lt;/b&gt;</title>");
    expect(embeddedData(html)).toMatchObject({ summaryOnly: true, counts: { "executed actions": 100, "plan steps": base.length } });
  });

  it("refuses a maxBytes too small for the page itself", () => {
    const error = (() => {
      try {
        renderHtmlReport({ plan: villagePlan() }, { maxBytes: 1_000 });
      } catch (e) {
        return e as LangGoapError;
      }
      throw new Error("accepted");
    })();
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toBe("renderHtmlReport: maxBytes must be a number of bytes >= 64000, got 1000");
  });
});
