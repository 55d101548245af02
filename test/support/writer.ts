/**
 * The flaky-writer domain: research → write → publish, where the cheap fast
 * writer fails on its first call and a premium writer (cost 5) is the
 * alternative. A run replans once and finishes with the premium writer.
 */
import { ActionSpec, GoalSpec } from "../../src/core/index.js";

export const PUBLISHED = new GoalSpec({ conditions: { published: true } });

/**
 * Fresh actions (the fast writer's failure counter is per call of this
 * function). With `whileDown`, the fast writer fails whenever the world
 * says `fast_writer_down: true` instead (the served publishing domain's rule).
 */
export function flakyWriterActions(options: { whileDown?: boolean } = {}): ActionSpec[] {
  let fastCalls = 0;
  return [
    new ActionSpec({
      name: "research",
      effects: { researched: true },
      cost: 1,
      description: "Research the topic",
      execute: () => undefined,
    }),
    new ActionSpec({
      name: "write_fast",
      preconditions: { researched: true },
      effects: { drafted: true },
      cost: 1,
      description: "Draft quickly with the cheap writer",
      execute: (state) => {
        fastCalls++;
        if (options.whileDown ? state.fast_writer_down === true : fastCalls === 1) throw new Error("rate limited");
      },
    }),
    new ActionSpec({
      name: "write_premium",
      preconditions: { researched: true },
      effects: { drafted: true },
      cost: 5,
      description: "Draft with the premium writer",
      execute: () => undefined,
    }),
    new ActionSpec({ name: "publish", preconditions: { drafted: true }, effects: { published: true }, cost: 1, execute: () => undefined }),
  ];
}
