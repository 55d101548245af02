import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { LangGoapError } from "../core/index.js";

/** uPlot's browser build and stylesheet, by the name the page asks for. */
const UPLOT_FILES: Readonly<Record<string, string>> = {
  "uPlot.iife.min.js": "uplot/dist/uPlot.iife.min.js",
  "uPlot.min.css": "uplot/dist/uPlot.min.css",
};

const cache = new Map<string, string>();

/**
 * @internal A file of the `uplot` package (a dependency of langgoap), read
 * once from where Node resolves it: the page's charts work offline, with
 * no CDN.
 */
export function uplotAsset(name: string): string | undefined {
  const spec = UPLOT_FILES[name];
  if (spec === undefined) return undefined;
  let text = cache.get(name);
  if (text === undefined) {
    try {
      text = readFileSync(createRequire(import.meta.url).resolve(spec), "utf8");
    } catch (cause) {
      throw new LangGoapError(
        "EXECUTION_ERROR",
        `inspector: cannot read ${spec} (is the uplot package installed?)`,
        { file: spec },
        { cause },
      );
    }
    cache.set(name, text);
  }
  return text;
}
