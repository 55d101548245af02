/**
 * @internal The two scheduling formulations.
 *
 * Without capacities the makespan problem is a linear program (start times
 * continuous, one row per precedence): its optimum is the longest path.
 *
 * With capacities it is the RCPSP, modelled time-indexed (Pritsker et al.,
 * 1969): time is cut into slots of `grid` ms, `x[j,t] = 1` when task j starts
 * in slot t, restricted to the window [earliest start, latest start] that
 * precedences and a known schedule of length `horizon` allow. Precedences
 * use the disaggregated form (task j may have started by slot t only if
 * task i started by t − p_i), which has a much tighter LP relaxation than
 * the aggregated one; capacity rows count, for each slot, the demand of the
 * tasks running in it.
 */
import { type LinearExpression, type MilpModel, MilpModelBuilder } from "./model.js";
import { constrainingResources, type ScheduleProblem } from "./schedule-sgs.js";

/** The LP whose optimum is the uncapacitated makespan. Variables `s<j>` and `makespan`. */
export function precedenceModel(problem: ScheduleProblem): MilpModel {
  const b = new MilpModelBuilder();
  const starts = problem.durations.map((_, j) => b.addVariable(`s${j}`));
  const makespan = b.addVariable("makespan");
  problem.predecessors.forEach((preds, j) => {
    for (const i of preds) {
      b.addConstraint(
        `after_${i}_${j}`,
        [
          [starts[j] as number, 1],
          [starts[i] as number, -1],
        ],
        { min: problem.durations[i] as number },
      );
    }
  });
  problem.durations.forEach((d, j) => {
    b.addConstraint(
      `end_${j}`,
      [
        [makespan, 1],
        [starts[j] as number, -1],
      ],
      { min: d },
    );
  });
  b.setObjective("minimize", [[makespan, 1]]);
  return b.build();
}

/** A time-indexed RCPSP instance: durations in slots and each task's start window. */
export interface TimeIndexedInstance {
  /** Duration of each task in slots. */
  readonly slots: readonly number[];
  readonly earliest: readonly number[];
  readonly latest: readonly number[];
  /** Length of a known feasible schedule, in slots. */
  readonly horizon: number;
  /** A lower bound on the makespan, in slots. */
  readonly lowerBound: number;
}

/** Start windows from the precedence graph and a horizon (critical path forwards and backwards). */
export function timeWindows(problem: ScheduleProblem, slots: readonly number[], horizon: number): { earliest: number[]; latest: number[] } {
  const n = slots.length;
  const earliest = slots.map(() => 0);
  for (let j = 0; j < n; j++) {
    for (const i of problem.predecessors[j] ?? [])
      earliest[j] = Math.max(earliest[j] as number, (earliest[i] as number) + (slots[i] as number));
  }
  const tail = [...slots];
  for (let j = n - 1; j >= 0; j--) {
    for (const i of problem.predecessors[j] ?? []) tail[i] = Math.max(tail[i] as number, (slots[i] as number) + (tail[j] as number));
  }
  return { earliest, latest: tail.map((q) => horizon - q) };
}

/** Variable name of "task j starts in slot t". */
export const startVariable = (j: number, t: number): string => `x_${j}_${t}`;

/** Builds the time-indexed MILP. Variables `x_<j>_<t>` and `makespan` (in slots). */
export function timeIndexedModel(problem: ScheduleProblem, instance: TimeIndexedInstance): MilpModel {
  const { slots, earliest, latest, horizon } = instance;
  const n = slots.length;
  const b = new MilpModelBuilder();
  const x: number[][] = [];
  for (let j = 0; j < n; j++) {
    const row: number[] = [];
    for (let t = earliest[j] as number; t <= (latest[j] as number); t++) row.push(b.addBinary(startVariable(j, t)));
    x.push(row);
  }
  const at = (j: number, t: number) => (x[j] as number[])[t - (earliest[j] as number)] as number;
  const makespan = b.addVariable("makespan", { lower: instance.lowerBound, upper: horizon });

  for (let j = 0; j < n; j++) {
    b.addConstraint(
      `once_${j}`,
      (x[j] as number[]).map((v) => [v, 1] as const),
      { min: 1, max: 1 },
    );
  }
  problem.predecessors.forEach((preds, j) => {
    for (const i of preds) {
      const pi = slots[i] as number;
      for (let t = earliest[j] as number; t <= (latest[j] as number); t++) {
        const iCutoff = t - pi; // task i must have started by this slot
        if (iCutoff >= (latest[i] as number)) break; // i has surely started: the row is redundant
        const row: [number, number][] = [];
        for (let tau = earliest[j] as number; tau <= t; tau++) row.push([at(j, tau), 1]);
        for (let tau = earliest[i] as number; tau <= iCutoff; tau++) row.push([at(i, tau), -1]);
        b.addConstraint(`prec_${i}_${j}_${t}`, row, { max: 0 });
      }
    }
  });
  for (const r of constrainingResources(problem)) {
    const demands = problem.demands[r] as readonly number[];
    const capacity = problem.capacities[r] as number;
    for (let t = 0; t < horizon; t++) {
      const row: [number, number][] = [];
      let possible = 0;
      for (let j = 0; j < n; j++) {
        const u = demands[j] as number;
        const p = slots[j] as number;
        if (u <= 0 || p === 0) continue;
        const from = Math.max(earliest[j] as number, t - p + 1);
        const to = Math.min(latest[j] as number, t);
        if (from > to) continue;
        possible += u;
        for (let tau = from; tau <= to; tau++) row.push([at(j, tau), u]);
      }
      if (possible > capacity) b.addConstraint(`cap_${r}_${t}`, row, { max: capacity });
    }
  }
  const hasSuccessor = new Uint8Array(n);
  for (const preds of problem.predecessors) for (const i of preds) hasSuccessor[i] = 1;
  for (let j = 0; j < n; j++) {
    if (hasSuccessor[j]) continue; // a successor ends later anyway
    const row: [number, number][] = [[makespan, 1]];
    for (let t = earliest[j] as number; t <= (latest[j] as number); t++) row.push([at(j, t), -(t + (slots[j] as number))]);
    b.addConstraint(`end_${j}`, row as LinearExpression, { min: 0 });
  }
  b.setObjective("minimize", [[makespan, 1]]);
  return b.build();
}

/** Number of start variables the time-indexed model would have. */
export function timeIndexedSize(earliest: readonly number[], latest: readonly number[]): number {
  return earliest.reduce((sum, e, j) => sum + Math.max(0, (latest[j] as number) - e + 1), 0);
}
