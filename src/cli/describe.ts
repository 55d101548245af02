import type { ActionSpec } from "../core/action.js";
import { type Condition, type Conditions, formatCondition } from "../core/conditions.js";
import { type Effect, formatEffect } from "../core/effects.js";
import type { WorldState } from "../core/facts.js";
import type { NoPlanExplanation } from "../planner/index.js";
import { terminalText } from "./terminal-text.js";

/** `a = true, wood >= 3` (each part escaped for the terminal). */
export function conditionsText(conditions: Conditions): string {
  const parts = Object.entries(conditions).map(([k, c]) => terminalText(formatCondition(k, c as Condition)));
  return parts.length ? parts.join(", ") : "(none)";
}

/** `has_axe = true, wood = 0` (sorted; keys and values escaped for the terminal). */
export function stateText(state: Readonly<WorldState>): string {
  const keys = Object.keys(state).sort();
  return keys.length
    ? keys.map((k) => `${terminalText(k)} = ${terminalText(JSON.stringify(state[k]) ?? "undefined")}`).join(", ")
    : "(empty)";
}

/** The explanation of a missing plan as indented text lines. */
export function explanationText(explanation: NoPlanExplanation): string {
  const lines: string[] = [];
  const section = (title: string, items: readonly string[]) => {
    if (items.length === 0) return;
    lines.push(title);
    for (const item of items) lines.push(`  - ${terminalText(item)}`);
  };
  section("Unreachable goal conditions (no sequence of actions makes them true):", explanation.unreachableConditions);
  section("Missing preconditions (required, never true and never produced):", explanation.missingPreconditions);
  section("Actions that can never run:", explanation.unusableActions);
  lines.push(`Suggestion: ${terminalText(explanation.suggestion)}`);
  return `${lines.join("\n")}\n`;
}

/** An action's effects as `key = value`, `key += 2` (function effects list their keys; each part escaped for the terminal). */
export function effectsText(action: ActionSpec): string {
  const effects = action.staticEffects;
  const parts = effects
    ? Object.entries(effects).map(([k, e]) => terminalText(formatEffect(k, e as Effect)))
    : [...action.effectKeys].map((k) => `${terminalText(k)} = (computed)`);
  return parts.length ? parts.join(", ") : "(none)";
}
