/**
 * Tests that need something besides Node.js: headless Chromium or a
 * PostgreSQL server. A fresh machine has only Node.js and `npm ci && npm test`
 * must pass there, so when the dependency is absent the suite skips and prints
 * one line saying what was skipped and how to enable it. CI (`.ci/run`) sets
 * `LANGGOAP_REQUIRE_BROWSER=1` and `LANGGOAP_REQUIRE_POSTGRES=1`: there an
 * absent dependency fails the run, so nothing is skipped silently.
 *
 * Call at the top of a test file and gate its suites on the answer:
 *
 * @example
 * const browser = requireBrowser("HTML report in Chromium");
 * describe.runIf(browser.available)("HTML report in Chromium", () => { ... });
 */
import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** Where Debian's chromium lives; `LANGGOAP_CHROMIUM` points elsewhere (or hides it). */
export const DEFAULT_CHROMIUM = "/usr/bin/chromium";
/** Where Debian's PostgreSQL packages put their server binaries (scripts/pg.sh looks there too). */
export const DEFAULT_PG_ROOT = "/usr/lib/postgresql";

/** Headless flags for this machine's Chromium: no sandbox (root in a container), no network chatter. */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export interface BrowserRequirement {
  /** True when the suite can run. */
  readonly available: boolean;
  /** The Chromium binary to launch (`executablePath` for playwright-core). */
  readonly executablePath: string;
}

export interface PostgresRequirement {
  readonly available: boolean;
  /** `PG_URL` when set; otherwise the suite starts a private server with scripts/pg.sh (see postgres.ts). */
  readonly url: string | undefined;
}

function isSet(flag: string): boolean {
  const value = process.env[flag];
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The test file that called us, relative to the repository, for the skip line. */
function callerFile(): string {
  const lines = new Error().stack?.split("\n") ?? [];
  for (const line of lines) {
    const match = /(?:file:\/\/)?(\/[^():]+\.test\.ts)/.exec(line);
    if (match?.[1]) return relative(process.cwd(), match[1]);
  }
  return "a test file";
}

/**
 * Skips (one printed line) or, when `requireFlag` is set, throws so the test
 * file fails to load and the run goes red.
 */
function absent(suite: string, missing: string, enable: string, requireFlag: string): void {
  if (isSet(requireFlag)) {
    throw new Error(`${requireFlag}=1 but ${missing}: "${suite}" (${callerFile()}) cannot run. ${enable}.`);
  }
  process.stderr.write(
    `[skipped] ${callerFile()} "${suite}": ${missing}. To run it: ${enable} (${requireFlag}=1 makes absence a failure).\n`,
  );
}

/**
 * Whether headless Chromium is here: `LANGGOAP_CHROMIUM` or /usr/bin/chromium.
 * Absent: skips with one printed line, or throws under `LANGGOAP_REQUIRE_BROWSER=1`.
 */
export function requireBrowser(suite: string): BrowserRequirement {
  const executablePath = process.env.LANGGOAP_CHROMIUM || DEFAULT_CHROMIUM;
  const available = existsSync(executablePath) && isExecutable(executablePath);
  if (!available) {
    absent(
      suite,
      `Chromium is not installed at ${executablePath}`,
      "install it (apt-get install chromium) or set LANGGOAP_CHROMIUM to its path",
      "LANGGOAP_REQUIRE_BROWSER",
    );
  }
  return { available, executablePath };
}

/** The PostgreSQL server binaries scripts/pg.sh would use, if installed. */
function hasPostgresServer(): boolean {
  const root = process.env.LANGGOAP_PG_ROOT || DEFAULT_PG_ROOT;
  try {
    return readdirSync(root).some((version) => isExecutable(join(root, version, "bin", "initdb")));
  } catch {
    return false;
  }
}

/**
 * Whether PostgreSQL is reachable: `PG_URL` is set, or the server is installed
 * so scripts/pg.sh can start a private one. Absent: skips with one printed
 * line, or throws under `LANGGOAP_REQUIRE_POSTGRES=1`.
 */
export function requirePostgres(suite: string): PostgresRequirement {
  const url = process.env.PG_URL || undefined;
  const available = url !== undefined || hasPostgresServer();
  if (!available) {
    absent(
      suite,
      `PG_URL is unset and no PostgreSQL server is installed under ${process.env.LANGGOAP_PG_ROOT || DEFAULT_PG_ROOT}`,
      "install it (apt-get install postgresql) or run `source scripts/pg.sh start` to export PG_URL",
      "LANGGOAP_REQUIRE_POSTGRES",
    );
  }
  return { available, url };
}

/**
 * Whether this machine can start a private PostgreSQL (the server binaries
 * are installed): for tests that stop and restart their own server, which
 * `PG_URL` cannot stand in for. Absent: skips with one printed line, or
 * throws under `LANGGOAP_REQUIRE_POSTGRES=1`.
 */
export function requirePostgresServer(suite: string): PostgresRequirement {
  const available = hasPostgresServer();
  if (!available) {
    absent(
      suite,
      `no PostgreSQL server is installed under ${process.env.LANGGOAP_PG_ROOT || DEFAULT_PG_ROOT} (this test stops and restarts its own server, so PG_URL cannot serve)`,
      "install it (apt-get install postgresql)",
      "LANGGOAP_REQUIRE_POSTGRES",
    );
  }
  return { available, url: undefined };
}

export interface DocsSiteRequirement {
  readonly available: boolean;
  /** The built site's folder (docs/.vitepress/dist). */
  readonly dir: string;
}

/**
 * Whether the documentation site is built (`npm run docs` writes
 * docs/.vitepress/dist; it installs its own toolchain from the registry, so
 * `npm test` does not build it). Absent: skips with one printed line, or
 * throws under `LANGGOAP_REQUIRE_DOCS=1`, which CI sets after building it.
 */
export function requireDocsSite(suite: string, root: string): DocsSiteRequirement {
  const dir = join(root, "docs", ".vitepress", "dist");
  const available = existsSync(join(dir, "index.html"));
  if (!available) {
    absent(suite, `the documentation site is not built (${relative(process.cwd(), dir)})`, "run `npm run docs`", "LANGGOAP_REQUIRE_DOCS");
  }
  return { available, dir };
}
