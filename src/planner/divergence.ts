import type { ActionSpec } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import { factOf, type WorldState } from "../core/facts.js";
import type { DivergencePolicy } from "./divergence-policy.js";
import type { TransitionModel } from "./transitions.js";

/** One key where a model's expectation departs from the declared effects beyond what its policy allows. */
export interface Deviation {
  readonly key: string;
  readonly declared: unknown;
  readonly expected: unknown;
  /** `|expected - declared| / max(|declared|, 1)`, for two numbers. */
  readonly relativeDeviation?: number;
  /** What is wrong, in words. */
  readonly problem: string;
}

/** Result of {@link checkExpectedAgainstDeclared}. */
export interface DivergenceCheck {
  readonly ok: boolean;
  readonly deviations: readonly Deviation[];
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b) || a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

function assertUsablePolicy(policy: DivergencePolicy): void {
  const reason: unknown = policy.reason;
  if (typeof reason !== "string" || reason.trim() === "") {
    throw new LangGoapError(
      "INVALID_OPTION",
      `divergence policy: reason must be a non-blank string saying why the model diverges, got ${describeValue(reason)}`,
      { field: "reason", value: reason },
    );
  }
}

/**
 * Compares `model.expected(state, action)` with the action's declared
 * effects, key by key, under the model's {@link DivergencePolicy}:
 *
 * - no policy: every key must match exactly;
 * - numbers may differ by at most `maxRelativeDeviation` relative to
 *   `max(|declared|, 1)` (unbounded when the policy sets no bound);
 * - a flipped boolean, a changed string, or a change of type always fails.
 *
 * A key the model leaves out counts as the declared value; a key the model
 * writes that the action does not declare is compared with its current
 * value (the action leaves it unchanged).
 *
 * @example
 * ```ts
 * const check = checkExpectedAgainstDeclared(model, { wood: 0 }, chop);
 * if (!check.ok) console.log(check.deviations.map((d) => d.problem));
 * ```
 */
export function checkExpectedAgainstDeclared(model: TransitionModel, state: Readonly<WorldState>, action: ActionSpec): DivergenceCheck {
  const policy = model.divergencePolicy;
  if (policy !== undefined) assertUsablePolicy(policy);
  const declared = action.getEffects(state) as Readonly<Record<string, unknown>>;
  const expected = model.expected(state, action) as Readonly<Record<string, unknown>>;
  const deviations: Deviation[] = [];
  const keys = new Set([...Object.keys(declared), ...Object.keys(expected)]);
  for (const key of keys) {
    const declaredValue = Object.hasOwn(declared, key) ? declared[key] : factOf(state, key);
    const expectedValue = Object.hasOwn(expected, key) ? expected[key] : declaredValue;
    if (sameValue(declaredValue, expectedValue)) continue;
    const shown = `declared ${describeValue(declaredValue)}, expected ${describeValue(expectedValue)}`;
    if (policy === undefined) {
      deviations.push({
        key,
        declared: declaredValue,
        expected: expectedValue,
        problem: `${shown}, and the model has no divergence policy`,
      });
      continue;
    }
    if (typeof declaredValue === "number" && typeof expectedValue === "number") {
      const relativeDeviation = Math.abs(expectedValue - declaredValue) / Math.max(Math.abs(declaredValue), 1);
      const bound = policy.maxRelativeDeviation;
      if (bound !== undefined && !(relativeDeviation <= bound)) {
        deviations.push({
          key,
          declared: declaredValue,
          expected: expectedValue,
          relativeDeviation,
          problem: `${shown}: relative deviation ${relativeDeviation} exceeds the policy's bound ${bound}`,
        });
      }
      continue;
    }
    deviations.push({
      key,
      declared: declaredValue,
      expected: expectedValue,
      problem: `${shown}: only numbers may diverge; booleans, strings and types must match the declared effects`,
    });
  }
  return { ok: deviations.length === 0, deviations };
}

/**
 * Throws unless `model` expects what `action` declares in `state`, within
 * its divergence policy (see {@link checkExpectedAgainstDeclared}). Use it in
 * tests of custom transition models, so a planner never searches over
 * effects nobody declared. A policy with a blank reason is rejected.
 *
 * @example
 * ```ts
 * assertExpectedMatchesDeclared(new DeterministicTransitionModel(), { wood: 0 }, chop); // passes
 * ```
 * @throws LangGoapError `INVALID_EFFECT` naming the action and each deviating key.
 */
export function assertExpectedMatchesDeclared(model: TransitionModel, state: Readonly<WorldState>, action: ActionSpec): void {
  const check = checkExpectedAgainstDeclared(model, state, action);
  if (check.ok) return;
  const lines = check.deviations.map((d) => `"${d.key}": ${d.problem}`).join("; ");
  throw new LangGoapError("INVALID_EFFECT", `transition model diverges from action "${action.name}" declared effects: ${lines}`, {
    action: action.name,
    deviations: check.deviations,
  });
}
