/**
 * Time standing still for code that reads `performance.now()`: the planner's
 * time budgets and slices, search and planning figures. A test whose subject
 * is not time (a node budget, a plan, a status) freezes the clock so that a
 * busy machine cannot end a search on its time budget first. Undone by
 * `vi.restoreAllMocks()` (call it in `afterEach`).
 */
import { vi } from "vitest";

/** Makes `performance.now()` return the current reading from now on. */
export function stillClock(): void {
  const now = performance.now();
  vi.spyOn(performance, "now").mockReturnValue(now);
}
