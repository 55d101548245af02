import { displayText } from "../core/index.js";
import type { GoapState } from "../graph/index.js";

/** Longest value shown: the text goes back to a model, and tool outputs in state can be huge or hostile. */
const MAX_VALUE_CHARS = 500;

/** Data as one bounded line: a newline in a value cannot start a section of its own. */
function line(text: string): string {
  return displayText(text, { maxChars: MAX_VALUE_CHARS });
}

/** The parts of a run's final state that {@link formatGoapResult} reports. */
export type FormattableGoapResult = Pick<GoapState, "status" | "executionHistory" | "worldState"> &
  Partial<Pick<GoapState, "replanCount" | "replanReason" | "noPlanExplanation" | "blacklistedActions">>;

/**
 * Formats a run's final state as plain text for people and for the model that
 * called a GOAP tool: the status, every executed action in order (failures
 * with their error), replans, why no plan was found (when so), and the final
 * world state with its keys sorted. Names and values come from data: each
 * is one line (control characters escaped) of at most 500 characters.
 *
 * @example
 * ```ts
 * formatGoapResult(await graph.invoke({ published: true }, {}));
 * // GOAP Result: goal_achieved
 * //
 * // Executed actions:
 * //   - research
 * //   - write_fast (failed: rate limited)
 * //   - write_premium
 * //   - publish
 * //
 * // Replans: 1
 * //
 * // Final world state:
 * //   drafted: true
 * //   published: true
 * //   researched: true
 * ```
 */
export function formatGoapResult(result: FormattableGoapResult): string {
  const sections = [`GOAP Result: ${result.status}`];
  const executed = result.executionHistory.map(
    (r) => `  - ${line(r.actionName)}${r.success ? "" : ` (failed: ${line(r.error ?? r.failure ?? "unknown error")})`}`,
  );
  sections.push(["Executed actions:", ...(executed.length ? executed : ["  (none)"])].join("\n"));

  const notes: string[] = [];
  if (result.replanCount) notes.push(`Replans: ${result.replanCount}`);
  if (result.blacklistedActions?.length) notes.push(`Blacklisted actions: ${result.blacklistedActions.map(line).join(", ")}`);
  if (result.replanReason && result.status !== "goal_achieved") notes.push(`Reason: ${line(result.replanReason)}`);
  if (notes.length) sections.push(notes.join("\n"));

  const why = result.noPlanExplanation;
  if (why) {
    const lines = ["Why no plan was found:"];
    if (why.unreachableConditions.length) lines.push(`  unreachable goal conditions: ${why.unreachableConditions.map(line).join(", ")}`);
    if (why.missingPreconditions.length) lines.push(`  missing preconditions: ${why.missingPreconditions.map(line).join(", ")}`);
    if (why.suggestion) lines.push(`  suggestion: ${line(why.suggestion)}`);
    sections.push(lines.join("\n"));
  }

  const keys = Object.keys(result.worldState).sort();
  const facts = keys.map((k) => `  ${line(k)}: ${line(formatValue(result.worldState[k]))}`);
  sections.push(["Final world state:", ...(facts.length ? facts : ["  (empty)"])].join("\n"));
  return sections.join("\n\n");
}

function formatValue(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
