/** Prints one benchmark result as a JSON line. */
export function emit(record: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(record)}\n`);
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Times `fn`: warms up, then repeats until `minMs` has passed (at least
 * `minRuns` times) and returns the median milliseconds per run.
 */
export async function timeIt(
  fn: () => unknown,
  options: { warmup?: number; minRuns?: number; minMs?: number; maxRuns?: number } = {},
): Promise<{
  medianMs: number;
  runs: number;
}> {
  const { warmup = 3, minRuns = 5, minMs = 300, maxRuns = 1000 } = options;
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  const began = performance.now();
  while (times.length < maxRuns && (times.length < minRuns || performance.now() - began < minMs)) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return { medianMs: median(times), runs: times.length };
}
