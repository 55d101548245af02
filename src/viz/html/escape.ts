import { boundedCopy } from "../../core/bounded-copy.js";
import { displayText, escapeControlChars, truncateText } from "../../core/display-text.js";
import { MAX_VALUE_CHARS, renderBudget } from "./budget.js";

/**
 * @internal Longest value the report renders by default, in characters: a
 * longer name, fact value, error or event is cut with a marker that says
 * how much was cut, so one huge tool output cannot bloat or freeze the
 * page. A size-capped report may cut shorter (see `budget.ts`).
 */
export { MAX_VALUE_CHARS };

/** Deeper parts of the embedded JSON are replaced by a marker (no stack overflow, no unbounded page). */
const MAX_DATA_DEPTH = 32;

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function markup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/**
 * @internal Escapes text for HTML and SVG content and attribute values,
 * after bounding it to `maxChars` and making control and bidi characters
 * visible (`\u001b`, `\n`): nothing from data is ever markup or invisible.
 */
export function escapeHtml(text: string, maxChars: number = renderBudget().chars): string {
  return markup(displayText(String(text), { maxChars }));
}

/** @internal Escapes each line like {@link escapeHtml} and keeps the line breaks between them (for tooltips). */
export function escapeHtmlLines(lines: readonly string[]): string {
  return lines.map((line) => escapeHtml(line)).join("\n");
}

/** Values embedded at most; later ones are replaced by a marker. */
const MAX_DATA_VALUES = 200_000;

/**
 * @internal A copy of JSON-like data with every string longer than the
 * render's value budget ({@link MAX_VALUE_CHARS} by default) cut (with the marker), parts nested deeper than
 * {@link MAX_DATA_DEPTH} or past {@link MAX_DATA_VALUES} values replaced by
 * a marker, and cycles marked: the embedded data is bounded like the page.
 * Strings are not otherwise changed (they are data for scripts, never shown).
 */
export function boundData(value: unknown): unknown {
  const maxChars = renderBudget().chars;
  return boundedCopy(value, {
    maxDepth: MAX_DATA_DEPTH,
    maxValues: MAX_DATA_VALUES,
    leftOut: "not embedded",
    text: (s) => truncateText(s, maxChars),
  });
}

/**
 * @internal JSON for an inline `<script type="application/json">`: strings
 * bounded by {@link boundData}; control characters and line separators,
 * `<`, `>` and `&` escaped so no value can close the script element, break
 * parsing, or reach a terminal that prints the file.
 */
export function jsonForScript(value: unknown): string {
  // JSON-spelled escapes: the data parses back unchanged, and the file carries no raw control character.
  return escapeControlChars(JSON.stringify(boundData(value)))
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026");
}

/** @internal A rough text width for layout: SVG has no measuring before it is rendered. */
export function textWidth(text: string, fontSizePx: number): number {
  return Math.ceil(displayText(text, { maxChars: MAX_VALUE_CHARS }).length * fontSizePx * 0.62);
}
