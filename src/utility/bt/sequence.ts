import { type CompositeOptions, OrderedComposite } from "./ordered-composite.js";

/**
 * Runs its children left to right while they succeed: fails at the first
 * failure, runs while a child runs (resuming there on the next tick, or
 * from the first child when `reactive`), succeeds when all succeeded.
 *
 * @example
 * ```ts
 * const eat = new Sequence({ children: [new ConditionNode({ conditions: { has_food: true } }), chew] });
 * ```
 */
export class Sequence extends OrderedComposite {
  constructor(options: CompositeOptions) {
    super("sequence", "success", options);
  }
}
