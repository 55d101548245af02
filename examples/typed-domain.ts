/**
 * Typed domain: the facts defined once with zod, and every action, goal,
 * start state and result checked against them by the compiler.
 *
 * A woodcutter buys an axe, chops and sells wood. `defineDomain` turns the
 * zod object into a builder: a typo in a fact name (`has_axee`), a string
 * where a number is declared, `inc` on a boolean or a wrong update returned
 * by `execute` are compile errors (see test/types/typed-domain.test-d.ts),
 * and `result.worldState` is typed. At run time the builder makes the
 * ordinary ActionSpec / GoapGraph: this script checks that the typed and
 * untyped APIs find the same plan, runs it, and checks a bad start state is
 * refused by the zod schema.
 *
 * Run: npx tsx examples/typed-domain.ts
 */
import { z } from "zod";
import { ActionSpec, defineDomain, LangGoapError, plan, successfulActionNames } from "../src/index.js";

const d = defineDomain({
  facts: z.object({
    has_axe: z.boolean(),
    wood: z.number().min(0),
    gold: z.number().min(0),
    log: z.array(z.string()).default([]),
  }),
});

const buyAxe = d.action({
  name: "buy_axe",
  preconditions: { has_axe: false, gold: { gte: 3 } },
  effects: { has_axe: true, gold: { dec: 3 } },
  cost: 1,
});
const chop = d.action({
  name: "chop",
  preconditions: { has_axe: true },
  effects: { wood: { inc: 2 } },
  cost: 2,
  // `s` is typed; the returned update must name declared facts with their types.
  execute: async (s) => ({ wood: s.wood + 2, log: [...s.log, `chopped at ${s.wood}`] }),
});
const sell = d.action({
  name: "sell",
  preconditions: { wood: { gte: 2 } },
  effects: (s) => ({ wood: s.wood - 2, gold: s.gold + 1 }),
  effectKeys: ["wood", "gold"],
  cost: 1,
});
const actions = [buyAxe, chop, sell];

// A start state checked against the schema at run time (zod fills the default log).
const start = d.state({ has_axe: false, wood: 0, gold: 3 });
const goal = d.goal({ conditions: { gold: { gte: 1 }, has_axe: true } });

const problems: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok   " : "WRONG"} ${what}`);
  if (!ok) problems.push(what);
};

const typed = d.plan(start, goal, actions);
// The same domain written untyped, as before typed domains: the planner cannot tell the two apart.
const untyped = plan({ has_axe: false, wood: 0, gold: 3, log: [] }, { gold: { gte: 1 }, has_axe: true }, [
  new ActionSpec({
    name: "buy_axe",
    preconditions: { has_axe: false, gold: { gte: 3 } },
    effects: { has_axe: true, gold: { dec: 3 } },
    cost: 1,
  }),
  new ActionSpec({ name: "chop", preconditions: { has_axe: true }, effects: { wood: { inc: 2 } }, cost: 2 }),
  new ActionSpec({
    name: "sell",
    preconditions: { wood: { gte: 2 } },
    effects: (s) => ({ wood: (s.wood as number) - 2, gold: (s.gold as number) + 1 }),
    effectKeys: ["wood", "gold"],
    cost: 1,
  }),
]);
console.log(`plan  ${typed?.actionNames.join(" -> ")}  (cost ${typed?.totalCost})`);
check(typed?.actionNames.join() === "buy_axe,chop,sell", "the typed plan is buy_axe -> chop -> sell");
check(
  typed?.actionNames.join() === untyped?.actionNames.join() && typed?.totalCost === untyped?.totalCost,
  "the untyped API plans the same",
);
check(typed?.finalState.gold === 1, "the plan's final state (typed) holds 1 gold");

const result = await d.graph(actions).invoke(goal, start);
// `result.worldState` is the zod type: `.log` is a string[], `.gold` a number.
console.log(`run   ${result.status}: ${successfulActionNames(result).join(" -> ")}; log ${JSON.stringify(result.worldState.log)}`);
check(result.status === "goal_achieved", "the graph reaches the goal");
check(result.worldState.gold === 1 && result.worldState.log.length === 1, "execute's typed update landed in the world state");

try {
  d.state({ has_axe: "yes", wood: 0, gold: 3 });
  check(false, "a bad start state is refused");
} catch (error) {
  const refused = error instanceof LangGoapError && error.code === "INVALID_STATE" && error.message.includes('"has_axe"');
  check(refused, `a bad start state is refused: ${(error as Error).message}`);
}

if (problems.length > 0) {
  console.error(`\n${problems.length} check(s) failed.`);
  process.exitCode = 1;
} else {
  console.log("\nTyped and untyped plan alike; the typed run reached its goal.");
}
