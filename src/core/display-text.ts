import { groupDigits } from "./group-digits.js";
import { checkOptionKeys, type OptionKeys } from "./option-keys.js";

/**
 * Text that came from data (action names, fact keys and values, tool
 * outputs, history records) is hostile until escaped. These helpers make it
 * inert for every output we produce — terminals, diagrams, HTML, prompts —
 * before any format-specific escaping is applied on top.
 */

/**
 * Characters that must never reach an output raw: C0 and C1 controls and
 * DEL (`Cc`: ESC starts terminal sequences, CR overwrites a line), invisible
 * format characters (`Cf`: bidi overrides, zero-width characters, the tag
 * characters used to hide text from readers), line and paragraph separators
 * (`Zl`, `Zp`) and unpaired surrogates (`Cs`).
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
/** The same without newline and tab, for multi-line text whose line breaks are ours. */
const UNSAFE_EXCEPT_BREAKS = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const SHORT: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function hex4(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, "0")}`;
}

/** `\n`, `\u001b`, or a surrogate pair `\udb40\udc41`: the JSON spelling, so escaped JSON text stays valid and equal. */
function visibleEscape(char: string): string {
  const short = SHORT[char];
  if (short) return short;
  let out = "";
  for (let i = 0; i < char.length; i++) out += hex4(char.charCodeAt(i));
  return out;
}

/** Options of {@link escapeControlChars} and {@link displayText}. */
export interface DisplayTextOptions {
  /** Keep `\n` and `\t` as they are (for text whose line breaks the caller wrote). @defaultValue false */
  readonly keepLineBreaks?: boolean;
}

const DISPLAY_TEXT_OPTIONS_KEYS = { keepLineBreaks: true } as const satisfies OptionKeys<DisplayTextOptions>;

/**
 * Replaces control characters, invisible format characters (bidi
 * overrides, zero-width characters) and unpaired surrogates with visible
 * escapes in JSON spelling (`\n`, `\u001b`, `\u202e`), so a name or value
 * can neither drive a terminal, reorder what a reader sees, nor hide text.
 * Printable text, including emoji and non-Latin scripts, is unchanged.
 * Escaping JSON text this way keeps it valid JSON with equal values.
 *
 * @example
 * ```ts
 * escapeControlChars("chop\u001b[31m\u202e"); // "chop\\u001b[31m\\u202e"
 * escapeControlChars("a\nb", { keepLineBreaks: true }); // "a\nb"
 * ```
 * @param text - Any text.
 * @param options - Whether newline and tab are kept.
 * @returns Text without any character of those classes.
 */
export function escapeControlChars(text: string, options: DisplayTextOptions = {}): string {
  checkOptionKeys(options, DISPLAY_TEXT_OPTIONS_KEYS, "escapeControlChars()");
  return text.replace(options.keepLineBreaks ? UNSAFE_EXCEPT_BREAKS : UNSAFE, visibleEscape);
}

/**
 * Cuts text longer than `maxChars` (UTF-16 units) and says how much was cut:
 * `"aaaa… [196 of 200 characters cut]"`. A surrogate pair is never split.
 *
 * @example
 * ```ts
 * truncateText("x".repeat(200_000), 10); // "xxxxxxxxxx… [199,990 of 200,000 characters cut]"
 * ```
 * @param text - Any text.
 * @param maxChars - How many characters to keep (a non-negative integer; `Infinity` keeps all).
 * @returns The text, or its first `maxChars` characters and the marker.
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let keep = Math.max(0, Math.floor(maxChars));
  const last = text.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep--;
  return `${text.slice(0, keep)}… [${groupDigits(text.length - keep)} of ${groupDigits(text.length)} characters cut]`;
}

/**
 * Text from data, ready for any output: bounded by {@link truncateText}
 * first, then made visible by {@link escapeControlChars}. Format-specific
 * escaping (HTML, Mermaid, DOT) still applies on top of it.
 *
 * @example
 * ```ts
 * displayText("IGNORE\u001b[2J" + "!".repeat(5000), { maxChars: 20 });
 * // "IGNORE\\u001b[2J!!!!!!!!!!… [4,990 of 5,010 characters cut]"
 * ```
 * @param text - Any text.
 * @param options - `maxChars` (@defaultValue Infinity) and `keepLineBreaks`.
 */
export function displayText(text: string, options: DisplayTextOptions & { readonly maxChars?: number } = {}): string {
  const escaping = options.keepLineBreaks === undefined ? {} : { keepLineBreaks: options.keepLineBreaks };
  return escapeControlChars(truncateText(text, options.maxChars ?? Number.POSITIVE_INFINITY), escaping);
}
