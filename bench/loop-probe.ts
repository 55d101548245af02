/**
 * Watches the event loop while a benchmark child works: `monitorEventLoopDelay`
 * plus a 1 ms timer that records the wall-clock gap between its callbacks and
 * the CPU time the process used in that gap (on a loaded machine a wall-clock
 * gap includes waiting for a core; the CPU gap is the process's own blocking,
 * GC threads included). `stop()` ends the probe and gives the figures.
 */
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** The main thread's own CPU time in ms (Linux: its schedstat), or undefined where it cannot be read. */
function mainThreadMs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

export interface LoopFigures {
  readonly p50DelayMs: number;
  readonly p99DelayMs: number;
  readonly maxDelayMs: number;
  readonly p99GapMs: number;
  readonly maxGapMs: number;
  readonly p99CpuGapMs: number;
  readonly maxCpuGapMs: number;
  /** The main thread's own CPU time between two timer callbacks (Linux only): a pause's length without the wait for a core. */
  readonly p99MainRunMs?: number;
  readonly maxMainRunMs?: number;
}

export const round = (v: number): number => Number(v.toFixed(1));

const p99 = (sorted: readonly number[]) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0);

export function startLoopProbe(): { stop(): LoopFigures } {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const gaps: number[] = [];
  const cpuGaps: number[] = [];
  const mainRuns: number[] = [];
  let lastMain = mainThreadMs();
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    const cpu = process.cpuUsage(lastCpu);
    cpuGaps.push((cpu.user + cpu.system) / 1000);
    lastCpu = process.cpuUsage();
    if (lastMain !== undefined) {
      const main = mainThreadMs() as number;
      mainRuns.push(main - lastMain);
      lastMain = main;
    }
  }, 1);
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      clearInterval(timer);
      gaps.sort((a, b) => a - b);
      cpuGaps.sort((a, b) => a - b);
      mainRuns.sort((a, b) => a - b);
      return {
        p50DelayMs: round(histogram.percentile(50) / 1e6),
        p99DelayMs: round(histogram.percentile(99) / 1e6),
        maxDelayMs: round(histogram.max / 1e6),
        p99GapMs: p99(gaps),
        maxGapMs: round(gaps[gaps.length - 1] ?? 0),
        p99CpuGapMs: p99(cpuGaps),
        maxCpuGapMs: round(cpuGaps[cpuGaps.length - 1] ?? 0),
        ...(mainRuns.length > 0 ? { p99MainRunMs: p99(mainRuns), maxMainRunMs: round(mainRuns[mainRuns.length - 1] as number) } : {}),
      };
    },
  };
}
