import type { WorldState } from "../../../core/facts.js";
import { type DecisionNode, decayGraph } from "./node.js";

/** The key of a state with the actions spent on the way to it. */
type KeyOf = (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string;

/** What a search leaves behind for the next one. @internal */
export interface SearchGraph {
  readonly root: DecisionNode;
  readonly table: Map<string, DecisionNode>;
  readonly nextId: number;
  /** Goal, actions and model kind the graph was searched with: another search reuses it only when they match. */
  readonly signature: string;
  readonly keyOf: KeyOf;
}

/** The spent set of a search's start. @internal */
export const NOTHING_SPENT: ReadonlySet<string> = new Set();

/** Graphs larger than this are not carried over to the next search. */
const MAX_REUSED_NODES = 200_000;

/**
 * MCTS's tree reuse (`reuseTree`): keeps the last search graph and hands it,
 * visit counts decayed, to the next search that starts in it, with or
 * without an `advance` in between. Keeps nothing when reuse is off. @internal
 */
export class TreeReuse {
  readonly #enabled: boolean;
  readonly #decay: number;
  #last: SearchGraph | null = null;
  #carryover: SearchGraph | null = null;

  constructor(enabled: boolean, decay: number) {
    this.#enabled = enabled;
    this.#decay = decay;
  }

  /** After a search: the graph it leaves (null: none). */
  keep(graph: SearchGraph | null): void {
    this.#last = this.#enabled ? graph : null;
  }

  /** See {@link MCTSStrategy.advance}: whether the graph was kept for a search from `observedState`. */
  advance(actionName: string, observedState: Readonly<WorldState>): boolean {
    this.#carryover = null;
    const last = this.#last;
    this.#last = null;
    if (!this.#enabled || last === null || last.table.size > MAX_REUSED_NODES) return false;
    if (!last.root.edges.some((edge) => edge.action.name === actionName)) return false;
    if (!last.table.has(last.keyOf(observedState, NOTHING_SPENT))) return false;
    decayGraph(last.table.values(), this.#decay);
    this.#carryover = last;
    return true;
  }

  /** The graph a search from `start` starts from: the one `advance` kept, else the last one when it holds `start`. */
  take(start: Readonly<WorldState>, signature: string, keyOf: KeyOf): { table: Map<string, DecisionNode>; nextId: number } | null {
    return this.#takeCarryover(start, signature, keyOf) ?? this.#reuseLast(start, signature, keyOf);
  }

  /** Without `advance`: the last graph, when the new search starts in it (a graph runs plan after plan). */
  #reuseLast(start: Readonly<WorldState>, signature: string, keyOf: KeyOf): { table: Map<string, DecisionNode>; nextId: number } | null {
    const last = this.#last;
    this.#last = null;
    if (!this.#enabled || last === null || last.signature !== signature || last.table.size > MAX_REUSED_NODES) return null;
    if (!last.table.has(keyOf(start, NOTHING_SPENT))) return null;
    decayGraph(last.table.values(), this.#decay);
    return { table: last.table, nextId: last.nextId };
  }

  #takeCarryover(
    start: Readonly<WorldState>,
    signature: string,
    keyOf: KeyOf,
  ): { table: Map<string, DecisionNode>; nextId: number } | null {
    const carry = this.#carryover;
    this.#carryover = null;
    if (carry === null || carry.signature !== signature) return null;
    return carry.table.has(keyOf(start, NOTHING_SPENT)) ? { table: carry.table, nextId: carry.nextId } : null;
  }
}
