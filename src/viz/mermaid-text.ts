import { displayText } from "../core/display-text.js";
import { MAX_LABEL_CHARS } from "./format.js";

/**
 * Escaping for Mermaid. Names and values come from data, so each one is
 * bounded, has its control characters made visible (a newline must not end
 * a statement), and has every character Mermaid gives a meaning written as
 * a Mermaid entity code (`#35;`), which Mermaid turns back into the
 * character when it draws.
 */

/**
 * Characters with a meaning in Mermaid text: `"` ends a quoted label, `#`
 * starts an entity, `<` `>` `&` are HTML, a backtick makes a Markdown
 * string, `%` starts comments and `%%{…}%%` directives.
 */
const SPECIAL = /[#"<>&`%]/g;
/** In a Gantt task name `:` also separates the name from the task's data. */
const GANTT_SPECIAL = /[#"<>&`%:]/g;
const LONG_ESCAPES: Readonly<Record<string, string>> = { n: "\\u000a", r: "\\u000d", t: "\\u0009" };
const NAMED: Readonly<Record<string, string>> = { '"': "#quot;", "<": "#lt;", ">": "#gt;", "&": "#amp;" };

function entity(char: string): string {
  return NAMED[char] ?? `#${char.codePointAt(0)};`;
}

/**
 * Bounded, with control characters visible. Mermaid draws a backslash and
 * `n` as a line break in multi-line labels (entity codes included), so no
 * `\n` may reach it: a backslash from data is written `\u005c`, and
 * newline, CR and tab as `\u000a`, `\u000d`, `\u0009`.
 */
function visible(text: string): string {
  return displayText(text.replace(/\\/g, "\\u005c"), { maxChars: MAX_LABEL_CHARS }).replace(
    /\\([nrt])/g,
    (_, c: string) => LONG_ESCAPES[c] as string,
  );
}

/** @internal Data text for a quoted Mermaid label (`["…"]`). */
export function mermaidText(text: string): string {
  return visible(text).replace(SPECIAL, entity);
}

/**
 * Words the Gantt grammar reads as statements when a line starts with them
 * (`click`, `section`, `title`, `dateFormat`, `weekday`, a date, ...),
 * matched as prefixes so that variants added later are covered too.
 */
const GANTT_STATEMENT = /^(?:acc|call|click|href|gantt|date|inclusive|top|axis|tick|include|exclude|today|week|title|section|vert|\d)/i;

/**
 * @internal A Gantt task name: {@link mermaidText}, and when it starts like
 * a statement its first character is written as an entity too, so a task
 * called `click` or `section` stays a task.
 */
export function ganttTaskText(name: string): string {
  const text = visible(name).replace(GANTT_SPECIAL, entity);
  if (!GANTT_STATEMENT.test(text)) return text;
  const first = String.fromCodePoint(text.codePointAt(0) as number);
  return `${entity(first)}${text.slice(first.length)}`;
}

/** @internal A Mermaid comment line's text: one line, and no `%` (no directive can start inside it). */
export function mermaidComment(text: string): string {
  return displayText(text, { maxChars: MAX_LABEL_CHARS }).replace(/%/g, "#37;");
}

/** @internal A node id from a step: `s<index>_<name>`, with anything but `[A-Za-z0-9_]` replaced and the name part bounded. */
export function mermaidNodeId(step: { readonly index: number; readonly name: string }): string {
  return `s${step.index}_${step.name.slice(0, 40).replace(/[^A-Za-z0-9_]/g, "_")}`;
}
