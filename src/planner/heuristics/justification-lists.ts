/**
 * The shape of LM-cut's justification graph, which depends on the problem
 * alone: per action, and per artificial goal action (one past the last
 * action), its distinct preconditions and distinct achieved atoms, and the
 * inverse lists (actions needing an atom, actions achieving it). Atoms are
 * the relaxed model's, plus an artificial init atom (the precondition of
 * actions without one) and goal atom. `justification-graph.ts` computes
 * hmax and cuts over these lists, once per evaluation.
 * @internal
 */
import type { CompiledProblem } from "../compiled-problem.js";
import { type Csr, csrOf, invertCsr } from "../csr.js";
import type { RelaxedModel } from "./relaxed-model.js";

export interface JustificationLists {
  /** The artificial init atom's index (one past the last atom); the goal atom's is one more. */
  readonly init: number;
  readonly goal: number;
  /** The artificial goal action's index (one past the last action). */
  readonly goalAction: number;
  /** Per action: its distinct preconditions, in first-seen order (precondition choices break ties by it). */
  readonly pre: Csr;
  readonly preCount: Int32Array;
  /** Per action: the distinct atoms it achieves. */
  readonly eff: Csr;
  /** Per atom: the actions that need it, and the actions that achieve it. */
  readonly need: Csr;
  readonly ach: Csr;
}

export function justificationLists(p: CompiledProblem, model: RelaxedModel): JustificationLists {
  const nAtoms = p.atoms.length;
  const nActions = p.actions.length;
  const goalAtoms = Int32Array.from(new Set(p.goalAtoms));
  // The goal action needs the goal atoms and achieves the goal.
  const stamp = new Int32Array(nAtoms + 2);
  let visit = 0;
  const distinct = (emit: (item: number) => void) => {
    const mark = ++visit;
    return (atom: number) => {
      if (stamp[atom] === mark) return;
      stamp[atom] = mark;
      emit(atom);
    };
  };
  const pre: Csr = csrOf(nActions + 1, (a, emit) => {
    const add = distinct(emit);
    const list = a < nActions ? p.actions[a]!.preAtoms : goalAtoms;
    for (let k = 0; k < list.length; k++) add(list[k] as number);
    if (list.length === 0) add(nAtoms);
  });
  const eff: Csr = csrOf(nActions + 1, (a, emit) => {
    const add = distinct(emit);
    if (a === nActions) add(nAtoms + 1);
    else for (let k = model.achStart[a] as number; k < (model.achStart[a + 1] as number); k++) add(model.achAtom[k] as number);
  });
  const width = nAtoms + 2;
  return {
    init: nAtoms,
    goal: nAtoms + 1,
    goalAction: nActions,
    pre,
    preCount: Int32Array.from({ length: nActions + 1 }, (_, a) => (pre.start[a + 1] as number) - (pre.start[a] as number)),
    eff,
    need: invertCsr(pre, width),
    ach: invertCsr(eff, width),
  };
}
