/**
 * Exit codes of the `langgoap` command: 0 plan found (run: goal achieved),
 * 1 no plan (proven, or a run that failed), 2 bad input, 3 internal error,
 * 4 the search stopped on its budget before finding a plan (no proof
 * either way), 5 a human refused an action and no plan reaches the goal
 * without it (a run ended `denied`), 130 aborted (Ctrl-C; 128 + SIGINT,
 * as shells report it).
 */
export const EXIT = Object.freeze({ OK: 0, NO_PLAN: 1, BAD_INPUT: 2, INTERNAL: 3, BUDGET_EXHAUSTED: 4, DENIED: 5, ABORTED: 130 });

/** The exit code of a search or run that ended without a plan or goal, by its status. */
export function exitForStatus(status: string): number {
  if (status === "budget_exhausted") return EXIT.BUDGET_EXHAUSTED;
  if (status === "aborted") return EXIT.ABORTED;
  if (status === "denied") return EXIT.DENIED;
  return EXIT.NO_PLAN;
}
