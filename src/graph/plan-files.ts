import { type ActionSpec, LangGoapError } from "../core/index.js";
import { nodeBuiltin } from "../core/node-builtin.js";
import { type DeserializePlanOptions, deserializePlan, type Plan, serializePlan } from "../planner/index.js";

/**
 * Writes a plan to a JSON file (see {@link serializePlan}).
 *
 * @example
 * ```ts
 * await savePlan(found, "dinner.plan.json");
 * const again = await loadPlan("dinner.plan.json", actions); // from langgoap/graph (Node only)
 * ```
 */
export async function savePlan(plan: Plan, path: string): Promise<void> {
  // Fetched on use, not imported: the root import must bundle for the browser, where this gives NODE_ONLY.
  const { writeFile } = nodeBuiltin("node:fs/promises", "savePlan");
  await writeFile(path, `${JSON.stringify(serializePlan(plan), null, 2)}\n`, "utf8");
}

/** Reads a plan written by {@link savePlan}, re-binding actions by name (see {@link deserializePlan}). */
export async function loadPlan(path: string, actions: readonly ActionSpec[], options: DeserializePlanOptions = {}): Promise<Plan> {
  const { readFile } = nodeBuiltin("node:fs/promises", "loadPlan");
  const text = await readFile(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LangGoapError("INVALID_PLAN", `loadPlan: ${path} is not JSON: ${(error as Error).message}`, { path });
  }
  return deserializePlan(json, actions, options);
}
