/**
 * IPC benchmarks: the optimal search (default heuristic) on the first 10
 * instances of gripper, blocks, logistics00, miconic, depot and
 * elevators-opt08-strips (bench/ipc, from the downward-benchmarks
 * collection), each instance in its own process with a 30 s search budget
 * and a 3 GB heap. One JSON line per instance (status, cost, whether the
 * plan was validated both on the grounded task and by the lifted PDDL
 * checker, expansions, search and grounding ms, peak RSS), then one line per
 * domain with the number solved. Fast Downward's figures, when
 * BENCH_FD_RESULTS names a JSON file of them (bench/ipc/README.md), are
 * printed beside ours.
 * Filters: BENCH_IPC_DOMAINS=gripper,blocks; BENCH_IPC_BUDGET_MS=30000.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { emit } from "../emit.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const IPC = join(here, "..", "ipc");
const CHILD = join(here, "..", "children", "ipc-instance.ts");
const DOMAINS = (process.env.BENCH_IPC_DOMAINS ?? "gripper,blocks,logistics00,miconic,depot,elevators-opt08-strips").split(",");
const BUDGET_MS = Number(process.env.BENCH_IPC_BUDGET_MS ?? 30_000);

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
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    let solved = 0;
    let fdSolved = 0;
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
      const anchor = fd[id];
      if (anchor?.solved) fdSolved++;
      emit({ suite: "ipc", instance: id, ...record, ...(anchor ? { fd: anchor } : {}) });
    }
    emit({ suite: "ipc", domain, instances: problems.length, solved, ...(Object.keys(fd).length ? { fdSolved } : {}) });
  }
}
