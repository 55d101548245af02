/**
 * Per-entity goals: a support agent closes tickets. The open tickets are a
 * collection in the world state; `MultiGoal.perEntity` turns the template
 * "ticket_{entity}_closed" into one subgoal per ticket, and the three modes
 * answer three questions:
 *
 * - sequential: close every ticket, one after another;
 * - any: close whichever ticket is cheapest to close;
 * - best_value: close the ticket worth most for its cost (priority - cost).
 *
 * Run: npx tsx examples/ticket-closer.ts
 */
import { ActionSpec, MultiGoal, type WorldState } from "../src/core/index.js";
import { GoapGraph, type GoapLogger, successfulActionNames } from "../src/graph/index.js";

interface Ticket {
  readonly id: string;
  readonly effort: number;
  readonly priority: number;
}

const tickets: Ticket[] = [
  { id: "T1", effort: 2, priority: 3 },
  { id: "T2", effort: 5, priority: 20 },
  { id: "T3", effort: 1, priority: 2 },
];

const worked: string[] = [];

/** Every ticket gets the same three steps; the fix costs the ticket's effort. */
function ticketActions(ticket: Ticket): ActionSpec[] {
  const key = (fact: string) => `ticket_${ticket.id}_${fact}`;
  const step = (name: string, cost: number, pre: Record<string, boolean>, fact: string) =>
    new ActionSpec({
      name: `${name}_${ticket.id}`,
      preconditions: pre,
      effects: { [key(fact)]: true },
      cost,
      execute: () => void worked.push(`${name}_${ticket.id}`),
    });
  return [
    step("triage", 1, {}, "triaged"),
    step("fix", ticket.effort, { [key("triaged")]: true }, "fixed"),
    step("close", 1, { [key("fixed")]: true }, "closed"),
  ];
}

function check(condition: boolean, message: string): void {
  if (!condition) {
    console.error(`FAILED: ${message}`);
    process.exit(1);
  }
  console.log(`ok - ${message}`);
}

const actions = tickets.flatMap(ticketActions);
const start: WorldState = { open_tickets: tickets.map((t) => t.id) };
const template = { "ticket_{entity}_closed": true };
const quiet: GoapLogger = { debug() {}, info() {}, warn() {}, error() {} };
const graph = new GoapGraph(actions, { logger: quiet });

const everyTicket = MultiGoal.perEntity({ state: start, key: "open_tickets" }, template, "sequential");
const all = await graph.invoke(everyTicket, start);
console.log(`sequential: ${all.status}; ${successfulActionNames(all).join(", ")}`);
check(all.status === "goal_achieved", "every open ticket gets closed");
check(
  tickets.every((t) => all.worldState[`ticket_${t.id}_closed`] === true),
  "T1, T2 and T3 are closed",
);
check(successfulActionNames(all).join(",") === "triage_T1,fix_T1,close_T1,triage_T2,fix_T2,close_T2,triage_T3,fix_T3,close_T3", "in order");

worked.length = 0;
const cheapest = await graph.invoke(MultiGoal.perEntity({ state: start, key: "open_tickets" }, template, "any"), start);
console.log(`any: ${cheapest.status}; ${worked.join(", ")}`);
check(cheapest.status === "goal_achieved" && worked.join(",") === "triage_T3,fix_T3,close_T3", "'any' closes the cheapest ticket (T3)");

worked.length = 0;
const value = Object.fromEntries(tickets.map((t) => [t.id, t.priority]));
const best = await graph.invoke(MultiGoal.perEntity({ state: start, key: "open_tickets" }, template, "best_value", { value }), start);
console.log(`best_value: ${best.status}; ${worked.join(", ")}`);
check(best.status === "goal_achieved" && worked.join(",") === "triage_T2,fix_T2,close_T2", "'best_value' closes T2 (priority 20, cost 7)");
