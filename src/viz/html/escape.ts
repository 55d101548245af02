const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** @internal Escapes text for HTML and SVG content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/**
 * @internal JSON for an inline `<script type="application/json">`: `<`, `>`,
 * `&` and the line separators are escaped so no value can close the script
 * element or break parsing.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** @internal A rough text width for layout: SVG has no measuring before it is rendered. */
export function textWidth(text: string, fontSizePx: number): number {
  return Math.ceil(text.length * fontSizePx * 0.62);
}
