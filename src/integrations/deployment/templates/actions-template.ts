/** @internal `src/actions.ts` of a scaffolded deployment: the starter domain the user replaces with their own. */
export function actionsTemplate(): string {
  return `import { ActionSpec, type WorldState } from "langgoap/core";

/**
 * Your agent's actions: what each needs (preconditions), what it changes
 * (effects), what it costs, and the code that does it (execute). The
 * planner picks the cheapest sequence that reaches the goal a client sends;
 * when an action fails, the graph replans around it.
 *
 * This starter domain researches a topic, drafts it with a fast writer
 * (cost 1, down while \`fast_writer_down\` is true) or a premium one (cost 4),
 * publishes, and mails a newsletter once a human approves. Replace it with
 * your own actions.
 */
const topicOf = (state: Readonly<WorldState>) => (typeof state.topic === "string" && state.topic !== "" ? state.topic : "GOAP");

export const actions: ActionSpec[] = [
  new ActionSpec({
    name: "research",
    effects: { researched: true },
    cost: 1,
    description: "Collect notes on the topic.",
    execute: (state) => ({ researched: true, notes: \`Notes on \${topicOf(state)}: goals, actions, preconditions, effects.\` }),
  }),
  new ActionSpec({
    name: "write_fast",
    preconditions: { researched: true },
    effects: { drafted: true },
    cost: 1,
    description: "Draft quickly with the fast writer.",
    execute: (state) => {
      if (state.fast_writer_down === true) throw new Error("fast writer unavailable (503)");
      return { drafted: true, article: \`\${topicOf(state)}, briefly. \${String(state.notes ?? "")}\` };
    },
  }),
  new ActionSpec({
    name: "write_premium",
    preconditions: { researched: true },
    effects: { drafted: true },
    cost: 4,
    description: "Draft carefully with the premium writer.",
    execute: (state) => ({ drafted: true, article: \`\${topicOf(state)}, in depth. \${String(state.notes ?? "")}\` }),
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
`;
}
