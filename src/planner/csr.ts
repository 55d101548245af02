/**
 * Lists of lists as two flat arrays (compressed sparse rows): row `i`'s
 * items are `items[start[i]]` up to `items[start[i + 1]]`. Built in two
 * passes, counting then placing, rather than with a list per row, which on
 * large domains cost more in garbage collection than the work itself.
 * @internal
 */
import { PACE_EVERY, type Pace, runUnpaced, unpaced } from "./pace.js";

export interface Csr {
  readonly start: Int32Array;
  readonly items: Int32Array;
}

/** Calls `emit` for each item of row `row`, the same items in the same order every time. */
export type RowItems = (row: number, emit: (item: number) => void) => void;

/** Builds the CSR lists of `rows` rows in slices (see `Pace`). */
export function* csrSteps(rows: number, each: RowItems, pace: Pace): Generator<void, Csr, void> {
  const start = new Int32Array(rows + 1);
  let row = 0;
  const count = (): void => {
    start[row + 1] = (start[row + 1] as number) + 1;
  };
  for (; row < rows; row++) {
    if (row % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    each(row, count);
  }
  for (let r = 0; r < rows; r++) start[r + 1] = (start[r + 1] as number) + (start[r] as number);
  const items = new Int32Array(start[rows] as number);
  let at = 0;
  const place = (item: number): void => {
    items[at++] = item;
  };
  for (row = 0; row < rows; row++) {
    if (row % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    each(row, place);
  }
  return { start, items };
}

/** Builds CSR lists at once. */
export function csrOf(rows: number, each: RowItems): Csr {
  return runUnpaced(csrSteps(rows, each, unpaced()));
}

/** The inverse relation over `width` rows: row `x` lists the rows of `csr` holding item `x`, in ascending order. */
export function invertCsr(csr: Csr, width: number): Csr {
  const { start, items } = csr;
  const inverseStart = new Int32Array(width + 1);
  for (let k = 0; k < items.length; k++) inverseStart[(items[k] as number) + 1]++;
  for (let x = 0; x < width; x++) inverseStart[x + 1] = (inverseStart[x + 1] as number) + (inverseStart[x] as number);
  const fill = inverseStart.slice(0, width);
  const inverse = new Int32Array(items.length);
  for (let row = 0; row + 1 < start.length; row++) {
    for (let k = start[row] as number; k < (start[row + 1] as number); k++) {
      const x = items[k] as number;
      inverse[fill[x] as number] = row;
      fill[x] = (fill[x] as number) + 1;
    }
  }
  return { start: inverseStart, items: inverse };
}
