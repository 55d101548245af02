import { boundedCopy } from "../core/bounded-copy.js";
import { displayText } from "../core/index.js";
import { MAX_VALUE_CHARS } from "../viz/html/escape.js";

/** Deeper parts are replaced by a marker, as in the HTML report's embedded data. */
const MAX_DEPTH = 16;
/** Values one message may carry; later ones are replaced by a marker. */
const MAX_VALUES = 50_000;

/**
 * @internal A copy of JSON-like data ready for the inspector page: every
 * string and key is in its display form (`displayText`: bounded to
 * {@link MAX_VALUE_CHARS}, control and bidi characters as visible escapes,
 * the same rule as the HTML report), depth and size are bounded, cycles
 * and functions are marked. The page only ever puts these strings into
 * `textContent`, so nothing from data is markup or invisible there.
 */
export function displayData(value: unknown, maxChars: number = MAX_VALUE_CHARS): unknown {
  const text = (s: string): string => displayText(s, { maxChars });
  return boundedCopy(value, {
    maxDepth: MAX_DEPTH,
    maxValues: MAX_VALUES,
    leftOut: "not sent",
    text,
    // Numbers the page can print as JSON, and no value it cannot: NaN, functions and the like as display text.
    other: (item) => {
      if (typeof item === "number") return Number.isFinite(item) ? item : String(item);
      if (typeof item === "boolean" || item === null) return item;
      if (item === undefined) return null;
      return text(String(item));
    },
  });
}

/** @internal One value as a short display string (JSON for objects), for table cells. */
export function displayValue(value: unknown, maxChars = 200): string {
  if (typeof value === "string") return displayText(JSON.stringify(value), { maxChars });
  if (value === undefined) return "(unset)";
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = "[unserializable]";
  }
  return displayText(json ?? String(value), { maxChars });
}
