/**
 * How much of a report is drawn. A long run's report (50,000 history rows,
 * tool errors of 50 KB) would be hundreds of megabytes, so the report is
 * rendered under a budget: at most `rows` items of every list (the first
 * and last halves, with a marker row counting what was left out between)
 * and at most `chars` characters of every value. `renderHtmlReport` picks
 * the largest budget whose page fits its `maxBytes`.
 *
 * Rendering is synchronous, so the budget of the render in progress is a
 * module value set for its duration only.
 */
/** 48000 as "48,000": counts in markers are read by people. */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** @internal */
export interface RenderBudget {
  /** Items of each list drawn, at most (the first and the last halves). */
  readonly rows: number;
  /** Characters of each value drawn, at most. */
  readonly chars: number;
}

/** @internal Longest value a report renders by default, in characters. */
export const MAX_VALUE_CHARS = 2000;

const UNBOUNDED: RenderBudget = { rows: Number.POSITIVE_INFINITY, chars: MAX_VALUE_CHARS };
let current: RenderBudget = UNBOUNDED;

/** @internal The budget of the render in progress. */
export function renderBudget(): RenderBudget {
  return current;
}

/** @internal Runs a synchronous render under `budget`. */
export function withRenderBudget<T>(budget: RenderBudget, render: () => T): T {
  const previous = current;
  current = budget;
  try {
    return render();
  } finally {
    current = previous;
  }
}

/** A list cut to the budget: the first half, the last half, and how many were left out between. */
export interface Elided<T> {
  readonly head: readonly T[];
  readonly tail: readonly T[];
  /** Items left out between `head` and `tail`. */
  readonly elided: number;
  /** Index (0-based) in the full list of the first item of `tail`. */
  readonly tailStart: number;
}

/** @internal Cuts `items` to `rows` (the current budget's by default): the first and last halves. */
export function elide<T>(items: readonly T[], rows: number = current.rows): Elided<T> {
  if (items.length <= rows) return { head: items, tail: [], elided: 0, tailStart: items.length };
  const headCount = Math.ceil(rows / 2);
  const tailCount = Math.floor(rows / 2);
  const tailStart = items.length - tailCount;
  return { head: items.slice(0, headCount), tail: items.slice(tailStart), elided: tailStart - headCount, tailStart };
}

/** @internal The marker's words: "… 48,000 of 50,000 rows not shown: the report is size-capped (maxBytes) …". */
export function elisionText(elided: number, total: number, what: string): string {
  return `… ${count(elided)} of ${count(total)} ${what} not shown: the report is size-capped (maxBytes) …`;
}

/**
 * @internal Table rows for `items` under the budget: the head's rows, one
 * marker row spanning `columns` that counts what was left out, the tail's
 * rows. `row` gets each item and its index in the full list.
 */
export function elidedRows<T>(items: readonly T[], columns: number, what: string, row: (item: T, index: number) => string): string {
  const cut = elide(items);
  const out = cut.head.map((item, i) => row(item, i));
  if (cut.elided > 0) {
    out.push(`<tr class="elided"><td colspan="${columns}">${elisionText(cut.elided, items.length, what)}</td></tr>`);
  }
  cut.tail.forEach((item, i) => {
    out.push(row(item, cut.tailStart + i));
  });
  return out.join("");
}

/** @internal Bytes of `text` in UTF-8, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
