/**
 * How a compiled problem stores a value in a slot: a numeric slot stores
 * the number itself, any other slot an interned code (booleans are 0 and 1
 * everywhere, so boolean domains index buckets densely); a missing key is
 * NaN.
 * @internal
 */
import { describeValue, LangGoapError } from "../core/errors.js";
import { MISSING } from "./compiled-problem.js";

export interface ValueCodes {
  /** The code of `value` in categorical slot `slot`, interning it at its first sight. */
  codeOf(slot: number, value: unknown): number;
  /** The slot value of `value`; throws a coded error for a non-number in a numeric slot. */
  encode(slot: number, value: unknown): number;
  decode(slot: number, code: number): unknown;
  /** Number of interned categorical values. */
  valueCount(): number;
}

export function valueCodes(keys: readonly string[], numeric: Uint8Array): ValueCodes {
  const factCount = keys.length;
  // A slot gets its table at its first value other than a boolean: most slots of large domains hold booleans or
  // numbers only, and two objects per fact would be a million allocations on a wide domain.
  const tables: (Map<unknown, number> | undefined)[] = new Array(factCount);
  const values: (unknown[] | undefined)[] = new Array(factCount);
  const codeOf = (slot: number, value: unknown): number => {
    if (value === false) return 0;
    if (value === true) return 1;
    let table = tables[slot];
    if (table === undefined) {
      table = new Map<unknown, number>();
      tables[slot] = table;
      values[slot] = [false, true];
    }
    let code = table.get(value);
    if (code === undefined) {
      code = table.size + 2;
      table.set(value, code);
      (values[slot] as unknown[]).push(value);
    }
    return code;
  };
  return {
    codeOf,
    encode(slot, value) {
      if (value === undefined) return MISSING;
      if (numeric[slot]) {
        if (typeof value !== "number" || !Number.isFinite(value)) {
          throw new LangGoapError("INVALID_EFFECT", `fact "${keys[slot]}" holds numbers in this domain, got ${describeValue(value)}`, {
            key: keys[slot],
          });
        }
        return value === 0 ? 0 : value;
      }
      return codeOf(slot, value);
    },
    decode(slot, code) {
      if (Number.isNaN(code)) return undefined;
      if (numeric[slot]) return code;
      return code === 0 ? false : code === 1 ? true : (values[slot] as unknown[])[code];
    },
    valueCount() {
      // Every slot has its two boolean codes, whether or not its table exists yet.
      let n = 2 * factCount;
      for (const list of values) if (list) n += list.length - 2;
      return n;
    },
  };
}
