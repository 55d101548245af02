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
const INVISIBLE_CHARACTER = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Blank characters other than the ASCII space: every other Unicode white
 * space (tab, no-break space, the en/em/thin/hair spaces, ideographic
 * space, ...), the Braille blank U+2800 and the musical null notehead
 * U+1D159, which no Unicode property marks as blank. Each renders like a
 * space (or like nothing), so a name holding one reads the same as a
 * different name.
 */
const BLANK_CHARACTER = /(?! )[\p{White_Space}\u2800\u{1D159}]/u;

function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Why `name` is unsafe as a fact or action name, or `undefined` when it is fine.
 *
 * @example
 * ```ts
 * unsafeNameReason("wood");          // undefined
 * unsafeNameReason("chop\u200b");    // "holds the invisible or control character U+200B at index 4"
 * unsafeNameReason("chop\u00a0wood"); // "holds the blank character U+00A0 at index 4 (only the ASCII space, between words)"
 * unsafeNameReason("constructor");   // "is reserved (__proto__, constructor, prototype are never names)"
 * ```
 */
export function unsafeNameReason(name: string): string | undefined {
  if (name.length === 0) return "is empty";
  if (RESERVED_FACT_NAMES.includes(name)) return `is reserved (${RESERVED_FACT_NAMES.join(", ")} are never names)`;
  const bad = INVISIBLE_CHARACTER.exec(name);
  if (bad) return `holds the invisible or control character ${codePoint(bad[0])} at index ${bad.index}`;
  const blank = BLANK_CHARACTER.exec(name);
  if (blank) return `holds the blank character ${codePoint(blank[0])} at index ${blank.index} (only the ASCII space, between words)`;
  // A leading or trailing space is invisible, and a name of only spaces renders blank.
  if (name.startsWith(" ") || name.endsWith(" ")) {
    return `${name.trim() === "" ? "is blank" : "starts or ends with a space"} (only the ASCII space, between words)`;
  }
  return undefined;
}

/** Fact names already checked: domains repeat the same few keys across many actions. */
const checkedNames = new Set<string>();

/**
 * Throws when `name` cannot be a fact name: empty, reserved
 * (`__proto__`, `constructor`, `prototype`), or holding control, bidi,
 * zero-width or blank characters (a space only between words). `where` names the owner, e.g. `action "chop" preconditions`.
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
