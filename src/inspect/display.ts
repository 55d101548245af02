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
  let budget = MAX_VALUES;
  const ancestors = new Set<object>();
  const text = (s: string): string => displayText(s, { maxChars });
  const walk = (item: unknown, depth: number): unknown => {
    if (--budget < 0) return "[more data: not sent]";
    if (typeof item === "string") return text(item);
    if (typeof item === "number") return Number.isFinite(item) ? item : String(item);
    if (typeof item === "boolean" || item === null) return item;
    if (item === undefined) return null;
    if (typeof item !== "object") return text(String(item));
    if (ancestors.has(item)) return "[circular]";
    if (depth >= MAX_DEPTH) return `[nested deeper than ${MAX_DEPTH} levels: not sent]`;
    const json = (item as { toJSON?: unknown }).toJSON;
    if (typeof json === "function") return walk(json.call(item), depth + 1);
    ancestors.add(item);
    try {
      if (Array.isArray(item)) return item.map((v) => walk(v, depth + 1));
      const out: Record<string, unknown> = {};
      // Own enumerable properties only: facts are own properties.
      for (const key of Object.keys(item)) out[text(key)] = walk((item as Record<string, unknown>)[key], depth + 1);
      return out;
    } finally {
      ancestors.delete(item);
    }
  };
  return walk(value, 0);
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
