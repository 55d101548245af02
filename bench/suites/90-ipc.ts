/**
 * IPC benchmarks beside Fast Downward: the optimal search (default options)
 * on the IPC optimal STRIPS suite (bench/ipc-instances.ts picks the domains
 * and instances: the 62 domains of bench/ipc/domains.txt under
 * `BENCH_IPC_DIR`, first 10 instances each, `BENCH_IPC_PROBLEMS=all` for all).
 *
 * Each instance runs end to end in a fresh process, as a user runs it: the
 * built command line (`langgoap plan --pddl dom prob --budget 30s
 * --max-states none --stats`, dist/cli/bundle) reads, grounds, compiles and
 * searches under the time limit (`BENCH_IPC_BUDGET_MS`, 30 s) and 3 GB
 * (heap limit, and the process's resident memory watched). The limit is CPU
 * time, as Fast Downward's driver counts its own (`BENCH_IPC_LIMIT=cpu`, the
 * default where /proc exists, else wall: the process's CPU time read from
 * /proc every 250 ms, the process stopped when it passes the limit, the planner's wall-clock budget twenty times longer as
 * a last resort), so a loaded machine slows both planners' clocks alike
 * instead of cutting our search short while FD's goes on; `BENCH_IPC_LIMIT=wall`
 * gives the planner the limit as its own `--budget` (wall clock). End-to-end
 * time is the wall time from spawning it to its exit; `cpuMs` its CPU time. Every plan is validated
 * twice here, by the lifted PDDL plan checker of the tests and by a replay
 * on the grounded actions of a fresh load, and its cost must agree with
 * both.
 *
 * Fast Downward: `BENCH_FD=/path/to/fast-downward.py` runs its A* with LM-cut
 * on each instance right after ours, same limits (bench/fast-downward.ts);
 * its end-to-end time is its driver's wall time, translator included. Or
 * `BENCH_FD_RESULTS=file.json` reads figures of an earlier run (keyed by
 * instance id); `BENCH_FD_SAVE=file.json` writes this run's FD figures there.
 * `BENCH_FD_RESUME=1` with both reuses the stored figures and runs FD only
 * where there are none (an interrupted FD-only run goes on where it
 * stopped). `BENCH_IPC_OURS=0` runs Fast Downward only. `BENCH_IPC_JOBS=N` runs N
 * instances at once (default 1: timings are for one at a time).
 *
 * Output: one JSON line per instance, one per domain, one total line with
 * the machine's load. `npx tsx bench/ipc-table.ts results.jsonl` makes the
 * README table from them.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ActionSpec, toGoalSpec } from "../../src/core/index.js";
import { loadPddl } from "../../src/pddl/index.js";
import { replayPlan } from "../../src/planner/index.js";
import { checkPddlPlan } from "../../test/support/pddl-plan-check.js";
import { emit } from "../emit.js";
import { type FastDownwardResult, runFastDownward } from "../fast-downward.js";
import { type IpcInstance, selectIpcInstances } from "../ipc-instances.js";
import { summarizeIpc } from "../ipc-summary.js";

const here = dirname(fileURLToPath(import.meta.url));
const REPO = join(here, "..", "..");
const CLI = join(REPO, "dist", "cli", "bundle", "langgoap.js");
const BUDGET_MS = Number(process.env.BENCH_IPC_BUDGET_MS ?? 30_000);
const MEMORY_MB = 3072;
const FD_DRIVER = process.env.BENCH_FD;
const RUN_OURS = process.env.BENCH_IPC_OURS !== "0";
const JOBS = Math.max(1, Number(process.env.BENCH_IPC_JOBS ?? 1));
/** Where /proc cannot tell a process's CPU time (not Linux), the limit is the wall clock: never a 20x budget unwatched. */
const HAS_PROC = existsSync("/proc/self/stat");
const LIMIT = process.env.BENCH_IPC_LIMIT ?? (HAS_PROC ? "cpu" : "wall");
if (LIMIT !== "cpu" && LIMIT !== "wall") throw new Error(`BENCH_IPC_LIMIT must be "cpu" or "wall", got ${JSON.stringify(LIMIT)}`);
if (LIMIT === "cpu" && !HAS_PROC)
  throw new Error("BENCH_IPC_LIMIT=cpu reads CPU time from /proc, which this system does not have: use wall");
/** The planner's own (wall-clock) budget: the limit itself, or a last resort when the limit is CPU time. */
const PLANNER_BUDGET_MS = LIMIT === "cpu" ? BUDGET_MS * 20 : BUDGET_MS;
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

type FdFigures = Omit<FastDownwardResult, "wallMs"> & { wallMs?: number };

export interface OursResult {
  status: string;
  cost?: number | null;
  validated?: boolean;
  /** Why validation failed, when it did. */
  invalid?: string;
  e2eMs?: number;
  /** The process's CPU time (user + system, every thread) at its last reading, 250 ms apart. */
  cpuMs?: number;
  startupMs?: number;
  groundingMs?: number;
  /** The planner's whole call (compiling and heuristic set-up included). */
  planMs?: number;
  /** The search loop alone, as Fast Downward's "Search time" counts. */
  searchMs?: number;
  expansions?: number;
  generated?: number;
  facts?: number;
  operators?: number;
  heuristic?: string | null;
  peakRssMb?: number;
}

/** CPU time of a process in ms (user + system, every thread), from /proc (undefined where there is none). */
function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in MB, from /proc (undefined where there is none). */
function residentMb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function runOurs(instance: IpcInstance): Promise<OursResult> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${MEMORY_MB}`,
      CLI,
      "plan",
      "--pddl",
      instance.domainFile,
      instance.problemFile,
      "--budget",
      `${PLANNER_BUDGET_MS}ms`,
      "--max-states",
      "none",
      "--stats",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  let ended: string | undefined;
  let cpuMs: number | undefined;
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-8000);
  });
  // A last resort past the planner's own budget; resident memory watched as Fast Downward's address-space limit would.
  const hardLimit = setTimeout(
    () => {
      ended = "budget_exhausted";
      child.kill("SIGKILL");
    },
    PLANNER_BUDGET_MS * 2 + 30_000,
  );
  const watch = setInterval(() => {
    if (child.pid === undefined || ended) return;
    const mb = residentMb(child.pid);
    cpuMs = cpuMsOf(child.pid) ?? cpuMs;
    if (mb !== undefined && mb > MEMORY_MB) {
      ended = "out_of_memory";
      child.kill("SIGKILL");
    } else if (LIMIT === "cpu" && cpuMs !== undefined && cpuMs >= BUDGET_MS) {
      ended = "budget_exhausted";
      child.kill("SIGKILL");
    }
  }, 250);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const e2eMs = Math.round(performance.now() - started);
      clearTimeout(hardLimit);
      clearInterval(watch);
      const statsText = err
        .split("\n")
        .reverse()
        .find((l) => l.startsWith('{"status"'));
      if (ended || statsText === undefined) {
        const heapOut = /heap out of memory/i.test(err);
        const why = err.trim().split("\n").slice(-2).join(" | ");
        resolve({
          status: ended ?? (heapOut ? "out_of_memory" : `error (exit ${code}): ${why}`),
          e2eMs,
          ...(cpuMs !== undefined ? { cpuMs } : {}),
        });
        return;
      }
      const stats = JSON.parse(statsText) as { status: string; cost: number | null; loadMs: number } & Record<string, unknown>;
      const result: OursResult = {
        status: stats.status,
        cost: stats.cost,
        e2eMs,
        ...(cpuMs !== undefined ? { cpuMs } : {}),
        groundingMs: stats.loadMs,
        planMs: stats.planMs as number,
        searchMs: stats.searchMs as number,
        expansions: stats.expansions as number,
        generated: stats.generated as number,
        heuristic: stats.heuristic as string | null,
      };
      if (stats.status === "found") Object.assign(result, validate(instance, out, result));
      resolve(result);
    });
  });
}

/**
 * Both validations of a plan in the IPC's format: the lifted plan checker
 * (as VAL does, independent of our grounding), and a replay on the grounded
 * actions of a fresh load (each step the first applicable grounded action
 * of that name: actions split at grounding share a name and differ only in
 * preconditions, or in effects under exclusive conditions). Costs must agree.
 */
function validate(instance: IpcInstance, ipcPlan: string, ours: OursResult): { validated: boolean; invalid?: string } {
  const domainText = readFileSync(instance.domainFile, "utf8");
  const problemText = readFileSync(instance.problemFile, "utf8");
  const steps = ipcPlan.split("\n").filter((l) => l.startsWith("("));
  const task = loadPddl(domainText, problemText, { domainFile: instance.domainFile, problemFile: instance.problemFile });
  const check = checkPddlPlan(task.domain, task.problem, steps);
  if (!check.valid) return { validated: false, invalid: `lifted check: ${check.problem}` };
  if (check.cost !== ours.cost) return { validated: false, invalid: `cost ${ours.cost}, the lifted check counts ${check.cost}` };
  const byText = new Map<string, ActionSpec[]>();
  for (const action of task.actions) {
    const text = String(action.metadata?.pddl);
    byText.set(text, [...(byText.get(text) ?? []), action]);
  }
  const goal = toGoalSpec(task.goal);
  const chosen: ActionSpec[] = [];
  for (const step of steps) {
    const text = step.trim().toLowerCase().replace(/\s+/g, " ");
    const next = (byText.get(text) ?? []).find((action) => replayPlan(task.state, [...chosen, action]).valid);
    if (next === undefined) return { validated: false, invalid: `grounded replay: ${step} is no applicable grounded action` };
    chosen.push(next);
  }
  const replay = replayPlan(task.state, chosen, goal);
  if (!replay.reachesGoal) return { validated: false, invalid: "grounded replay: the goal does not hold at the end" };
  if (replay.totalCost !== ours.cost)
    return { validated: false, invalid: `grounded replay costs ${replay.totalCost}, the plan says ${ours.cost}` };
  return { validated: true };
}

function storedFd(): Record<string, FdFigures> {
  const file = process.env.BENCH_FD_RESULTS;
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, FdFigures>) : {};
}

async function runInstance(instance: IpcInstance, stored: Record<string, FdFigures>) {
  const ours = RUN_OURS ? await runOurs(instance) : undefined;
  const reuse = process.env.BENCH_FD_RESUME === "1" ? stored[instance.id] : undefined;
  const fd =
    FD_DRIVER && reuse === undefined
      ? await runFastDownward(FD_DRIVER, instance.domainFile, instance.problemFile, BUDGET_MS)
      : (reuse ?? stored[instance.id]);
  const record = { suite: "ipc", instance: instance.id, ...(ours ?? {}), ...(fd ? { fd } : {}) };
  emit(record);
  return { instance, ours, fd };
}

export default async function ipcBench(): Promise<void> {
  const selection = selectIpcInstances();
  if (RUN_OURS && process.env.BENCH_IPC_NO_BUILD !== "1") {
    process.stderr.write("# ipc: building dist/ (BENCH_IPC_NO_BUILD=1 skips)\n");
    await new Promise<void>((resolve, reject) => {
      const build = spawn("npm", ["run", "build", "--silent"], { cwd: REPO, stdio: "inherit" });
      build.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`npm run build exited ${code}`))));
    });
  }
  for (const domain of selection.missingDomains) emit({ suite: "ipc", domain, missing: `no folder ${join(selection.root, domain)}` });
  for (const id of selection.missingDomainFiles)
    emit({ suite: "ipc", instance: id, missing: "its domain file is not in the collection's snapshot" });
  const loadBefore = loadavg();
  const stored = storedFd();
  // Results kept in the selection's order whatever order parallel jobs finish in.
  const results: Awaited<ReturnType<typeof runInstance>>[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < selection.instances.length; index = next++) {
      results[index] = await runInstance(selection.instances[index] as IpcInstance, stored);
    }
  };
  await Promise.all(Array.from({ length: JOBS }, worker));
  if (process.env.BENCH_FD_SAVE) {
    const saved: Record<string, FdFigures> = { ...stored };
    for (const { instance, fd } of results) if (fd) saved[instance.id] = fd;
    writeFileSync(process.env.BENCH_FD_SAVE, `${JSON.stringify(saved, null, 1)}\n`);
  }
  const summary = summarizeIpc(results.map(({ instance, ours, fd }) => ({ id: instance.id, domain: instance.domain, ours, fd })));
  for (const row of summary.domains) emit({ suite: "ipc", ...row });
  emit({
    suite: "ipc",
    total: summary.total,
    loadavg: { before: loadBefore, after: loadavg() },
    jobs: JOBS,
    budgetMs: BUDGET_MS,
    limit: LIMIT,
  });
}
