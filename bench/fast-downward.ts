/**
 * Runs Fast Downward (A* with LM-cut, its standard optimal configuration) on
 * one PDDL instance, for the ipc suite's side-by-side column. Fast Downward
 * is a bench anchor only, never a dependency: BENCH_FD names its driver
 * script (`fast-downward.py` of a release build). Its figures come from its
 * own log: expansions, search time and plan cost from the search component,
 * the translator's total wall-clock time, and the search's peak memory.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FastDownwardResult {
  readonly solved: boolean;
  readonly status: string;
  readonly cost?: number;
  readonly expansions?: number;
  readonly searchMs?: number;
  readonly translateMs?: number;
  readonly wallMs: number;
  readonly peakMemMb?: number;
}

function numberAfter(log: string, pattern: RegExp): number | undefined {
  const matches = [...log.matchAll(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`))];
  const last = matches.at(-1);
  return last ? Number(last[1]) : undefined;
}

/** Reads the figures out of a Fast Downward log (driver, translator and search output). */
export function parseFastDownwardLog(log: string): Omit<FastDownwardResult, "wallMs"> {
  const solved = /^Solution found\.$/m.test(log);
  const searchSeconds = numberAfter(log, /\] Search time: ([\d.]+)s/);
  const translateSeconds = numberAfter(log, /^Done! \[[\d.]+s CPU, ([\d.]+)s wall-clock\]/m);
  const peakKb = numberAfter(log, /^Peak memory: (\d+) KB/m);
  // Fast Downward's exit codes: 11 proves no plan, 22-24 out of memory
  // and/or time; a translator killed by the time limit reports -9 or -24.
  const searchExit = numberAfter(log, /search exit code: (-?\d+)/);
  const translateExit = numberAfter(log, /translate exit code: (-?\d+)/);
  const status = solved
    ? "found"
    : searchExit === 11 || translateExit === 10
      ? "no_plan"
      : searchExit === 23 || searchExit === 24 || (translateExit !== undefined && translateExit < 0)
        ? "budget_exhausted"
        : searchExit === 22
          ? "out_of_memory"
          : `unsolved (exit ${searchExit ?? translateExit ?? "?"})`;
  return {
    solved,
    status,
    ...(solved ? { cost: numberAfter(log, /\] Plan cost: (\d+)/) } : {}),
    ...(solved ? { expansions: numberAfter(log, /\] Expanded (\d+) state\(s\)\./) } : {}),
    ...(searchSeconds !== undefined ? { searchMs: Math.round(searchSeconds * 1000) } : {}),
    ...(translateSeconds !== undefined ? { translateMs: Math.round(translateSeconds * 1000) } : {}),
    ...(peakKb !== undefined ? { peakMemMb: Math.round(peakKb / 1024) } : {}),
  };
}

/**
 * Runs Fast Downward's driver on one instance under an overall time limit and
 * 3 GB. Its driver enforces the limit as CPU time of each component, so on a
 * loaded machine its wall time can run well past the limit; the kill here is
 * only a last resort against a hung process (twenty times the limit).
 */
export function runFastDownward(driver: string, domainFile: string, problemFile: string, budgetMs: number): Promise<FastDownwardResult> {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-fd-"));
  const seconds = Math.max(1, Math.ceil(budgetMs / 1000));
  const args = [
    driver,
    "--overall-time-limit",
    `${seconds}s`,
    "--overall-memory-limit",
    "3G",
    "--plan-file",
    join(dir, "plan"),
    domainFile,
    problemFile,
    "--search",
    "astar(lmcut())",
  ];
  const started = performance.now();
  return new Promise((resolve) => {
    execFile("python3", args, { cwd: dir, maxBuffer: 64 << 20, timeout: budgetMs * 20 + 60_000 }, (error, stdout, stderr) => {
      const wallMs = Math.round(performance.now() - started);
      rmSync(dir, { recursive: true, force: true });
      const parsed = parseFastDownwardLog(`${stdout}\n${stderr}`);
      const killed = (error as { killed?: boolean } | null)?.killed === true;
      resolve({ ...parsed, ...(killed ? { status: "budget_exhausted" } : {}), wallMs });
    });
  });
}
