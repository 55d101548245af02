import {
  type ActionSpec,
  type Condition,
  type Effect,
  formatCondition,
  formatEffect,
  isFact,
  promptDataBlock,
  type WorldState,
} from "../core/index.js";
import { describeFactType, type FactInventory } from "./fact-inventory.js";
import type { InterpretedGoal } from "./goal-schema.js";

/** A worked example shown to the model: a request and the goal it means. */
export interface GoalExample {
  readonly request: string;
  readonly goal: InterpretedGoal;
}

/**
 * The default system prompt of {@link GoalInterpreter}. Placeholders:
 * `{fact_catalog}`, `{action_catalog}`, `{world_state}`, `{examples}`.
 */
export const DEFAULT_GOAL_SYSTEM_PROMPT = `You turn a user's request into a goal for a goal-oriented action planner.
The planner chooses the actions; you only state what must be true at the end.

## Facts (the ONLY keys allowed in conditions)
{fact_catalog}

## Available actions
{action_catalog}

## Current world state
{world_state}

## Instructions
1. conditions: the facts that must hold once the request is satisfied, with values of the listed type.
   Numbers may be compared: {"wood": {"gte": 3}}. Never invent a fact that is not listed.
2. constraints: only limits the user states ("under $5" -> {"key": "usd", "max": 5}); "ideally" or "preferably" -> "level": "soft".
3. objectives: only when the user asks for the cheapest, fastest, least or most of something ("cheapest" -> {"key": "cost", "direction": "minimize"}).
4. reasoning: one short sentence.
Return only the structured goal; never list actions or plans.{examples}`;

/**
 * Lists actions as the model sees them: description, needs, gives, cost.
 *
 * @example
 * ```ts
 * renderActionCatalog([eat]);
 * // "- eat_food: Eat the cooked meal.\n  needs: has_food = true\n  gives: is_hungry = false, has_food = false\n  cost: 1"
 * ```
 */
export function renderActionCatalog(actions: readonly ActionSpec[]): string {
  if (actions.length === 0) return "(no actions available)";
  return actions
    .map((action) => {
      const lines = [`- ${action.name}${action.description ? `: ${action.description}` : ""}`];
      const needs = Object.entries(action.preconditions).map(([k, c]) => formatCondition(k, c as Condition));
      if (needs.length) lines.push(`  needs: ${needs.join(", ")}`);
      const gives = action.staticEffects
        ? Object.entries(action.staticEffects).map(([k, e]) => formatEffect(k, e as Effect))
        : [...action.effectKeys].map((k) => `${k} (computed)`);
      if (gives.length) lines.push(`  gives: ${gives.join(", ")}`);
      lines.push(`  cost: ${typeof action.cost === "number" ? action.cost : "depends on the state"}`);
      if (action.resources) lines.push(`  uses: ${JSON.stringify(action.resources)}`);
      return lines.join("\n");
    })
    .join("\n");
}

/**
 * Lists facts with their types, meanings and other words for them.
 *
 * @example
 * ```ts
 * renderFactCatalog(collectFacts([eat], { is_hungry: { type: "boolean", synonyms: ["starving"] } }));
 * // "- is_hungry (boolean): also called starving\n- has_food (boolean)"
 * ```
 */
export function renderFactCatalog(facts: FactInventory): string {
  if (facts.size === 0) return "(no facts)";
  return [...facts.values()]
    .map((fact) => {
      const notes = [fact.description, fact.synonyms.length ? `also called ${fact.synonyms.join(", ")}` : undefined];
      const text = notes.filter(Boolean).join("; ");
      return `- ${describeFactType(fact)}${text ? `: ${text}` : ""}`;
    })
    .join("\n");
}

/**
 * @internal The plannable part of a world state (other values are left
 * out of prompts) as a delimited data block: state values are tool outputs
 * and sensor readings, so they reach the model bounded, escaped and marked
 * as data, never as instructions (see `promptDataBlock`).
 */
export function renderWorldState(state: Readonly<WorldState>): string {
  const facts = Object.fromEntries(Object.entries(state).filter(([, v]) => isFact(v)));
  return promptDataBlock("world_state", facts);
}

/** @internal Renders examples as a prompt section (empty when there are none). */
export function renderExamples(examples: readonly GoalExample[]): string {
  if (examples.length === 0) return "";
  const body = examples.map((e) => `Request: ${e.request}\nGoal: ${JSON.stringify(e.goal)}`).join("\n\n");
  return `\n\n## Examples\n${body}`;
}

/** @internal Replaces known `{name}` placeholders only, so JSON braces in a custom prompt survive. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (match, name: string) => values[name] ?? match);
}
