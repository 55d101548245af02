/** Launches headless Chromium for a suite that {@link requireBrowser} allowed to run. */
import { type Browser, chromium } from "playwright-core";
import { type BrowserRequirement, CHROMIUM_FLAGS } from "../support/requirements.js";

export function launchChromium(requirement: BrowserRequirement): Promise<Browser> {
  return chromium.launch({ executablePath: requirement.executablePath, args: [...CHROMIUM_FLAGS] });
}
