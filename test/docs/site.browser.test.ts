/**
 * The built documentation site as a person reads it, in headless Chromium:
 * every page loads without a console error or a failed request, every
 * internal link leads to a page and every anchor to an element on it, and
 * the search box finds the API's names. Screenshots of the home page and a
 * concept page go to .tmp/docs-screenshots (or LANGGOAP_SCREENSHOTS_DIR).
 * Needs `npm run docs` first (CI builds the site before the tests).
 */
import { createReadStream, existsSync, mkdirSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_FLAGS, requireBrowser, requireDocsSite } from "../support/requirements.js";

const ROOT = resolve(import.meta.dirname, "../..");
const SUITE = "documentation site in Chromium";
const chromiumHere = requireBrowser(SUITE);
const site = chromiumHere.available ? requireDocsSite(SUITE, ROOT) : { available: false, dir: "" };
const SHOTS = process.env.LANGGOAP_SCREENSHOTS_DIR || join(ROOT, ".tmp", "docs-screenshots");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
};

/** A static server for the built site, as a host would serve it: `/a/b` and `/a/b.html` are the same page. */
function serve(dir: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    const base = normalize(join(dir, path));
    if (!base.startsWith(dir)) {
      response.writeHead(403).end();
      return;
    }
    const file = [base, `${base}.html`, join(base, "index.html")].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    );
    if (!file) {
      response.writeHead(404, { "content-type": TYPES[".html"] });
      createReadStream(join(dir, "404.html")).pipe(response);
      return;
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(response);
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

/** A page's path without its `.html`, so `/a/b.html` and `/a/b` are one page. */
function pageKey(url: URL): string {
  const path = url.pathname.replace(/\.html$/, "").replace(/\/index$/, "/");
  return path === "" ? "/" : path;
}

interface Visited {
  readonly ids: ReadonlySet<string>;
  readonly links: readonly string[];
  readonly problems: readonly string[];
}

describe.runIf(chromiumHere.available && site.available)(SUITE, () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  const pages = new Map<string, Visited>();

  async function visit(page: Page, url: URL): Promise<Visited> {
    const problems: string[] = [];
    const onConsole = (message: { type(): string; text(): string }) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()}`);
    };
    const onPageError = (error: Error) => problems.push(`page error: ${error.message}`);
    const onResponse = (response: { url(): string; status(): number }) => {
      if (response.url().startsWith(origin) && response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
    };
    page.on("console", onConsole);
    page.on("pageerror", onPageError);
    page.on("response", onResponse);
    try {
      const response = await page.goto(url.href, { waitUntil: "load" });
      if (response?.status() !== 200) problems.push(`HTTP ${response?.status()} for the page itself`);
      // VitePress hydrates after load; its content is in the SSR output, so wait for the app to mount.
      await page.waitForSelector("#app .VPContent", { timeout: 30_000 });
      const ids = await page.locator("[id]").evaluateAll((elements) => elements.map((element) => element.id));
      const links = await page
        .locator("a[href]")
        .evaluateAll((anchors) => anchors.map((anchor) => (anchor as unknown as { href: string }).href));
      return { ids: new Set(ids), links, problems };
    } finally {
      page.off("console", onConsole);
      page.off("pageerror", onPageError);
      page.off("response", onResponse);
    }
  }

  beforeAll(async () => {
    server = await serve(site.dir);
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: chromiumHere.executablePath, args: [...CHROMIUM_FLAGS] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Every page reachable from the home page by following links.
    const queue: URL[] = [new URL("/", origin)];
    while (queue.length > 0) {
      const url = queue.shift() as URL;
      const key = pageKey(url);
      if (pages.has(key)) continue;
      const visited = await visit(page, url);
      pages.set(key, visited);
      for (const href of visited.links) {
        const target = new URL(href);
        if (target.origin === origin && !pages.has(pageKey(target))) queue.push(target);
      }
    }
    await page.close();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => server?.close(done));
  });

  it("reaches every page of the site from the home page", () => {
    const keys = [...pages.keys()];
    process.stdout.write(`[docs site] ${keys.length} pages visited\n`);
    for (const expected of ["/", "/guide/quick-start", "/concepts/planner", "/how-to/pddl", "/benchmarks", "/api/", "/api/planner"]) {
      expect(keys).toContain(expected);
    }
  });

  it("loads every page without a console error or a failed request", () => {
    const problems = [...pages].flatMap(([key, visited]) => visited.problems.map((problem) => `${key}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it("has no broken internal link or anchor", () => {
    const broken: string[] = [];
    for (const [from, visited] of pages) {
      for (const href of visited.links) {
        const target = new URL(href);
        if (target.origin !== origin) continue;
        const page = pages.get(pageKey(target));
        if (!page || page.problems.some((problem) => problem.includes("for the page itself"))) {
          broken.push(`${from} -> ${target.pathname} (no such page)`);
        } else if (target.hash && !page.ids.has(decodeURIComponent(target.hash.slice(1)))) {
          broken.push(`${from} -> ${target.pathname}${target.hash} (no such anchor)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("finds loadPddl and createGoapChatAgent with the search box", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      for (const name of ["loadPddl", "createGoapChatAgent"]) {
        await page.goto(`${origin}/`, { waitUntil: "load" });
        await page.waitForSelector("#app .VPContent");
        await page.click(".VPNavBarSearch button");
        const input = page.locator("#localsearch-input");
        await input.fill(name);
        const results = page.locator(".VPLocalSearchBox .results li");
        await results.first().waitFor({ timeout: 30_000 });
        await expect
          .poll(async () => (await results.allTextContents()).some((text) => text.includes(name)), { timeout: 30_000 })
          .toBe(true);
        // The first hit opens a page that mentions the name.
        await results.first().click();
        await expect.poll(async () => (await page.locator(".VPDoc").first().textContent())?.includes(name), { timeout: 30_000 }).toBe(true);
      }
    } finally {
      await page.close();
    }
  }, 120_000);

  it("looks right: screenshots of the home page and a concept page", async () => {
    mkdirSync(SHOTS, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      for (const [path, file] of [
        ["/", "home.png"],
        ["/concepts/graph", "concept-graph.png"],
      ] as const) {
        await page.goto(`${origin}${path}`, { waitUntil: "load" });
        await page.waitForSelector("#app .VPContent");
        await page.waitForLoadState("networkidle");
        await page.screenshot({ path: join(SHOTS, file), fullPage: path !== "/" });
        const heading = await page.locator("h1").first().textContent();
        expect(heading?.trim().length ?? 0).toBeGreaterThan(0);
      }
    } finally {
      await page.close();
    }
  }, 120_000);
});
