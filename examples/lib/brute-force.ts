/**
 * Exhaustive reference answers for the optimisation examples: small enough
 * instances are solved by trying everything, so the MILP answers can be
 * checked against ground truth.
 */

/** A machine of the cloud-balancing example. */
export interface Computer {
  readonly name: string;
  readonly cpu: number;
  readonly memory: number;
  readonly network: number;
  /** Monthly cost when at least one process runs on it. */
  readonly cost: number;
}

/** A process of the cloud-balancing example. */
export interface Process {
  readonly name: string;
  readonly cpu: number;
  readonly memory: number;
  readonly network: number;
}

/**
 * The cheapest assignment of every process to a computer within CPU,
 * memory and network capacities, by trying all `computers ^ processes`
 * assignments. Returns the cost and one optimal assignment (computer index
 * per process), or `null` when nothing fits.
 */
export function bruteForceCloudBalance(
  computers: readonly Computer[],
  processes: readonly Process[],
): { cost: number; assignment: number[] } | null {
  let best: { cost: number; assignment: number[] } | null = null;
  const assignment = processes.map(() => 0);
  const total = computers.length ** processes.length;
  for (let code = 0; code < total; code++) {
    let rest = code;
    for (let p = 0; p < processes.length; p++) {
      assignment[p] = rest % computers.length;
      rest = Math.floor(rest / computers.length);
    }
    let cost = 0;
    let fits = true;
    for (let c = 0; c < computers.length && fits; c++) {
      const computer = computers[c] as Computer;
      const mine = processes.filter((_, p) => assignment[p] === c);
      if (mine.length === 0) continue;
      cost += computer.cost;
      const sum = (field: "cpu" | "memory" | "network") => mine.reduce((s, p) => s + p[field], 0);
      fits = sum("cpu") <= computer.cpu && sum("memory") <= computer.memory && sum("network") <= computer.network;
    }
    if (fits && (best === null || cost < best.cost)) best = { cost, assignment: [...assignment] };
  }
  return best;
}

/** A job of the project-scheduling example: integer duration, predecessors, demand per resource. */
export interface Job {
  readonly duration: number;
  readonly predecessors: readonly number[];
  readonly demands: Readonly<Record<string, number>>;
}

/**
 * The shortest makespan of a resource-constrained project: every
 * precedence-feasible order of the jobs, each job placed at its earliest
 * feasible integer time (the serial schedule generation scheme). Some order
 * always yields an optimal schedule, so the minimum over all orders is the
 * optimum.
 */
export function bruteForceMakespan(jobs: readonly Job[], capacities: Readonly<Record<string, number>>): number {
  const resources = Object.keys(capacities);
  const horizon = jobs.reduce((sum, j) => sum + j.duration, 0) + 1;
  let best = Number.POSITIVE_INFINITY;
  const place = (order: readonly number[]): number => {
    const usage = Object.fromEntries(resources.map((r) => [r, new Array<number>(horizon).fill(0)]));
    const start = jobs.map(() => 0);
    for (const j of order) {
      const job = jobs[j] as Job;
      let t = Math.max(0, ...job.predecessors.map((i) => (start[i] as number) + (jobs[i] as Job).duration));
      const fits = (s: number) =>
        resources.every((r) => {
          for (let u = s; u < s + job.duration; u++) {
            if ((usage[r]?.[u] as number) + (job.demands[r] ?? 0) > (capacities[r] as number)) return false;
          }
          return true;
        });
      while (!fits(t)) t++;
      start[j] = t;
      for (const r of resources)
        for (let u = t; u < t + job.duration; u++) (usage[r] as number[])[u] = (usage[r]?.[u] as number) + (job.demands[r] ?? 0);
    }
    return Math.max(...start.map((s, j) => s + (jobs[j] as Job).duration));
  };
  const order: number[] = [];
  const done = new Set<number>();
  const visit = () => {
    if (order.length === jobs.length) {
      best = Math.min(best, place(order));
      return;
    }
    for (let j = 0; j < jobs.length; j++) {
      if (done.has(j) || !(jobs[j] as Job).predecessors.every((i) => done.has(i))) continue;
      done.add(j);
      order.push(j);
      visit();
      order.pop();
      done.delete(j);
    }
  };
  visit();
  return best;
}
