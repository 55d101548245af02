/**
 * Headless Chromium for a suite that {@link requireBrowser} allowed to run.
 * Playwright's own time limits are off (it gives a launch, a navigation or a
 * wait 30 s): the calling test's or hook's time limit is the one bound, so a
 * machine busy enough to start Chromium or paint a page slowly fails no
 * sooner than the test allows, and a test waits on the page's events, never
 * on a second, shorter clock.
 */
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { type BrowserRequirement, CHROMIUM_FLAGS } from "../support/requirements.js";

export function launchChromium(requirement: BrowserRequirement): Promise<Browser> {
  return chromium.launch({ executablePath: requirement.executablePath, args: [...CHROMIUM_FLAGS], timeout: 0 });
}

/** A new page whose navigations and waits have no time limit of their own. */
export async function openPage(browser: Browser, options?: BrowserContextOptions): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(0);
  return page;
}
