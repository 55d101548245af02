/**
 * @internal How {@link boundedCopy} bounds a value: the same walk serves
 * the HTML report's embedded data and the inspector's messages, which
 * differ only in their limits, their markers and what they do to strings.
 */
export interface BoundedCopyRules {
  /** Parts nested deeper than this are replaced by a marker. */
  readonly maxDepth: number;
  /** Values copied at most (every value and container counts one); later ones are replaced by a marker. */
  readonly maxValues: number;
  /** What the markers say became of what was left out, e.g. `"not sent"`. */
  readonly leftOut: string;
  /** Applied to every string, value or key (e.g. cut to a length). */
  readonly text: (text: string) => string;
  /** Applied to every other value that is not an object (numbers, booleans, null, undefined, ...); kept as it is without. */
  readonly other?: (value: unknown) => unknown;
}

/**
 * @internal A copy of JSON-like data bounded in depth and size: each value
 * past `maxValues`, or nested deeper than `maxDepth`, becomes a marker; a
 * value that contains itself becomes `"[circular]"` (a value reached twice
 * without a cycle is copied twice, as `JSON.stringify` would); `toJSON` is
 * followed; objects keep their own enumerable properties (facts are own
 * properties). Strings, values and keys, go through `rules.text`.
 * `depth`: how deep `value` itself sits (for a part of a larger copy).
 */
export function boundedCopy(value: unknown, rules: BoundedCopyRules, depth = 0): unknown {
  const { maxDepth, text, other } = rules;
  let budget = rules.maxValues;
  const ancestors = new Set<object>();
  const walk = (item: unknown, depth: number): unknown => {
    if (--budget < 0) return `[more data: ${rules.leftOut}]`;
    if (typeof item === "string") return text(item);
    if (typeof item !== "object" || item === null) return other ? other(item) : item;
    if (ancestors.has(item)) return "[circular]";
    if (depth >= maxDepth) return `[nested deeper than ${maxDepth} levels: ${rules.leftOut}]`;
    const json = (item as { toJSON?: unknown }).toJSON;
    if (typeof json === "function") return walk(json.call(item), depth + 1);
    ancestors.add(item);
    try {
      if (Array.isArray(item)) return item.map((v) => walk(v, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(item)) {
        const name = text(key);
        const copy = walk(v, depth + 1);
        // Assigned, "__proto__" (an own key of parsed JSON) would set the copy's prototype and vanish from it.
        if (name === "__proto__") Object.defineProperty(out, name, { value: copy, enumerable: true, writable: true, configurable: true });
        else out[name] = copy;
      }
      return out;
    } finally {
      ancestors.delete(item);
    }
  };
  return walk(value, depth);
}
