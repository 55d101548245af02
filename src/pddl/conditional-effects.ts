import { LangGoapError } from "../core/errors.js";

/** @internal An effect of a ground action: `fluent` is added (or deleted) when every literal of `condition` holds (literals as in ground-formula.ts). */
export interface GroundEffect {
  readonly condition: readonly number[];
  readonly fluent: number;
  readonly add: boolean;
}

/** @internal A ground action without conditional effects. */
export interface PlainOperator {
  readonly pre: readonly number[];
  readonly preFalse: readonly number[];
  readonly add: readonly number[];
  readonly del: readonly number[];
}

/**
 * Compiles a ground action's conditional effects into plain operators the
 * planner takes: the action is split on the truth of one condition atom at
 * a time (the atom most conditions mention), the branch's value becoming a
 * precondition, until every effect is decided; each leaf is one operator
 * with the effects that fire there. The split is exact (effect conditions
 * are read in the state before the action, as PDDL says) and stops at
 * `maxSplit` operators with `PDDL_UNSUPPORTED`. A leaf that changes
 * nothing is left out. Fast Downward's LM-cut refuses conditional effects
 * altogether; once static conditions are decided at grounding, most
 * domains (spider) have none left and need no split.
 */
export function compileConditionalEffects(
  pre: readonly number[],
  preFalse: readonly number[],
  effects: readonly GroundEffect[],
  maxSplit: number,
  where: () => string,
): PlainOperator[] {
  effects = withoutDualConditions(effects);
  const out: PlainOperator[] = [];
  const known = new Map<number, boolean>();
  for (const f of pre) known.set(f, true);
  for (const f of preFalse) known.set(f, false);
  const branchTrue: number[] = [];
  const branchFalse: number[] = [];
  const visit = (pending: readonly GroundEffect[]) => {
    const decided: GroundEffect[] = [];
    const open: GroundEffect[] = [];
    for (const effect of pending) {
      let fires = true;
      const rest: number[] = [];
      for (const literal of effect.condition) {
        const value = known.get(literal >> 1);
        if (value === undefined) rest.push(literal);
        else if (value === ((literal & 1) === 1)) {
          fires = false;
          break;
        }
      }
      if (!fires) continue;
      if (rest.length === 0) decided.push(effect.condition.length === 0 ? effect : { ...effect, condition: [] });
      else open.push({ ...effect, condition: rest });
    }
    if (open.length === 0) {
      const leaf = plainOperator(decided, known, pre, preFalse, branchTrue, branchFalse);
      if (leaf) {
        out.push(leaf);
        if (out.length > maxSplit) {
          throw new LangGoapError(
            "PDDL_UNSUPPORTED",
            `${where()} splits into more than ${maxSplit} operators to compile its conditional effects (option maxSplit)`,
            {
              maxSplit,
            },
          );
        }
      }
      return;
    }
    const counts = new Map<number, number>();
    for (const effect of open) for (const literal of effect.condition) counts.set(literal >> 1, (counts.get(literal >> 1) ?? 0) + 1);
    let atom = -1;
    let best = 0;
    for (const [candidate, count] of counts) {
      if (count > best) {
        atom = candidate;
        best = count;
      }
    }
    const still = [...decided, ...open];
    for (const value of [true, false]) {
      known.set(atom, value);
      (value ? branchTrue : branchFalse).push(atom);
      visit(still);
      (value ? branchTrue : branchFalse).pop();
      known.delete(atom);
    }
  };
  visit(effects);
  return out;
}

/**
 * Fast Downward's translator's first simplification of effect conditions
 * (`prune_stupid_effect_conditions`): `(when (and C (not f)) f)` adds `f`
 * just as `(when C f)` does (when `f` holds, adding it changes nothing), and
 * `(when (and C f) (not f))` deletes it just as `(when C (not f))` does — as
 * long as no effect of the action writes the other value of `f`, which
 * could fire beside it. Schedule's actions, for example, then have no
 * conditional effect left; split as they were, one of them needed more
 * than 256 operators.
 */
function withoutDualConditions(effects: readonly GroundEffect[]): readonly GroundEffect[] {
  const writes = new Map<number, number>(); // fluent -> 1 added, 2 deleted, 3 both
  for (const e of effects) writes.set(e.fluent, (writes.get(e.fluent) ?? 0) | (e.add ? 1 : 2));
  let changed = false;
  const out = effects.map((effect) => {
    if (effect.condition.length === 0 || writes.get(effect.fluent) === 3) return effect;
    // A literal is atom << 1, odd when negated: the dual of adding f is `(not f)`, of deleting it `f`.
    const dual = (effect.fluent << 1) | (effect.add ? 1 : 0);
    if (!effect.condition.includes(dual)) return effect;
    changed = true;
    return { ...effect, condition: effect.condition.filter((literal) => literal !== dual) };
  });
  return changed ? out : effects;
}

function plainOperator(
  effects: readonly GroundEffect[],
  known: ReadonlyMap<number, boolean>,
  pre: readonly number[],
  preFalse: readonly number[],
  branchTrue: readonly number[],
  branchFalse: readonly number[],
): PlainOperator | undefined {
  const adds = new Set<number>();
  const dels = new Set<number>();
  for (const e of effects) (e.add ? adds : dels).add(e.fluent);
  // Add after delete; and what the preconditions already fix is no change.
  const add = [...adds].filter((f) => known.get(f) !== true);
  const del = [...dels].filter((f) => !adds.has(f) && known.get(f) !== false);
  if (add.length === 0 && del.length === 0) return undefined;
  return { pre: [...pre, ...branchTrue], preFalse: [...preFalse, ...branchFalse], add, del };
}
