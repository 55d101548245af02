/**
 * HTML reports of hostile runs, opened in headless Chromium: markup in any
 * field is shown as text and never runs, control and bidi characters are
 * visible escapes, and history records of the wrong shape are refused
 * before anything is drawn.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { type ReportActionResult, type RunReport, renderHtmlReport } from "../../src/viz/index.js";
import { requireBrowser } from "../support/requirements.js";
import { launchChromium, openPage } from "./chromium.js";
import { hostilePlan, unsafeChars } from "./hostile.js";

const chromiumHere = requireBrowser("HTML report injection in Chromium");

/** Markup that runs script if it ever reaches the page as markup, then terminal and bidi characters. */
const PAYLOAD =
  '</script><script>window.__pwned="script";alert(1)</script><img src=x onerror="window.__pwned=\'img\';alert(2)">' +
  "<svg onload=\"window.__pwned='svg'\"></svg>\"'&amp; \u001b[2J\u009b31m\u202eexe.gnp";
/** How the page shows it: the same text, with the control and bidi characters as visible escapes. */
const SHOWN = PAYLOAD.replace("\u001b", "\\u001b").replace("\u009b", "\\u009b").replace("\u202e", "\\u202e");

let browser: Browser;
let dir: string;

beforeAll(async () => {
  if (!chromiumHere.available) return;
  browser = await launchChromium(chromiumHere);
  dir = mkdtempSync(join(tmpdir(), "langgoap-injection-"));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Opened {
  readonly page: Page;
  readonly dialogs: string[];
}

let pages = 0;

/** Opens an HTML page from a file, recording every dialog (an `alert` means a script ran). */
async function openHtml(html: string): Promise<Opened> {
  const file = join(dir, `page-${++pages}.html`);
  writeFileSync(file, html);
  const page = await openPage(browser);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  return { page, dialogs };
}

/** What ran and what is on the page: the flag hostile script sets, script elements, elements with event handlers. */
function inspect(page: Page): Promise<{ pwned: unknown; scripts: number; handlers: string[]; images: number; text: string }> {
  return page.evaluate(() => {
    interface Element {
      readonly tagName: string;
      getAttributeNames(): string[];
    }
    const doc = (
      globalThis as unknown as {
        document: { querySelectorAll(s: string): ArrayLike<Element>; body: { textContent: string } };
        __pwned?: unknown;
      }
    ).document;
    const all = Array.from(doc.querySelectorAll("*"));
    return {
      pwned: (globalThis as unknown as { __pwned?: unknown }).__pwned ?? null,
      scripts: doc.querySelectorAll("script").length,
      handlers: all.flatMap((el) =>
        el
          .getAttributeNames()
          .filter((a) => a.startsWith("on"))
          .map((a) => `${el.tagName}[${a}]`),
      ),
      images: doc.querySelectorAll("img").length,
      text: doc.body.textContent,
    };
  });
}

/** A report with the payload in every string field a run can fill from data. */
function hostileReport(): RunReport {
  const history: ReportActionResult[] = [
    { actionName: PAYLOAD, success: false, error: PAYLOAD, failure: PAYLOAD, attempts: 2, durationMs: 5 },
    { actionName: "click", success: true, attempts: 1, durationMs: 1 },
  ];
  return {
    title: PAYLOAD,
    status: PAYLOAD,
    goal: { [PAYLOAD]: PAYLOAD },
    startState: { [PAYLOAD]: PAYLOAD },
    finalState: { note: PAYLOAD },
    plan: hostilePlan(),
    executionHistory: history,
    replanCount: 1,
    rounds: [
      { plan: null, reason: null, planningMs: 1, failure: PAYLOAD },
      { plan: hostilePlan(), reason: PAYLOAD, planningMs: 2 },
    ],
    events: [{ atMs: 0, hook: PAYLOAD, summary: PAYLOAD }],
    explanation: { suggestion: PAYLOAD, unreachableConditions: [PAYLOAD], missingPreconditions: [PAYLOAD], unusableActions: [PAYLOAD] },
  };
}

describe.runIf(chromiumHere.available)("HTML report injection in Chromium", () => {
  it("shows markup from every field as text: no script runs, no element or handler is injected", async () => {
    const { page, dialogs } = await openHtml(renderHtmlReport(hostileReport()));
    const seen = await inspect(page);
    expect(dialogs).toEqual([]);
    expect(seen.pwned).toBeNull();
    expect(seen.scripts).toBe(2); // the report's data and its own script
    expect(seen.handlers).toEqual([]);
    expect(seen.images).toBe(0);
    expect(await page.title()).toBe(SHOWN);
    expect(await page.locator("#status").textContent()).toBe(SHOWN);
    expect(seen.text).toContain(SHOWN);
    expect(unsafeChars(seen.text)).toEqual([]);
    // The page's own script still works on hostile hook names (a quote in one does not break its selector).
    await page.locator("button[data-hook-filter]").click();
    expect(await page.locator("tr[data-hook]").isVisible()).toBe(false);
    await page.close();
  });

  it("escapes attempts and replanCount even if a record of the wrong shape reached the history table", async () => {
    // The sections are drawn from validated reports; this checks the second line of defence on its own.
    const { historySection, roundsSection } = await import("../../src/viz/html/report-sections.js");
    const record = { actionName: "chop", success: true, attempts: PAYLOAD as unknown as number };
    const body = historySection([record]) + roundsSection([], PAYLOAD as unknown as number);
    const { page, dialogs } = await openHtml(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`);
    const seen = await inspect(page);
    expect(dialogs).toEqual([]);
    expect(seen.pwned).toBeNull();
    expect(seen.scripts).toBe(0);
    expect(seen.handlers).toEqual([]);
    expect(seen.text).toContain(`${SHOWN} replan(s).`);
    await page.close();
  });

  it("refuses history records whose attempts or replanCount is markup, naming the field", async () => {
    const bad: [string, RunReport][] = [
      [
        "report.executionHistory[0].attempts",
        { plan: null, executionHistory: [{ actionName: "chop", success: true, attempts: PAYLOAD as unknown as number }] },
      ],
      ["report.replanCount", { plan: null, replanCount: PAYLOAD as unknown as number }],
    ];
    for (const [field, report] of bad) {
      let html: string | undefined;
      let error: unknown;
      try {
        html = renderHtmlReport(report);
      } catch (e) {
        error = e;
      }
      if (html !== undefined) {
        // Say what the page would have done with it.
        const { page, dialogs } = await openHtml(html);
        const seen = await inspect(page);
        await page.close();
        expect.fail(`${field}: rendered instead of refused; script ran: ${JSON.stringify({ dialogs, pwned: seen.pwned })}`);
      }
      expect(error).toBeInstanceOf(LangGoapError);
      expect((error as LangGoapError).code).toBe("INVALID_OPTION");
      expect((error as LangGoapError).message).toMatch(
        new RegExp(`^renderHtmlReport: ${field.replace(/[.[\]]/g, "\\$&")} must be a non-negative integer, got "`),
      );
      expect(unsafeChars((error as LangGoapError).message)).toEqual([]);
    }
  });
});
