/**
 * Headless Chromium for the injection tests. Without Chromium they skip
 * with one printed line, unless LANGGOAP_REQUIRE_BROWSER=1 (CI), where a
 * missing browser fails the run.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** True when Chromium is here; otherwise says what is skipped, or throws when the browser is required. */
export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.LANGGOAP_REQUIRE_BROWSER === "1") {
    throw new Error(`${CHROMIUM} is missing and LANGGOAP_REQUIRE_BROWSER=1: ${what} must run (apt-get install -y chromium)`);
  }
  console.log(`skipped: ${what}: needs Chromium at ${CHROMIUM} (install it; LANGGOAP_REQUIRE_BROWSER=1 makes its absence fail)`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}
