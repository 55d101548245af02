/**
 * The package as users get it: `npm pack` of this repository (which builds
 * it first), installed from the tarball into a fresh project with its
 * peers. npm reuses its cache (`--prefer-offline`), so a warm machine
 * installs without the network; a cold one needs the registry.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const ROOT = resolve(import.meta.dirname, "../..");

/** The repository's package.json. */
export interface OwnPackage {
  readonly name: string;
  readonly version: string;
  readonly exports: Record<string, unknown>;
  readonly dependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}

export async function ownPackage(): Promise<OwnPackage> {
  return JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as OwnPackage;
}

/** The environment for child npm and node processes: none of the `npm_*` variables of an `npm test` that started us. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, LANGSMITH_TRACING: "", LANGCHAIN_TRACING_V2: "", NO_COLOR: "1", ...extra };
}

/** Runs a command and returns its output; the error names the command and carries its output. */
export async function sh(
  command: string,
  args: readonly string[],
  cwd: string,
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, [...args], {
      cwd,
      env: cleanEnv(options.env),
      timeout: options.timeoutMs ?? 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string; code?: unknown };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd} (${String(e.code)}):\n${e.stdout ?? ""}\n${e.stderr ?? ""}`, {
      cause: error,
    });
  }
}

/** `npm pack` into a fresh folder; returns the tarball's path. */
export async function packTarball(): Promise<string> {
  const into = await mkdtemp(join(tmpdir(), "langgoap-pack-"));
  const { stdout } = await sh("npm", ["pack", "--pack-destination", into, "--json", "--loglevel=error"], ROOT);
  // prepack's build output precedes the JSON report.
  const report = JSON.parse(stdout.slice(stdout.indexOf("[\n"))) as { filename: string }[];
  return join(into, (report[0] as { filename: string }).filename);
}

/** `npm install` in `dir`, reusing the cache. */
export async function npmInstall(dir: string): Promise<void> {
  await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], dir);
}

/**
 * A fresh ESM project with the tarball and the peers a LangGraph user has
 * (`@langchain/core`, `@langchain/langgraph`, at the versions this repository
 * tests against), plus `@types/node` for type-checking.
 */
export async function installInFreshProject(tarball: string): Promise<string> {
  const own = await ownPackage();
  const dir = await mkdtemp(join(tmpdir(), "langgoap-consumer-"));
  const pick = (name: string) => own.devDependencies[name] as string;
  await writeFile(
    join(dir, "package.json"),
    `${JSON.stringify(
      {
        name: "langgoap-consumer",
        private: true,
        type: "module",
        dependencies: {
          langgoap: `file:${tarball}`,
          "@langchain/core": pick("@langchain/core"),
          "@langchain/langgraph": pick("@langchain/langgraph"),
          "@types/node": pick("@types/node"),
        },
      },
      null,
      2,
    )}\n`,
  );
  await npmInstall(dir);
  return dir;
}
