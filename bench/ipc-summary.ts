/**
 * The ipc bench's figures per domain and in total, from per-instance results:
 * what each planner solved, whether the costs agree, and ours/FD ratios of
 * expansions, end-to-end time and search time over the instances both
 * solved (medians of the per-instance ratios, and the ratio of the sums).
 * Ours counts only validated plans. Used by the suite (bench/suites/90-ipc.ts)
 * and by the table (bench/ipc-table.ts).
 */
import { median } from "./emit.js";

export interface IpcOurs {
  readonly status: string;
  readonly cost?: number | null;
  readonly validated?: boolean;
  readonly e2eMs?: number;
  readonly searchMs?: number;
  readonly expansions?: number;
}

export interface IpcFd {
  readonly solved: boolean;
  readonly status?: string;
  readonly cost?: number;
  readonly expansions?: number;
  readonly searchMs?: number;
  readonly wallMs?: number;
}

export interface IpcRecord {
  readonly id: string;
  readonly domain: string;
  readonly ours?: IpcOurs | undefined;
  readonly fd?: IpcFd | undefined;
}

export interface IpcFigures {
  readonly instances: number;
  readonly solved: number;
  readonly fdSolved: number;
  readonly bothSolved: number;
  readonly equalCosts: number;
  /** Ours/FD over the instances both solved: median of the per-instance ratios and ratio of the sums (null when none). */
  readonly expansions: Ratio;
  readonly e2e: Ratio;
  readonly search: Ratio;
  readonly fasterE2e: number;
  readonly fasterSearch: number;
  /** Instances FD solved and we did not, with our status. */
  readonly fdOnly: readonly { id: string; status: string }[];
  readonly oursOnly: readonly string[];
}

export interface Ratio {
  readonly median: number | null;
  readonly sum: number | null;
}

/** Milliseconds below 1 count as 1 in ratios (both planners report whole ms). */
const atLeastOne = (ms: number) => Math.max(ms, 1);

export const solvedByUs = (ours: IpcOurs | undefined): boolean => ours?.status === "found" && ours.validated === true;

function ratio(pairs: readonly (readonly [number, number])[]): Ratio {
  if (pairs.length === 0) return { median: null, sum: null };
  const sumOurs = pairs.reduce((s, [a]) => s + a, 0);
  const sumTheirs = pairs.reduce((s, [, b]) => s + b, 0);
  return {
    median: Number(median(pairs.map(([a, b]) => atLeastOne(a) / atLeastOne(b))).toPrecision(3)),
    sum: Number((atLeastOne(sumOurs) / atLeastOne(sumTheirs)).toPrecision(3)),
  };
}

export function figuresOf(records: readonly IpcRecord[]): IpcFigures {
  const both = records.filter((r) => solvedByUs(r.ours) && r.fd?.solved);
  const pairs = (pick: (r: IpcRecord) => [number | undefined, number | undefined]) =>
    both.flatMap((r) => {
      const [a, b] = pick(r);
      return a === undefined || b === undefined ? [] : [[a, b] as const];
    });
  const e2e = pairs((r) => [r.ours?.e2eMs, r.fd?.wallMs]);
  const search = pairs((r) => [r.ours?.searchMs, r.fd?.searchMs]);
  return {
    instances: records.length,
    solved: records.filter((r) => solvedByUs(r.ours)).length,
    fdSolved: records.filter((r) => r.fd?.solved).length,
    bothSolved: both.length,
    equalCosts: both.filter((r) => r.ours?.cost === r.fd?.cost).length,
    expansions: ratio(pairs((r) => [r.ours?.expansions, r.fd?.expansions])),
    e2e: ratio(e2e),
    search: ratio(search),
    fasterE2e: e2e.filter(([a, b]) => a < b).length,
    fasterSearch: search.filter(([a, b]) => atLeastOne(a) < atLeastOne(b)).length,
    fdOnly: records.filter((r) => r.fd?.solved && !solvedByUs(r.ours)).map((r) => ({ id: r.id, status: r.ours?.status ?? "not run" })),
    oursOnly: records.filter((r) => solvedByUs(r.ours) && r.fd && !r.fd.solved).map((r) => r.id),
  };
}

/** Figures per domain (in the order the domains first appear) and over all instances. */
export function summarizeIpc(records: readonly IpcRecord[]): {
  domains: (IpcFigures & { domain: string })[];
  total: IpcFigures & { domains: number };
} {
  const byDomain = new Map<string, IpcRecord[]>();
  for (const record of records) {
    const list = byDomain.get(record.domain) ?? [];
    list.push(record);
    byDomain.set(record.domain, list);
  }
  return {
    domains: [...byDomain].map(([domain, list]) => ({ domain, ...figuresOf(list) })),
    total: { domains: byDomain.size, ...figuresOf(records) },
  };
}
