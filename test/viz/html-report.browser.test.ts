/**
 * Opens generated reports in headless Chromium (Debian's `chromium`, which
 * .ci/run installs): the page must render, show every action of the plan,
 * make no network request and log no console error. Without Chromium the
 * suite skips with one printed line (fails under LANGGOAP_REQUIRE_BROWSER=1).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVillageActions, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { explainNoPlan, Plan } from "../../src/planner/index.js";
import { ReportRecorder, type RunReport, renderHtmlReport } from "../../src/viz/index.js";
import { requireBrowser } from "../support/requirements.js";
import { launchChromium, openPage } from "./chromium.js";
import { scheduledVillagePlan, villagePlan } from "./fixtures.js";

const chromiumHere = requireBrowser("HTML report in Chromium");

let browser: Browser;
let dir: string;

interface Opened {
  page: Page;
  problems: string[];
}

async function open(name: string, report: RunReport): Promise<Opened> {
  const file = join(dir, `${name}.html`);
  writeFileSync(file, renderHtmlReport(report));
  const page = await openPage(browser);
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => {
    if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) problems.push(`network request: ${r.url()}`);
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector("html[data-report-ready=true]");
  return { page, problems };
}

describe.runIf(chromiumHere.available)("HTML report in Chromium", () => {
  beforeAll(async () => {
    browser = await launchChromium(chromiumHere);
    dir = mkdtempSync(join(tmpdir(), "langgoap-report-"));
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("renders a scheduled plan: graph, table and Gantt show every action", async () => {
    const plan = scheduledVillagePlan();
    const { page, problems } = await open("scheduled", {
      title: "Village",
      plan,
      goal: { is_hungry: false },
      startState: villageStartState(),
    });
    expect(await page.title()).toBe("Village");
    for (const [i, name] of plan.actionNames.entries()) {
      const node = page.locator(`svg.plan-graph g.node[data-step="${i}"]`);
      await expect(node.locator("text.node-name").textContent()).resolves.toBe(`[${i}] ${name}`);
      const box = await node.boundingBox();
      expect(box && box.width > 100 && box.height > 30).toBe(true);
      expect(await page.locator(`tr[data-step="${i}"] code.action-name`).isVisible()).toBe(true);
      const bar = await page.locator(`svg.gantt g.bar[data-step="${i}"] rect`).boundingBox();
      expect(bar && bar.width > 10).toBe(true);
    }
    // Bars are laid out by time: campfire (0–1.5s) starts left of chop_wood (1–3s) and ends before cook_food starts.
    const x = async (i: number) => (await page.locator(`svg.gantt g.bar[data-step="${i}"] rect`).boundingBox())!;
    const [campfire, chop, cook] = [await x(2), await x(1), await x(3)];
    expect(campfire.x).toBeLessThan(chop.x);
    expect(campfire.x + campfire.width).toBeLessThan(cook.x);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("links a step across graph, table and Gantt on hover, and filters trace events", async () => {
    const plan = villagePlan();
    const { page, problems } = await open("interactive", {
      plan,
      executionHistory: [{ actionName: "go_to_tree", success: true, durationMs: 3 }],
      events: [
        { atMs: 0, hook: "onPlanStart", summary: "planning" },
        { atMs: 2, hook: "onActionStart", summary: "go_to_tree" },
        { atMs: 5, hook: "onActionComplete", summary: "go_to_tree succeeded" },
      ],
    });
    await page.locator('svg.plan-graph g.node[data-step="3"]').hover();
    expect(await page.locator('svg.gantt g.bar[data-step="3"]').getAttribute("class")).toContain("active");
    expect(await page.locator('tr[data-step="3"]').getAttribute("class")).toContain("highlight");
    expect(await page.locator('tr[data-hook="onActionStart"]').isVisible()).toBe(true);
    await page.locator('button[data-hook-filter="onActionStart"]').click();
    expect(await page.locator('tr[data-hook="onActionStart"]').isVisible()).toBe(false);
    expect(await page.locator('tr[data-hook="onPlanStart"]').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("renders the report of a real graph run that replanned around a failure", async () => {
    const actions = [
      new ActionSpec({ name: "pack", effects: { packed: true } }),
      new ActionSpec({
        name: "courier",
        cost: 2,
        preconditions: { packed: true },
        effects: { delivered: true },
        execute: () => {
          throw new Error("van broke down");
        },
      }),
      new ActionSpec({ name: "drone", cost: 5, preconditions: { packed: true }, effects: { delivered: true } }),
    ];
    const recorder = new ReportRecorder();
    const result = await new GoapGraph(actions, { tracer: recorder, logger: {} }).invoke({ delivered: true }, {});
    expect(result.status).toBe("goal_achieved");
    const { page, problems } = await open(
      "graph-run",
      recorder.toReport({
        plan: recorder.lastPlan,
        status: result.status,
        executionHistory: result.executionHistory,
        replanCount: result.replanCount,
        finalState: result.worldState,
      }),
    );
    expect(await page.locator("#status").textContent()).toBe("goal_achieved");
    expect(await page.locator("svg.plan-graph g.node text.node-name").allTextContents()).toEqual(["[0] drone"]);
    expect(await page.locator("#replans tbody tr").count()).toBe(2);
    expect(await page.locator("#history tbody tr td:nth-child(2)").allTextContents()).toEqual(["pack", "courier", "drone"]);
    expect(await page.locator("#history .outcome-failed").count()).toBe(1);
    expect(await page.locator('tr[data-hook="onReplan"]').count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("renders a run without a plan and an empty plan without errors", async () => {
    const goal = { has_gold: true };
    const noPlan = await open("no-plan", {
      plan: null,
      goal,
      explanation: explainNoPlan(villageStartState(), goal, createVillageActions()),
    });
    expect(await noPlan.page.locator("#explanation li code", { hasText: "has_gold = true" }).first().isVisible()).toBe(true);
    expect(noPlan.problems).toEqual([]);
    await noPlan.page.close();
    const empty = await open("empty", { plan: Plan.empty({ done: true }), status: "found" });
    expect(await empty.page.locator("svg.plan-graph").innerHTML()).toContain("goal already satisfied");
    expect(empty.problems).toEqual([]);
    await empty.page.close();
  });
});
