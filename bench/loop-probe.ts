/**
 * Watches the event loop while a benchmark child works: `monitorEventLoopDelay`
 * plus a 1 ms timer that records the wall-clock gap between its callbacks and
 * the CPU time the process used in that gap (on a loaded machine a wall-clock
 * gap includes waiting for a core; the CPU gap is the process's own blocking,
 * GC threads included). `stop()` ends the probe and gives the figures.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";

export interface LoopFigures {
  readonly p99DelayMs: number;
  readonly maxDelayMs: number;
  readonly p99GapMs: number;
  readonly maxGapMs: number;
  readonly p99CpuGapMs: number;
  readonly maxCpuGapMs: number;
}

export const round = (v: number): number => Number(v.toFixed(1));

const p99 = (sorted: readonly number[]) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0);

export function startLoopProbe(): { stop(): LoopFigures } {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const gaps: number[] = [];
  const cpuGaps: number[] = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    const cpu = process.cpuUsage(lastCpu);
    cpuGaps.push((cpu.user + cpu.system) / 1000);
    lastCpu = process.cpuUsage();
  }, 1);
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      clearInterval(timer);
      gaps.sort((a, b) => a - b);
      cpuGaps.sort((a, b) => a - b);
      return {
        p99DelayMs: round(histogram.percentile(99) / 1e6),
        maxDelayMs: round(histogram.max / 1e6),
        p99GapMs: p99(gaps),
        maxGapMs: round(gaps[gaps.length - 1] ?? 0),
        p99CpuGapMs: p99(cpuGaps),
        maxCpuGapMs: round(cpuGaps[cpuGaps.length - 1] ?? 0),
      };
    },
  };
}
