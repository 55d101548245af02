/**
 * Domain loading at scale: a `.json` domain of 100,000 and 1,000,000
 * actions (13.6 MB and 139 MB), each loaded in a fresh process
 * (bench/loader-child.ts, with --expose-gc) so its heap figures are its
 * own. Reports wall and CPU time of `loadDomain`, `JSON.parse` alone on the
 * same text in the same process (the floor; `loadOverParse` is the ratio),
 * the heap the loaded domain retains and the peak RSS.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { emit } from "../emit.js";

const run = promisify(execFile);
const CHILD = join(dirname(fileURLToPath(import.meta.url)), "..", "loader-child.ts");
const SIZES = (process.env.BENCH_LOADER_SIZES ?? "100000,1000000").split(",").map(Number);

export default async function loaderBench(): Promise<void> {
  for (const actions of SIZES) {
    try {
      const { stdout } = await run(
        process.execPath,
        ["--expose-gc", "--max-old-space-size=8192", "--import", "tsx", CHILD, String(actions)],
        {
          maxBuffer: 1 << 20,
          timeout: 600_000,
        },
      );
      emit({ suite: "loader", ...(JSON.parse(stdout.trim().split("\n").pop() as string) as Record<string, unknown>) });
    } catch (error) {
      emit({ suite: "loader", actions, status: `error: ${(error as Error).message.split("\n")[0]}` });
    }
  }
}
