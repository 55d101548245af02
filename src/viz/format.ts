import { displayText } from "../core/display-text.js";

/**
 * Number and time formatting shared by every renderer, so ASCII, Mermaid,
 * DOT and HTML show the same figures.
 */

/**
 * Longest name or value drawn in a text diagram (ASCII, Mermaid, DOT):
 * longer ones are cut with a marker saying how much. Mermaid refuses
 * diagrams over 50,000 characters, and a label that long is unreadable.
 */
export const MAX_LABEL_CHARS = 200;

/** @internal A name or value from data as one safe line of text: bounded to {@link MAX_LABEL_CHARS}, control characters made visible. */
export function labelText(text: string): string {
  return displayText(text, { maxChars: MAX_LABEL_CHARS });
}

/** A number the way `%g` prints it: at most six significant digits, no trailing zeros. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}

/** Milliseconds with a readable unit: `0`, `250ms`, `1.5s`, `2.5min`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms === 0) return "0";
  // Four significant digits: exact values live in JSON, labels stay short.
  const short = (v: number): number => Number(v.toPrecision(4));
  if (Math.abs(short(ms)) < 1000) return `${short(ms)}ms`;
  if (Math.abs(short(ms / 1000)) < 60) return `${short(ms / 1000)}s`;
  return `${short(ms / 60_000)}min`;
}

/** A fact or JSON value in one short line (`true`, `3`, `"north"`). */
export function formatValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return formatNumber(value);
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
