/**
 * A test's private PostgreSQL cannot outlive the test process (issue 23):
 * a process killed from outside runs no afterAll, and its server used to
 * run on. The watchdog started with the server stops it.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BundledScript, bundleScript } from "./bundled-script.js";
import { requirePostgres } from "./requirements.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const pg = createRequire(import.meta.url)("pg") as {
  Client: new (options: {
    connectionString: string;
    connectionTimeoutMillis?: number;
  }) => {
    connect(): Promise<void>;
    query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>;
    end(): Promise<void>;
  };
};

const postgresHere = requirePostgres("PostgreSQL test server watchdog");

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Resolves once `done()` holds. What it waits for happens in processes that
 * are not this one's children (the detached watchdog, the server it stops),
 * so there is no event to wait on: it looks every 100 ms, with no deadline
 * of its own (the test's time limit bounds it; a busy disk may take long to
 * remove a data directory).
 */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe.runIf(postgresHere.available)("private PostgreSQL for tests", () => {
  // The owner bundled once and run by plain node: through tsx the process first spent seconds compiling the sources.
  let ownerScript: BundledScript | undefined;
  beforeAll(async () => {
    ownerScript = await bundleScript("test/support/postgres-owner.ts");
  });
  afterAll(() => ownerScript?.remove());

  it("is stopped and removed when the process that started it is killed with SIGKILL", async () => {
    const env = { ...process.env };
    delete env.PG_URL;
    const owner = spawn(process.execPath, [(ownerScript as BundledScript).file], {
      cwd: REPO,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: owner.stdout }).once("line", resolve);
      owner.once("exit", (code) => reject(new Error(`the owner exited (${code}) before starting PostgreSQL`)));
    });
    const started = JSON.parse(line) as { url: string; watchdogPid?: number };
    // Found through the server itself, so the test needs nothing from the code it checks.
    const client = new pg.Client({ connectionString: started.url });
    await client.connect();
    const data = String((await client.query("SELECT current_setting('data_directory') AS d")).rows[0]?.d);
    await client.end();
    const dir = dirname(data);
    const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    try {
      expect(await answers(started.url)).toBe(true);
      expect(running(postmaster)).toBe(true);

      owner.kill("SIGKILL");
      await until(() => !running(postmaster));
      expect(await answers(started.url)).toBe(false);
      await until(() => !existsSync(dir));
      // The watchdog itself is gone too.
      expect(started.watchdogPid).toBeGreaterThan(0);
      await until(() => !running(started.watchdogPid as number));
    } finally {
      owner.kill("SIGKILL");
      // Without a watchdog (the old code) the server would outlive this test too.
      if (running(postmaster)) process.kill(postmaster, "SIGQUIT");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
