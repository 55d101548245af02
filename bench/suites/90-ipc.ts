/**
 * IPC benchmarks: the optimal search (default heuristic) on the first 10
 * instances of gripper, blocks, logistics00, miconic, depot and
 * elevators-opt08-strips (bench/ipc, from the downward-benchmarks
 * collection), each instance in its own process with a 30 s search budget
 * and a 3 GB heap. One JSON line per instance (status, cost, whether the
 * plan was validated both on the grounded task and by the lifted PDDL
 * checker, expansions, search and grounding ms, peak RSS), then one line per
 * domain with the number solved.
 * Fast Downward side by side: BENCH_FD=/path/to/fast-downward.py runs its
 * A* with LM-cut on each instance right after ours, under the same time
 * limit and 3 GB (bench/fast-downward.ts); or BENCH_FD_RESULTS names a JSON
 * file of earlier figures (bench/ipc/README.md). The domain line then adds
 * FD's solved count and the median ratios (ours / FD's) of expansions,
 * search time and grounding time over the instances both solved.
 * Filters: BENCH_IPC_DOMAINS=gripper,blocks; BENCH_IPC_BUDGET_MS=30000;
 * BENCH_IPC_PROBLEMS=3 (the first K instances of each domain).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { emit, median } from "../emit.js";
import { runFastDownward } from "../fast-downward.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const IPC = join(here, "..", "ipc");
const CHILD = join(here, "..", "children", "ipc-instance.ts");
const DOMAINS = (process.env.BENCH_IPC_DOMAINS ?? "gripper,blocks,logistics00,miconic,depot,elevators-opt08-strips").split(",");
const BUDGET_MS = Number(process.env.BENCH_IPC_BUDGET_MS ?? 30_000);
const PROBLEMS = Number(process.env.BENCH_IPC_PROBLEMS ?? 10);
const FD_DRIVER = process.env.BENCH_FD;

type FdResults = Record<string, { solved: boolean; cost?: number; expansions?: number; searchMs?: number; translateMs?: number }>;

function fdResults(): FdResults {
  const file = process.env.BENCH_FD_RESULTS;
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as FdResults) : {};
}

export default async function ipcBench(): Promise<void> {
  const fd = fdResults();
  for (const domain of DOMAINS) {
    const dir = join(IPC, domain);
    const problems = readdirSync(dir)
      .filter((f) => f.endsWith(".pddl") && f !== "domain.pddl")
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
      .slice(0, PROBLEMS);
    let solved = 0;
    let fdSolved = 0;
    const ratios = { expansions: [] as number[], searchMs: [] as number[], groundingMs: [] as number[] };
    for (const problem of problems) {
      const id = `${domain}/${problem}`;
      let record: Record<string, unknown>;
      try {
        const { stdout } = await run(
          process.execPath,
          ["--max-old-space-size=3072", "--import", "tsx", CHILD, join(dir, "domain.pddl"), join(dir, problem), String(BUDGET_MS)],
          { maxBuffer: 1 << 20, timeout: BUDGET_MS + 60_000 },
        );
        record = JSON.parse(stdout.trim().split("\n").pop() as string) as Record<string, unknown>;
      } catch (error) {
        const { killed, stderr } = error as { killed?: boolean; stderr?: string };
        const why = killed ? `killed after ${BUDGET_MS + 60_000} ms` : (stderr ?? "").trim().split("\n").slice(-3).join(" | ");
        record = { status: `error: ${why || (error as Error).message.split("\n")[0]}` };
      }
      if (record.status === "found") solved++;
      const anchor = FD_DRIVER ? await runFastDownward(FD_DRIVER, join(dir, "domain.pddl"), join(dir, problem), BUDGET_MS) : fd[id];
      if (anchor?.solved) fdSolved++;
      if (anchor?.solved && record.status === "found") {
        const ratio = (ours: unknown, theirs: number | undefined) =>
          typeof ours === "number" && theirs !== undefined ? ours / Math.max(theirs, 1) : undefined;
        for (const [key, theirs] of [
          ["expansions", anchor.expansions],
          ["searchMs", anchor.searchMs],
          ["groundingMs", anchor.translateMs],
        ] as const) {
          const value = ratio(record[key], theirs);
          if (value !== undefined) ratios[key].push(value);
        }
      }
      emit({ suite: "ipc", instance: id, ...record, ...(anchor ? { fd: anchor } : {}) });
    }
    const rounded = (values: number[]) => (values.length ? Number(median(values).toPrecision(3)) : null);
    emit({
      suite: "ipc",
      domain,
      instances: problems.length,
      solved,
      ...(FD_DRIVER || Object.keys(fd).length
        ? {
            fdSolved,
            medianRatioVsFd: {
              expansions: rounded(ratios.expansions),
              searchMs: rounded(ratios.searchMs),
              groundingMs: rounded(ratios.groundingMs),
            },
          }
        : {}),
    });
  }
}
