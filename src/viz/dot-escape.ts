import { displayText } from "../core/display-text.js";
import { MAX_LABEL_CHARS } from "./format.js";

/**
 * @internal Data text for a double-quoted Graphviz string: bounded, control
 * characters made visible (a newline in a name shows as `\n`, it does not
 * break the label), then backslashes and quotes escaped so nothing ends the
 * string or becomes a Graphviz escape (`\N`, `\G`). Callers join escaped
 * lines with DOT's own `\n` or `\l`.
 */
export function dotString(text: string): string {
  return displayText(text, { maxChars: MAX_LABEL_CHARS }).replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}
