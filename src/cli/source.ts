import { readFile, stat } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ActionSpec, type ActionSpecOptions, validateActions } from "../core/action.js";
import { loadDomain, validateDomain } from "../core/domain.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import { applyFactBounds } from "../core/fact-bounds.js";
import type { FactCatalog, WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import { toGoal, toState } from "./goal-input.js";

/** A domain the CLI plans over, from a file or a module export. */
export interface LoadedDomain {
  /** The reference as the user wrote it (used in messages). */
  readonly source: string;
  readonly actions: readonly ActionSpec[];
  readonly state: WorldState;
  readonly goal: GoalSpec | undefined;
  readonly facts: FactCatalog | undefined;
}

const DOMAIN_FILES = new Set([".json", ".yaml", ".yml"]);
const MODULES = new Set([".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]);

function bad(message: string, details: Record<string, unknown> = {}, cause?: unknown): LangGoapError {
  return new LangGoapError("INVALID_DOMAIN", message, details, cause === undefined ? {} : { cause });
}

async function ensureFile(path: string, label: string, source: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw bad(`${label} "${source}" not found (looked for ${path})`, { source, path });
  if (!info.isFile()) throw bad(`${label} "${source}" is not a file`, { source, path });
}

async function loadDomainFile(source: string, path: string): Promise<LoadedDomain> {
  await ensureFile(path, "domain file", source);
  const text = await readFile(path, "utf8");
  const domain = loadDomain(text, { sourceName: source });
  return { source, ...domain };
}

function toAction(value: unknown, where: string): ActionSpec {
  if (value instanceof ActionSpec) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw bad(
      `${where}: expected an ActionSpec or an action object like { name, preconditions, effects, cost }, got ${describeValue(value)}`,
    );
  }
  const options = value as ActionSpecOptions;
  try {
    // A spec built by another copy of langgoap arrives as a plain object whose effectKeys mirror its static effects.
    return new ActionSpec(typeof options.effects === "function" ? options : { ...options, effectKeys: undefined });
  } catch (error) {
    if (error instanceof LangGoapError) throw bad(`${where}: ${error.message}`, { ...error.details }, error);
    throw error;
  }
}

function fromExport(source: string, value: unknown): LoadedDomain {
  const actionsOf = (list: unknown, where: string): readonly ActionSpec[] => {
    if (!Array.isArray(list) || list.length === 0) throw bad(`${where}: expected a non-empty array of actions, got ${describeValue(list)}`);
    try {
      return validateActions(list.map((a, i) => toAction(a, `${where}[${i}]`)));
    } catch (error) {
      if (error instanceof LangGoapError && error.code !== "INVALID_DOMAIN")
        throw bad(`${where}: ${error.message}`, { ...error.details }, error);
      throw error;
    }
  };
  if (Array.isArray(value))
    return { source, actions: actionsOf(value, `${source}: actions`), state: {}, goal: undefined, facts: undefined };
  if (typeof value !== "object" || value === null || !("actions" in value)) {
    throw bad(
      `${source}: expected an array of actions or a domain object { actions, state?, goal?, facts? }, got ${describeValue(value)}`,
      {
        source,
      },
    );
  }
  const raw = value as { actions: unknown; state?: unknown; goal?: unknown; facts?: unknown };
  let actions = actionsOf(raw.actions, `${source}: actions`);
  const state = raw.state === undefined ? {} : toState(raw.state, `${source}: state`);
  const goal = raw.goal === undefined || raw.goal === null ? undefined : toGoal(raw.goal, `${source}: goal`);
  if (raw.facts !== undefined && (typeof raw.facts !== "object" || raw.facts === null || Array.isArray(raw.facts))) {
    throw bad(`${source}: facts must be an object of fact declarations, got ${describeValue(raw.facts)}`, { source });
  }
  const facts = raw.facts as FactCatalog | undefined;
  if (facts) {
    try {
      validateDomain({ actions, facts, state, goal });
    } catch (error) {
      if (error instanceof LangGoapError)
        throw new LangGoapError(error.code, `${source}: ${error.message}`, { ...error.details, source }, { cause: error });
      throw error;
    }
    actions = Object.freeze(applyFactBounds(actions, facts));
  }
  return { source, actions, state, goal, facts };
}

async function loadModuleExport(source: string, path: string, exportName: string): Promise<LoadedDomain> {
  await ensureFile(path, "module", source);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const hint = /Unknown file extension "\.[cm]?ts"/.test(String((error as Error)?.message))
      ? ` (TypeScript modules load under tsx: NODE_OPTIONS="--import tsx" langgoap ..., or npx tsx src/cli/bin.ts ... in this repository; or compile the module to .js)`
      : "";
    throw bad(`cannot load module "${source}": ${(error as Error)?.message ?? describeValue(error)}${hint}`, { source }, error);
  }
  if (!(exportName in module)) {
    const names = Object.keys(module).filter((k) => k !== "__esModule");
    throw bad(`module "${source}" has no export "${exportName}"; it exports [${names.join(", ")}]`, { source, export: exportName });
  }
  let value = module[exportName];
  if (typeof value === "function" && !(value.prototype instanceof ActionSpec)) {
    try {
      value = await (value as () => unknown)();
    } catch (error) {
      throw bad(
        `${source}#${exportName}: calling the exported function failed: ${(error as Error)?.message ?? describeValue(error)}`,
        {},
        error,
      );
    }
  }
  return fromExport(`${source.split("#")[0]}#${exportName}`, value);
}

/**
 * Loads a domain from a reference: a JSON or YAML domain file (validated by
 * `loadDomain`, errors carry the JSON path), or `module.js#name`, an export
 * of a JavaScript module (TypeScript under tsx) that is an array of actions,
 * a domain object `{ actions, state?, goal?, facts? }`, or a function
 * returning either. Without `#name` a module's default export is used.
 *
 * @example
 * ```ts
 * const domain = await loadSource("examples/domains/village.yaml", process.cwd());
 * domain.actions.length; // 7
 * ```
 * @throws LangGoapError naming the file, the JSON path (domain files) and the reason.
 */
export async function loadSource(reference: string, cwd: string): Promise<LoadedDomain> {
  const hash = reference.lastIndexOf("#");
  const file = hash >= 0 ? reference.slice(0, hash) : reference;
  const exportName = hash >= 0 ? reference.slice(hash + 1) : "default";
  const extension = extname(file).toLowerCase();
  const path = resolve(cwd, file);
  if (hash < 0 && DOMAIN_FILES.has(extension)) return loadDomainFile(reference, path);
  if (MODULES.has(extension)) {
    if (exportName === "") throw bad(`"${reference}": the export name after # is empty`, { source: reference });
    return loadModuleExport(reference, path, exportName);
  }
  throw bad(`"${reference}" is neither a domain file (.json, .yaml, .yml) nor a module reference (file.js#export, file.ts#export)`, {
    source: reference,
  });
}
