/** @internal Escapes text for a double-quoted Graphviz string (backslash escapes like `\n` are added by callers). */
export function dotString(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r?\n/g, "\\n");
}
