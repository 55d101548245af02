/**
 * PostgreSQL for tests. When `PG_URL` is set (CI runs `source scripts/pg.sh
 * start` first), tests use that server. Otherwise the test file starts a
 * private throwaway server with scripts/pg.sh in its own data directory,
 * listening on a Unix socket in that directory only (no TCP port that
 * another process could take between choosing and binding it), and stops
 * it afterwards. The server's life
 * is tied to the test process: a detached watchdog (pg-watchdog.sh) stops it
 * (`pg_ctl stop -m immediate`) and removes its directory when the process
 * that started it is gone without stopping it (killed from outside, so no
 * `afterAll` ran). Test files first
 * ask requirePostgres (requirements.ts), which skips them on a machine
 * without PostgreSQL; an installed server that cannot start fails the tests:
 * they never pass without running.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The bit of `pg` used here (the package ships no types and @types/pg is not installed). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
const pg = createRequire(import.meta.url)("pg") as { Client: new (options: { connectionString: string }) => PgClient };
const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface PostgresServer {
  readonly url: string;
  /** True when this process started the server (and `stop` shuts it down). */
  readonly startedHere: boolean;
  /** The process id of the watchdog that stops the server if this process dies first, when started here. */
  readonly watchdogPid?: number;
  /**
   * The Unix socket a server started here listens on (it has no TCP port):
   * what a test's own proxy connects to (`net.createConnection({ path })`).
   */
  readonly socket?: string;
  stop(): Promise<void>;
}

/**
 * Starts the watchdog that stops the server in `env.PGDIR` once `owner` is
 * gone. Detached (its own session, so a signal to the test's process group
 * spares it) and unreferenced (the test process never waits for it); it
 * exits by itself when the directory is removed by a normal stop.
 */
function watchOwner(owner: number, env: NodeJS.ProcessEnv): ChildProcess {
  const watchdog = spawn("bash", [join(REPO, "test", "support", "pg-watchdog.sh"), String(owner)], {
    cwd: REPO,
    env,
    detached: true,
    stdio: "ignore",
  });
  watchdog.unref();
  return watchdog;
}

/**
 * A private server this test may stop and start again (the fleet's outage
 * tests): never the shared `PG_URL` one.
 */
export interface PrivatePostgresServer extends PostgresServer {
  /** Where the server writes its pid while it runs (`postmaster.pid`). */
  readonly pidFile: string;
  /** Stops the server as a crash would (`pg_ctl stop -m immediate`: no checkpoint, every connection cut); resolves once it is down. */
  kill(): Promise<void>;
  /** Starts the stopped server again on the same port and data; resolves once it accepts connections. */
  restart(): Promise<void>;
}

/** The CI server from `PG_URL`, or a private one started now. Call from `beforeAll` (allow ~60 s). */
export async function usePostgres(): Promise<PostgresServer> {
  const given = process.env.PG_URL;
  if (given) return { url: given, startedHere: false, stop: async () => {} };
  return usePrivatePostgres();
}

/**
 * A private server started now, whether or not `PG_URL` is set. Call from `beforeAll` (allow ~60 s).
 * `durableCommits`: a commit is acknowledged only once its WAL is written (`synchronous_commit=on`), so it survives
 * `kill()`. Without it (faster) a crash can lose commits the clients were told about, as PostgreSQL documents for
 * `synchronous_commit=off`: a test that kills the server and counts what survived must ask for it.
 */
export async function usePrivatePostgres(options: { readonly durableCommits?: boolean } = {}): Promise<PrivatePostgresServer> {
  const dir = await mkdtemp(join(tmpdir(), "langgoap-pg-test-"));
  // The port only names the socket file (.s.PGSQL.5432) in the server's own directory.
  const env = {
    ...process.env,
    PGDIR: dir,
    PGPORT: "5432",
    PG_LISTEN: "socket",
    PG_SYNC_COMMIT: options.durableCommits === true ? "on" : "off",
  };
  // Watching before the start: a test killed while the server starts leaves nothing behind either.
  const watchdog = watchOwner(process.pid, env);
  let url: string;
  try {
    const { stdout } = await run("bash", ["-c", 'source scripts/pg.sh start && printf "%s" "$PG_URL"'], {
      cwd: REPO,
      env,
      timeout: 120_000,
    });
    url = stdout.trim();
  } catch (error) {
    watchdog.kill();
    await rm(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: string }).stderr ?? "";
    throw new Error(`PostgreSQL tests need a server: PG_URL is unset and scripts/pg.sh could not start one.\n${stderr}`);
  }
  if (!url.startsWith("postgresql://")) throw new Error(`scripts/pg.sh printed no PG_URL (got ${JSON.stringify(url)})`);
  return {
    url,
    startedHere: true,
    ...(watchdog.pid === undefined ? {} : { watchdogPid: watchdog.pid }),
    socket: join(dir, `.s.PGSQL.${env.PGPORT}`),
    pidFile: join(dir, "data", "postmaster.pid"),
    kill: async () => {
      await run("bash", ["scripts/pg.sh", "stop"], { cwd: REPO, env: { ...env, PG_STOP_MODE: "immediate" }, timeout: 60_000 });
    },
    restart: async () => {
      await run("bash", ["-c", "source scripts/pg.sh start"], { cwd: REPO, env, timeout: 120_000 });
    },
    stop: async () => {
      watchdog.kill();
      // Smart first: the server waits for its clients to leave. A pool that ended has told its connections to close,
      // but they close when the server reads that; a fast stop before it sent them "terminating connection due to
      // administrator command" (57P01), which a closing pg client emits as an error nobody listens to any more (9
      // unhandled errors failed a soak run under load). A client still connected after 20 s (a leak) is cut by the
      // fast stop after it.
      await run("bash", ["scripts/pg.sh", "stop"], {
        cwd: REPO,
        env: { ...env, PG_STOP_MODE: "smart", PG_STOP_WAIT: "20" },
        timeout: 60_000,
      }).catch(() => undefined);
      await run("bash", ["scripts/pg.sh", "stop"], { cwd: REPO, env, timeout: 60_000 }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let schemas = 0;

/**
 * A fresh schema name, so runs sharing one server never see each other's
 * rows: the process, a count within it (two calls in one millisecond differ)
 * and random bits (a recycled pid on a shared server differs).
 */
export function uniqueSchema(prefix: string): string {
  return `${prefix}_${process.pid}_${++schemas}_${randomBytes(4).toString("hex")}`.toLowerCase();
}

/** Drops a schema made by a test. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
