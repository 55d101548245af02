/**
 * Every ```ts block of README.md and docs/ is a program that compiles
 * against the current API and, unless marked `no-run` with a reason, runs
 * (offline: fake chat models, in-memory savers) and prints what its
 * `output` block says. A snippet that drifts from the API fails here.
 * Markers: test/support/doc-snippets.ts.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DocProgram, docPrograms } from "../support/doc-snippets.js";

const ROOT = resolve(import.meta.dirname, "../..");
const DIR = join(ROOT, ".tmp", "doc-snippets");
const TSCONFIG = join(DIR, "tsconfig.json");
const RUN_TIMEOUT_MS = 120_000;
const SHARDS = 2;

/** `LANGGOAP_DOC_SNIPPETS=docs/concepts` checks only the pages whose path contains it (while writing them). */
const only = process.env.LANGGOAP_DOC_SNIPPETS;
const programs = docPrograms(ROOT).filter((program) => !only || program.blocks[0]?.file.includes(only));
const runnable = programs.filter((program) => program.noRun === undefined);

function writePrograms(): void {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(
    TSCONFIG,
    `${JSON.stringify(
      {
        extends: "../../tsconfig.json",
        compilerOptions: {
          noEmit: true,
          // Snippets import the package by name, as a user's code does; here the name is the source.
          paths: { langgoap: ["../../src/index.ts"], "langgoap/*": ["../../src/*/index.ts"] },
          noUnusedLocals: false,
        },
        include: ["*.ts"],
      },
      null,
      2,
    )}\n`,
  );
  for (const program of programs) writeFileSync(join(DIR, `${program.name}.ts`), program.source);
}

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runCommand(command: string, args: readonly string[], timeoutMs: number): Promise<Finished> {
  return new Promise((done, fail) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
    // No snippet may reach a network service from the test: no tracing, no provider keys.
    for (const key of ["LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGSMITH_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"]) {
      delete env[key];
    }
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms: the program did not end)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** tsc's `file(line,col): error` lines, with each snippet line mapped back to its Markdown file and line. */
function mapDiagnostics(output: string): string[] {
  const byName = new Map(programs.map((program) => [`${program.name}.ts`, program]));
  return output
    .split("\n")
    .filter((line) => /error TS\d+/.test(line))
    .map((line) => {
      const match = /([^/\\\s(]+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
      const program = match ? byName.get(match[1] as string) : undefined;
      if (!match || !program) return line.trim();
      const origin = program.origins[Number(match[2]) - 1] ?? `${program.name}.ts:${match[2]} (generated import line)`;
      return `${origin}:${match[3]} ${match[4]}`;
    });
}

interface SnippetResult {
  readonly file: string;
  readonly ok: boolean;
  readonly output: string;
  readonly error?: string;
  readonly ms: number;
}

/** Runs the runnable programs in SHARDS processes (each loads the library once), in page order within a shard. */
async function runAll(): Promise<Map<string, SnippetResult>> {
  const shards: DocProgram[][] = Array.from({ length: SHARDS }, () => []);
  for (const [index, program] of runnable.entries()) shards[index % SHARDS]?.push(program);
  const finished = await Promise.all(
    shards.map(async (shard, index) => {
      const resultsPath = join(DIR, `results-${index}.json`);
      const done: SnippetResult[] = [];
      // A runner stops after a program that ran past its limit; the next one goes on from there.
      while (done.length < shard.length) {
        const files = shard.slice(done.length).map((program) => join(DIR, `${program.name}.ts`));
        rmSync(resultsPath, { force: true });
        const run = await runCommand(
          join(ROOT, "node_modules", ".bin", "tsx"),
          ["--tsconfig", TSCONFIG, join(ROOT, "test", "support", "doc-snippet-runner.ts"), resultsPath, ...files],
          RUN_TIMEOUT_MS * (files.length + 2),
        );
        const results = existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, "utf8")) as SnippetResult[]) : [];
        if (run.code !== 0 || results.length === 0) throw new Error(`the snippet runner exited ${run.code}:\n${run.stderr}`);
        done.push(...results);
      }
      return done;
    }),
  );
  return new Map(finished.flat().map((result) => [result.file, result]));
}

/** Output as a page shows it: trailing blanks of each line and the last newlines do not count. */
function printed(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trimEnd();
}

function where(program: DocProgram): string {
  return program.blocks.map((block) => `${block.file}:${block.line}`).join(" + ");
}

describe("documentation snippets", () => {
  writePrograms();

  afterAll(() => {
    const blocks = programs.reduce((sum, program) => sum + program.blocks.length, 0);
    process.stdout.write(
      `[doc snippets] ${blocks} code blocks in ${programs.length} programs type-checked; ${runnable.length} programs run, ${programs.length - runnable.length} type-checked only (no-run)\n`,
    );
  });

  it("finds the code blocks of the README and the site", () => {
    expect(programs.length).toBeGreaterThan(0);
    if (!only) expect(programs.some((program) => program.blocks[0]?.file === "README.md")).toBe(true);
  });

  it("type-checks every snippet against the source", { timeout: 300_000 }, async () => {
    const tsc = await runCommand(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", TSCONFIG], 280_000);
    const diagnostics = mapDiagnostics(tsc.stdout + tsc.stderr);
    expect(diagnostics, diagnostics.join("\n")).toEqual([]);
    expect(tsc.code).toBe(0);
  });

  describe("runs", () => {
    let results = new Map<string, SnippetResult>();
    beforeAll(
      async () => {
        results = await runAll();
      },
      RUN_TIMEOUT_MS * (runnable.length + 2),
    );

    for (const program of runnable) {
      it(where(program), () => {
        const result = results.get(join(DIR, `${program.name}.ts`));
        expect(result, "the runner gave no result").toBeDefined();
        expect(result?.error, `${where(program)} failed:\n${result?.error}\n(output so far: ${result?.output})`).toBeUndefined();
        if (program.output !== undefined) expect(printed(result?.output ?? "")).toBe(printed(program.output));
      });
    }
  });
});
