/**
 * @internal Schedule construction without a solver: the serial schedule
 * generation scheme (SGS) for resource-constrained scheduling, and a
 * verifier. The solver path uses the SGS twice: as the warm start / upper
 * bound of the MILP, and to left-justify the solver's answer.
 */
import type { DependencyGraph } from "./dependencies.js";

/** A scheduling instance: tasks in plan order, edges to earlier tasks. */
export interface ScheduleProblem {
  readonly durations: readonly number[];
  readonly predecessors: DependencyGraph;
  /** Demand of each task on each capacitated resource. */
  readonly demands: Readonly<Record<string, readonly number[]>>;
  readonly capacities: Readonly<Record<string, number>>;
}

/** Resources that actually constrain something: positive capacity use by some task. */
export function constrainingResources(problem: ScheduleProblem): string[] {
  return Object.keys(problem.capacities).filter((r) =>
    (problem.demands[r] ?? []).some((u, j) => u > 0 && (problem.durations[j] as number) > 0),
  );
}

/** Usage of `resource` over `[start, start + duration)` by already placed tasks fits with `demand` more. */
function fits(
  problem: ScheduleProblem,
  placed: readonly number[],
  starts: readonly number[],
  resource: string,
  demand: number,
  start: number,
  duration: number,
): boolean {
  const capacity = problem.capacities[resource] as number;
  const demands = problem.demands[resource] as readonly number[];
  const end = start + duration;
  // Usage is piecewise constant; it can only rise at `start` or at a placed task's start inside the window.
  const probes = [start];
  for (const i of placed) {
    const s = starts[i] as number;
    if (s > start && s < end) probes.push(s);
  }
  for (const t of probes) {
    let usage = demand;
    for (const i of placed) {
      const s = starts[i] as number;
      if ((demands[i] as number) > 0 && s <= t && t < s + (problem.durations[i] as number)) usage += demands[i] as number;
    }
    if (usage > capacity + 1e-9) return false;
  }
  return true;
}

/** Places task `j` at the earliest time that respects its predecessors and the capacities. */
function placeEarliest(problem: ScheduleProblem, resources: readonly string[], placed: number[], starts: number[], j: number): void {
  const duration = problem.durations[j] as number;
  let earliest = 0;
  for (const i of problem.predecessors[j] ?? []) earliest = Math.max(earliest, (starts[i] as number) + (problem.durations[i] as number));
  const needs = resources.filter((r) => ((problem.demands[r] as readonly number[])[j] as number) > 0);
  let chosen = earliest;
  if (duration > 0 && needs.length > 0) {
    const candidates = [
      earliest,
      ...placed.map((i) => (starts[i] as number) + (problem.durations[i] as number)).filter((t) => t > earliest),
    ];
    candidates.sort((a, b) => a - b);
    chosen = Number.POSITIVE_INFINITY;
    for (const t of candidates) {
      if (needs.every((r) => fits(problem, placed, starts, r, (problem.demands[r] as readonly number[])[j] as number, t, duration))) {
        chosen = t;
        break;
      }
    }
  }
  starts[j] = chosen;
  placed.push(j);
}

/**
 * The serial SGS: tasks in the given precedence-feasible order, each at
 * its earliest feasible time. Fed the start order of any feasible schedule
 * it returns one where no task starts later (moving earlier tasks left only
 * lowers the usage a later task meets), so it left-justifies solver output
 * without ever lengthening it.
 */
export function serialSchedule(problem: ScheduleProblem, order: readonly number[]): number[] {
  const resources = constrainingResources(problem);
  const starts = problem.durations.map(() => 0);
  const placed: number[] = [];
  for (const j of order) placeEarliest(problem, resources, placed, starts, j);
  return starts;
}

/** Successor lists of a predecessor graph. */
function successorsOf(problem: ScheduleProblem): number[][] {
  const successors: number[][] = problem.durations.map(() => []);
  problem.predecessors.forEach((preds, j) => {
    for (const i of preds) successors[i]?.push(j);
  });
  return successors;
}

/** Serial SGS picking, among tasks whose predecessors are placed, the one with the highest priority (ties: plan order). */
function prioritySchedule(problem: ScheduleProblem, priority: readonly number[]): number[] {
  const n = problem.durations.length;
  const order: number[] = [];
  const done = new Uint8Array(n);
  while (order.length < n) {
    let pick = -1;
    for (let j = 0; j < n; j++) {
      if (done[j] || !(problem.predecessors[j] ?? []).every((i) => done[i])) continue;
      if (pick < 0 || (priority[j] as number) > (priority[pick] as number)) pick = j;
    }
    done[pick] = 1;
    order.push(pick);
  }
  return serialSchedule(problem, order);
}

/**
 * Right-justifies a schedule: the SGS run on the reversed instance (edges
 * flipped, time mirrored) in order of decreasing finish times.
 */
function rightJustify(problem: ScheduleProblem, starts: readonly number[]): number[] {
  const successors = successorsOf(problem);
  const reversed: ScheduleProblem = { ...problem, predecessors: successors };
  const finish = starts.map((s, j) => s + (problem.durations[j] as number));
  const order = finish.map((_, j) => j).sort((a, b) => (finish[b] as number) - (finish[a] as number) || b - a);
  const mirrored = serialSchedule(reversed, order);
  const span = makespanOf(problem, mirrored);
  return mirrored.map((s, j) => span - s - (problem.durations[j] as number));
}

/**
 * A heuristic schedule: the serial SGS under several classic priority rules
 * (longest remaining path, most tasks waiting on it, greatest resource demand),
 * each improved by forward-backward justification (right-justify, then
 * left-justify, while the makespan shrinks); the shortest result wins.
 */
export function heuristicSchedule(problem: ScheduleProblem): number[] {
  const n = problem.durations.length;
  const successors = successorsOf(problem);
  const tail = problem.durations.map(() => 0);
  const descendants: Set<number>[] = problem.durations.map(() => new Set<number>());
  for (let j = n - 1; j >= 0; j--) {
    let longest = 0;
    for (const k of successors[j] ?? []) {
      longest = Math.max(longest, tail[k] as number);
      descendants[j]?.add(k);
      for (const d of descendants[k] ?? []) descendants[j]?.add(d);
    }
    tail[j] = (problem.durations[j] as number) + longest;
  }
  const reach = descendants.map((set) => set.size);
  const load = problem.durations.map((d, j) =>
    Object.keys(problem.capacities).reduce((sum, r) => sum + d * (((problem.demands[r] ?? [])[j] as number) ?? 0), 0),
  );
  let best: number[] | null = null;
  for (const priority of [tail, reach, load]) {
    let current = prioritySchedule(problem, priority);
    for (let pass = 0; pass < 20; pass++) {
      const next = leftJustify(problem, rightJustify(problem, current));
      if (makespanOf(problem, next) >= makespanOf(problem, current)) break;
      current = next;
    }
    if (best === null || makespanOf(problem, current) < makespanOf(problem, best)) best = current;
  }
  return best as number[];
}

/** Left-justifies a feasible schedule: SGS in the order of its start times (ties: plan order). */
export function leftJustify(problem: ScheduleProblem, starts: readonly number[]): number[] {
  const order = starts.map((_, j) => j).sort((a, b) => (starts[a] as number) - (starts[b] as number) || a - b);
  return serialSchedule(problem, order);
}

/** The time the last task ends. */
export function makespanOf(problem: ScheduleProblem, starts: readonly number[]): number {
  return starts.reduce((m, s, j) => Math.max(m, s + (problem.durations[j] as number)), 0);
}

/** Checks precedences and capacities; returns the first problem found, or `null`. */
export function findScheduleViolation(problem: ScheduleProblem, starts: readonly number[]): string | null {
  const eps = 1e-6;
  for (let j = 0; j < starts.length; j++) {
    if (!((starts[j] as number) >= -eps)) return `step ${j} starts at ${starts[j]}`;
    for (const i of problem.predecessors[j] ?? []) {
      if ((starts[j] as number) < (starts[i] as number) + (problem.durations[i] as number) - eps) {
        return `step ${j} starts before its predecessor ${i} ends`;
      }
    }
  }
  for (const r of constrainingResources(problem)) {
    const demands = problem.demands[r] as readonly number[];
    for (let j = 0; j < starts.length; j++) {
      const t = starts[j] as number;
      let usage = 0;
      for (let i = 0; i < starts.length; i++) {
        const s = starts[i] as number;
        if ((demands[i] as number) > 0 && s <= t + eps && t + eps < s + (problem.durations[i] as number)) usage += demands[i] as number;
      }
      if (usage > (problem.capacities[r] as number) + 1e-9)
        return `"${r}" is over its capacity ${problem.capacities[r]} at ${t} (uses ${usage})`;
    }
  }
  return null;
}
