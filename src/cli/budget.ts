import { LangGoapError } from "../core/errors.js";

/**
 * A search budget from `--budget`: a bare integer counts search steps (A*
 * node expansions, MCTS iterations); a number with `ms` or `s` is
 * wall-clock time.
 */
export type SearchBudget = { readonly kind: "steps"; readonly steps: number } | { readonly kind: "time"; readonly ms: number };

const PATTERN = /^(\d+(?:\.\d+)?)(ms|s)?$/;

/**
 * Parses `--budget`: `5000` (steps), `250ms`, `1.5s`.
 *
 * @example
 * ```ts
 * parseBudget("20000"); // { kind: "steps", steps: 20000 }
 * parseBudget("2s");    // { kind: "time", ms: 2000 }
 * ```
 */
export function parseBudget(text: string): SearchBudget {
  const match = PATTERN.exec(text.trim());
  const value = match ? Number(match[1]) : Number.NaN;
  if (!match || !(value > 0)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `--budget: expected a positive step count like 5000, or a time like 500ms or 2s, got "${text}"`,
      { option: "budget", value: text },
    );
  }
  if (match[2] === undefined) {
    if (!Number.isInteger(value)) {
      throw new LangGoapError("INVALID_OPTION", `--budget: a step count must be a whole number, got "${text}" (add ms or s for time)`, {
        option: "budget",
        value: text,
      });
    }
    return { kind: "steps", steps: value };
  }
  return { kind: "time", ms: match[2] === "s" ? value * 1000 : value };
}

/** `5000 expansions`, `2s`: how the budget reads in messages. */
export function describeBudget(budget: SearchBudget, stepName: string): string {
  return budget.kind === "steps" ? `${budget.steps} ${stepName}` : `${budget.ms}ms`;
}
