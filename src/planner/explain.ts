import type { ActionSpec } from "../core/action.js";
import { formatCondition } from "../core/conditions.js";
import type { WorldState } from "../core/facts.js";
import type { GoalLike } from "../core/goal.js";
import { type SearchGoal, searchGoalOf } from "../core/search-goal.js";
import { compileSteps } from "./compile.js";
import { relaxedModelSteps, relaxedReachability } from "./heuristics/relaxed-model.js";
import { PACE_EVERY, type Pace, runUnpaced, unpaced } from "./pace.js";
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
export function explainNoPlan(start: Readonly<WorldState>, goal: GoalLike | SearchGoal, actions: readonly ActionSpec[]): NoPlanExplanation {
  return runUnpaced(explanationSteps(start, goal, actions, unpaced()));
}

/**
 * @internal {@link explainNoPlan} in slices (see `Pace`): compiling a wide
 * world again and walking its atoms took tens of ms in one go. The same
 * explanation, whatever the slices.
 */
export function* explanationSteps(
  start: Readonly<WorldState>,
  goal: GoalLike | SearchGoal,
  actions: readonly ActionSpec[],
  pace: Pace,
): Generator<void, NoPlanExplanation, void> {
  const spec = searchGoalOf(goal);
  const problem = yield* compileSteps(start, spec, actions, pace);
  const model = yield* relaxedModelSteps(problem, problem.start, pace);
  yield* pace.check();
  const { atomReachable, actionReachable } = relaxedReachability(model, problem.start);
  yield* pace.check();

  const producers: string[][] = [];
  for (let id = 0; id < problem.atoms.length; id++) {
    producers.push([]);
    if (id % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
  }
  for (const a of problem.actions) {
    for (let k = model.achStart[a.index] as number; k < (model.achStart[a.index + 1] as number); k++) {
      (producers[model.achAtom[k] as number] as string[]).push(a.spec.name);
    }
    if (a.index % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
  }
  const hasAchiever = producers.map((list) => list.length > 0);
  const unreachableGoalAtoms = [...new Set(problem.goalAtoms)].filter((id) => !atomReachable[id]);
  const format = (id: number) => formatCondition(problem.atoms[id]!.keyName, problem.atoms[id]!.condition);
  const unreachableConditions: string[] = [];
  for (const id of unreachableGoalAtoms) {
    unreachableConditions.push(format(id));
    if (unreachableConditions.length % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
  }
  const unproduced = unreachableGoalAtoms.filter((id) => !hasAchiever[id]);
  const blocked = unreachableGoalAtoms.filter((id) => hasAchiever[id]);
  const isPrecondition = new Uint8Array(problem.atoms.length);
  for (const a of problem.actions) {
    for (const id of a.preAtoms) isPrecondition[id] = 1;
    if (a.index % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
  }
  const missing = new Set<string>();
  for (let id = 0; id < problem.atoms.length; id++) {
    const atom = problem.atoms[id]!;
    if (isPrecondition[id] && !atomReachable[id] && !hasAchiever[id]) missing.add(formatCondition(atom.keyName, atom.condition));
    if (id % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
  }
  const missingPreconditions = [...missing];
  const unusableActions: string[] = [];
  for (const a of problem.actions) {
    if (!actionReachable[a.index]) unusableActions.push(a.spec.name);
    if (a.index % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
  }

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
