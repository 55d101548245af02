/** The format an `--output` file's extension implies, when `--format` is not given. */
export const EXTENSION_FORMATS: Readonly<Record<string, string>> = Object.freeze({
  ".html": "html",
  ".htm": "html",
  ".mmd": "mermaid",
  ".mermaid": "mermaid",
  ".dot": "dot",
  ".gv": "dot",
  ".json": "json",
  ".txt": "ascii",
  ".png": "png",
});

/** The extensions that imply one of `formats`, for help texts: `.html .htm .mmd ...`. */
export function extensionsFor(formats: readonly string[]): string {
  return Object.entries(EXTENSION_FORMATS)
    .filter(([, format]) => formats.includes(format))
    .map(([extension]) => extension)
    .join(" ");
}
