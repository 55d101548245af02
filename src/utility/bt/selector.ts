import { type CompositeOptions, OrderedComposite } from "./ordered-composite.js";

/**
 * The fallback: tries its children left to right (priority order) until one
 * does not fail: succeeds at the first success, runs while a child runs
 * (resuming there, or re-checking the higher-priority children first when
 * `reactive`), fails when all failed. {@link UtilitySelector} orders them by
 * score instead.
 *
 * @example
 * ```ts
 * const act = new Selector({ children: [flee, fight, wander], reactive: true });
 * ```
 */
export class Selector extends OrderedComposite {
  constructor(options: CompositeOptions) {
    super("selector", "failure", options);
  }
}
