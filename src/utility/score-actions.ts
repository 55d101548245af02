import type { Blackboard } from "./consideration.js";
import type { ScoreOptions, UtilityAction } from "./utility-action.js";

/** One action's score in an evaluation. */
export interface ActionScore {
  readonly action: UtilityAction;
  readonly score: number;
  /** Seconds of cooldown left (the score is 0 while > 0). */
  readonly cooldownRemaining: number;
}

/** The outcome of one evaluation. */
export interface UtilityEvaluation {
  /** The best action, or null when every action scored 0. */
  readonly best: UtilityAction | null;
  readonly bestScore: number;
  /** Every action's score, in declaration order. */
  readonly scores: readonly ActionScore[];
}

/** @internal What one scoring pass needs besides the actions and the blackboard. */
export interface ScoreActionsOptions {
  /** The running choice: it alone gets the momentum bonus. */
  readonly running: UtilityAction | null;
  readonly momentum: number;
  readonly missingInput: number | undefined;
  /** Seconds of cooldown left per action, by index (an action cooling down scores 0). */
  readonly cooldowns: ArrayLike<number>;
}

/**
 * @internal One evaluation of utility actions, shared by {@link UtilityBrain}
 * and {@link UtilitySelector}: every action's score (0 while cooling down),
 * and the best, the highest score strictly above 0 (ties: the first
 * declared).
 */
export function scoreActions(actions: readonly UtilityAction[], blackboard: Blackboard, options: ScoreActionsOptions): UtilityEvaluation {
  const scores: ActionScore[] = [];
  let best: UtilityAction | null = null;
  let bestScore = 0;
  // Two option objects per pass, not one per action: this runs for every NPC on every tick.
  const idle: ScoreOptions = {
    running: false,
    momentum: options.momentum,
    ...(options.missingInput !== undefined ? { missingInput: options.missingInput } : {}),
  };
  const running: ScoreOptions = { ...idle, running: true };
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i] as UtilityAction;
    const cooldownRemaining = options.cooldowns[i] as number;
    const score = cooldownRemaining > 0 ? 0 : action.score(blackboard, action === options.running ? running : idle);
    scores.push({ action, score, cooldownRemaining });
    if (score > bestScore) {
      bestScore = score;
      best = action;
    }
  }
  return { best, bestScore, scores };
}
