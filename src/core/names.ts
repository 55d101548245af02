import { describeValue, LangGoapError, type LangGoapErrorCode } from "./errors.js";

/**
 * Names that would reach `Object.prototype` machinery instead of a fact:
 * `__proto__` silently vanishes from (or re-parents) objects built by
 * assignment, and `constructor`/`prototype` read inherited members.
 */
export const RESERVED_FACT_NAMES: readonly string[] = Object.freeze(["__proto__", "constructor", "prototype"]);

/**
 * Characters that make two names look alike or rewrite a terminal line:
 * control characters (C0, DEL, C1), format characters (bidi overrides and
 * isolates, zero-width space/joiners, BOM, tags), line/paragraph separators
 * lone surrogates, and every other default-ignorable code point (soft
 * hyphen, variation selectors, Hangul fillers).
 */
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Why `name` is unsafe as a fact or action name, or `undefined` when it is fine.
 *
 * @example
 * ```ts
 * unsafeNameReason("wood");          // undefined
 * unsafeNameReason("chop\u200b");    // "holds the invisible or control character U+200B at index 4"
 * unsafeNameReason("constructor");   // "is reserved (__proto__, constructor, prototype are never names)"
 * ```
 */
export function unsafeNameReason(name: string): string | undefined {
  if (name.length === 0) return "is empty";
  if (RESERVED_FACT_NAMES.includes(name)) return `is reserved (${RESERVED_FACT_NAMES.join(", ")} are never names)`;
  const bad = UNSAFE_CHARACTER.exec(name);
  if (bad) {
    const code = (bad[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
    return `holds the invisible or control character U+${code} at index ${bad.index}`;
  }
  return undefined;
}

/** Fact names already checked: domains repeat the same few keys across many actions. */
const checkedNames = new Set<string>();

/**
 * Throws when `name` cannot be a fact name: empty, reserved
 * (`__proto__`, `constructor`, `prototype`), or holding control, bidi or
 * zero-width characters. `where` names the owner, e.g. `action "chop" preconditions`.
 *
 * @example
 * ```ts
 * checkFactName("wood", "goal conditions", "INVALID_CONDITION");      // fine
 * checkFactName("__proto__", "goal conditions", "INVALID_CONDITION"); // throws INVALID_CONDITION
 * ```
 */
export function checkFactName(name: unknown, where: string, code: LangGoapErrorCode): void {
  if (typeof name === "string" && checkedNames.has(name)) return;
  const reason = typeof name === "string" ? unsafeNameReason(name) : "is not a string";
  if (reason !== undefined) {
    throw new LangGoapError(code, `${where}: fact name ${describeValue(name)} ${reason}`, { where, key: name, reason: "bad_fact_name" });
  }
  if (checkedNames.size < 100_000) checkedNames.add(name as string);
}

/**
 * True for objects made by `{}`, `JSON.parse` or `Object.create(null)`.
 * Anything else (class instances, `{ __proto__: {...} }` literals) could
 * carry inherited keys that look like facts.
 *
 * @example
 * ```ts
 * isPlainRecord(JSON.parse('{"a": 1}')); // true
 * isPlainRecord(new Map());              // false
 * ```
 */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
