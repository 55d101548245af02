import { ActionSpec, type WorldState } from "../../core/index.js";

/**
 * The sample domain served by the deployment entry: research a topic, draft
 * it with the fast writer (cost 1) or the premium writer (cost 4), then
 * publish. The fast writer fails while `fast_writer_down` is true, so a
 * client can watch a deployed run replan to the premium writer by sending
 * `{ "worldState": { "topic": "...", "fast_writer_down": true } }`. The goal
 * `{ "newsletter_sent": true }` adds a newsletter that waits for a human's
 * approval: the run pauses at an interrupt until a client resumes it.
 *
 * Deterministic and offline: the writers compose text from the state.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(createPublishingActions());
 * (await graph.invoke({ published: true }, { topic: "GOAP" })).worldState.article;
 * ```
 */
export function createPublishingActions(): ActionSpec[] {
  const topicOf = (state: Readonly<WorldState>) => (typeof state.topic === "string" && state.topic !== "" ? state.topic : "GOAP");
  return [
    new ActionSpec({
      name: "research",
      effects: { researched: true },
      cost: 1,
      description: "Collect notes on the topic.",
      execute: (state) => ({ researched: true, notes: `Notes on ${topicOf(state)}: goals, actions, preconditions, effects.` }),
    }),
    new ActionSpec({
      name: "write_fast",
      preconditions: { researched: true },
      effects: { drafted: true },
      cost: 1,
      description: "Draft quickly with the fast writer.",
      execute: (state) => {
        if (state.fast_writer_down === true) throw new Error("fast writer unavailable (503)");
        return { drafted: true, article: `${topicOf(state)}, briefly. ${String(state.notes ?? "")}` };
      },
    }),
    new ActionSpec({
      name: "write_premium",
      preconditions: { researched: true },
      effects: { drafted: true },
      cost: 4,
      description: "Draft carefully with the premium writer.",
      execute: (state) => ({ drafted: true, article: `${topicOf(state)}, in depth. ${String(state.notes ?? "")}` }),
    }),
    new ActionSpec({
      name: "publish",
      preconditions: { drafted: true },
      effects: { published: true },
      cost: 1,
      description: "Publish the drafted article.",
    }),
    new ActionSpec({
      name: "send_newsletter",
      preconditions: { published: true },
      effects: { newsletter_sent: true },
      cost: 1,
      requireHumanApproval: true,
      description: "Mail the published article to subscribers, once a human approves.",
    }),
  ];
}
