import type { ActionSpec } from "../core/action.js";
import { formatCondition } from "../core/conditions.js";
import type { WorldState } from "../core/facts.js";
import { type GoalLike, toGoalSpec } from "../core/goal.js";
import { compileProblem } from "./compile.js";
import { RelaxedModel, relaxedReachability } from "./heuristics/relaxed-model.js";
import type { NoPlanExplanation } from "./types.js";

/**
 * Explains why no plan reaches `goal`: goal conditions no sequence of
 * actions can make true, preconditions nothing establishes, and actions that
 * can never run. Computed by relaxed reachability, so numeric conditions are
 * understood (`wood >= 3` is reachable when some action increases wood).
 *
 * @example
 * ```ts
 * explainNoPlan({}, { has_food: true }, [goToTree]).unreachableConditions; // ["has_food = true"]
 * ```
 */
export function explainNoPlan(start: Readonly<WorldState>, goal: GoalLike, actions: readonly ActionSpec[]): NoPlanExplanation {
  const spec = toGoalSpec(goal);
  const problem = compileProblem(start, spec, actions);
  const model = new RelaxedModel(problem, problem.start);
  const { atomReachable, actionReachable } = relaxedReachability(model, problem.start);

  const producers: string[][] = problem.atoms.map(() => []);
  for (const a of problem.actions) {
    for (let k = model.achStart[a.index] as number; k < (model.achStart[a.index + 1] as number); k++) {
      (producers[model.achAtom[k] as number] as string[]).push(a.spec.name);
    }
  }
  const hasAchiever = producers.map((list) => list.length > 0);
  const unreachableGoalAtoms = [...new Set(problem.goalAtoms)].filter((id) => !atomReachable[id]);
  const format = (id: number) => formatCondition(problem.atoms[id]!.keyName, problem.atoms[id]!.condition);
  const unreachableConditions = unreachableGoalAtoms.map(format);
  const unproduced = unreachableGoalAtoms.filter((id) => !hasAchiever[id]);
  const blocked = unreachableGoalAtoms.filter((id) => hasAchiever[id]);
  const isPrecondition = new Uint8Array(problem.atoms.length);
  for (const a of problem.actions) for (const id of a.preAtoms) isPrecondition[id] = 1;
  const missing = new Set<string>();
  problem.atoms.forEach((atom, id) => {
    if (isPrecondition[id] && !atomReachable[id] && !hasAchiever[id]) missing.add(formatCondition(atom.keyName, atom.condition));
  });
  const missingPreconditions = [...missing];
  const unusableActions = problem.actions.filter((a) => !actionReachable[a.index]).map((a) => a.spec.name);

  const parts: string[] = [];
  if (unproduced.length > 0) {
    parts.push(
      `Goal condition(s) [${unproduced.map(format).join(", ")}] are produced by no action. ` +
        "Add an action whose effects establish them, or check the goal for typos.",
    );
  }
  if (blocked.length > 0) {
    const names = [...new Set(blocked.flatMap((id) => producers[id] as string[]))];
    parts.push(
      `Goal condition(s) [${blocked.map(format).join(", ")}] are produced only by actions that can never run here ([${names.join(", ")}]), ` +
        "because their own preconditions cannot be established.",
    );
  }
  if (missingPreconditions.length > 0) {
    parts.push(
      `Precondition(s) [${missingPreconditions.join(", ")}] are required by actions but are neither true now nor produced by any action. ` +
        "Set them in the world state or add an action that produces them.",
    );
  }
  if (parts.length === 0) {
    parts.push(
      "Every goal condition is reachable when actions' side effects are ignored, but no ordering of the actions reaches the goal: " +
        "effects undo each other, an action allowed once (canRerun: false) is needed twice, or numeric bounds block the way.",
    );
  }
  return {
    unreachableConditions,
    missingPreconditions,
    unusableActions,
    suggestion: parts.join(" "),
  };
}
