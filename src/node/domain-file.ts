import { readFile } from "node:fs/promises";
import { LOAD_DOMAIN_OPTIONS_KEYS } from "../core/domain.js";
import { type Domain, LangGoapError, type LoadDomainOptions, loadDomain } from "../core/index.js";
import { checkOptionKeys } from "../core/option-keys.js";

/**
 * Reads a JSON or YAML domain file and loads it with {@link loadDomain}:
 * `.json` is strict JSON, `.yaml`/`.yml` YAML, and error messages start
 * with the path. Node only (it reads the file system), so it lives in
 * `langgoap/node`, away from the browser-safe root.
 *
 * @param path - the file, relative to the working directory or absolute
 * @param options - `format` overrides the one the extension implies; `sourceName` the name in messages
 * @returns the domain's actions, start state, goal and declared facts
 * @throws LangGoapError `INVALID_DOMAIN` when the file cannot be read or is not a valid domain
 *
 * @example
 * ```ts
 * import { loadDomainFile } from "langgoap/node";
 * import { plan } from "langgoap";
 *
 * const { actions, state, goal } = await loadDomainFile("examples/domains/village.yaml");
 * const result = plan(state, goal!, actions);
 * ```
 */
export async function loadDomainFile(path: string, options: LoadDomainOptions = {}): Promise<Domain> {
  checkOptionKeys(options, LOAD_DOMAIN_OPTIONS_KEYS, "loadDomainFile()");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new LangGoapError(
      "INVALID_DOMAIN",
      `${path}: cannot read the domain file: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message}`,
      { path: "$", source: path, reason: "unreadable", errno: code },
      { cause: error },
    );
  }
  return loadDomain(text, { sourceName: path, ...options });
}
