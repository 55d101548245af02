import { describeValue, LangGoapError } from "./errors.js";
import { checkOptionKeys } from "./option-keys.js";

/** The goal options that make a `GoalSpec`, beyond `conditions` and `name`. */
const SPEC_ONLY = ["policy", "objectives", "constraints", "softGoals", "metrics", "value"] as const;

/**
 * @internal A goal given as an object of options, `{ conditions, name? }`,
 * read where a goal may also be bare conditions (`plan`, `invoke`,
 * `MultiGoal`'s goals...): `undefined` for bare conditions. One rule
 * everywhere, as domain files read their goal: an object with its own
 * `conditions` entry is the options form (a fact named `conditions` is
 * written inside it: `{ conditions: { conditions: true } }`). The other
 * goal options (a policy, constraints, objectives...) need a `GoalSpec`.
 *
 * @example
 * ```ts
 * goalObject({ conditions: { wood: 3 }, name: "stock" }); // { conditions: { wood: 3 }, name: "stock" }
 * goalObject({ wood: 3 });                                 // undefined: bare conditions
 * ```
 */
export function goalObject(goal: object, where: string): { readonly conditions: unknown; readonly name?: string } | undefined {
  if (!Object.hasOwn(goal, "conditions")) return undefined;
  const options = goal as { conditions?: unknown; name?: unknown };
  const extra = SPEC_ONLY.find((key) => Object.hasOwn(goal, key) && (goal as Record<string, unknown>)[key] !== undefined);
  if (extra !== undefined) {
    throw new LangGoapError(
      "INVALID_GOAL",
      `${where}: a goal with ${extra} is a GoalSpec: new GoalSpec({ conditions, ${extra}, ... }) (or a typed domain's goal()); ` +
        "an object goal here has conditions and a name only",
      { option: extra },
    );
  }
  checkOptionKeys(goal, GOAL_OBJECT_KEYS, where, "a goal object has conditions and a name");
  if (options.name !== undefined && typeof options.name !== "string") {
    throw new LangGoapError("INVALID_GOAL", `${where}: name must be a string, got ${describeValue(options.name)}`, { option: "name" });
  }
  return options.name === undefined ? { conditions: options.conditions } : { conditions: options.conditions, name: options.name };
}

const GOAL_OBJECT_KEYS = { conditions: true, name: true } as const;
