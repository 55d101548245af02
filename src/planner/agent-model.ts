import { describeValue, LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import type { Rng } from "../core/rng.js";

/** One move of another agent with its probability. */
export interface WeightedMove<Move> {
  readonly move: Move;
  readonly probability: number;
}

/**
 * How another agent in the world (a guard, a ghost, a rival bidder) moves,
 * as seen by the agent that plans: the move to expect, and a random move
 * drawn with the planner's seeded generator. Used by
 * {@link ExternalAgentsTransitionModel}, so MCTS can weigh what the others
 * may do after each of our actions.
 *
 * @example
 * ```ts
 * const guard: AgentModel<"left" | "right"> = {
 *   expected: () => "left",
 *   sample: (_state, rng) => (rng.next() < 0.5 ? "left" : "right"),
 * };
 * ```
 */
export interface AgentModel<Move> {
  /** The move the planner should expect in `state` (deterministic planners search over it). */
  expected(state: Readonly<WorldState>): Move;
  /** One random move in `state`, drawn with `rng` only (same seed, same move). */
  sample(state: Readonly<WorldState>, rng: Rng): Move;
  /**
   * Optional: every move with its probability (adding up to 1), so MCTS can
   * list the outcomes of a step instead of sampling them.
   */
  distribution?(state: Readonly<WorldState>): readonly WeightedMove<Move>[];
}

/** Options of {@link UniformRandomAgentModel}. */
export interface UniformRandomAgentModelOptions<Move> {
  /** The moves open to the agent in a state. */
  readonly enumerateMoves: (state: Readonly<WorldState>) => readonly Move[];
  /** The expected move, and the move made when no move is open. */
  readonly defaultMove: Move;
}

/**
 * An agent that picks uniformly among the moves open to it: the usual
 * model of an opponent or a bystander nothing more is known about.
 * `expected` is `defaultMove` (a deterministic planner plans as if the
 * agent made it); `sample` and `distribution` cover every open move.
 *
 * @example
 * ```ts
 * const guard = new UniformRandomAgentModel({
 *   enumerateMoves: (s) => (s.guard === 2 ? [-1, 0] : [-1, 0, 1]),
 *   defaultMove: 0,
 * });
 * guard.sample({ guard: 3 }, createRng(7)); // -1, 0 or 1
 * ```
 */
export class UniformRandomAgentModel<Move> implements AgentModel<Move> {
  readonly #enumerate: (state: Readonly<WorldState>) => readonly Move[];
  readonly #defaultMove: Move;

  constructor(options: UniformRandomAgentModelOptions<Move>) {
    const enumerate: unknown = options?.enumerateMoves;
    if (typeof enumerate !== "function") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `UniformRandomAgentModel.enumerateMoves must be a function from a state to the moves open in it, got ${describeValue(enumerate)}`,
        { field: "enumerateMoves" },
      );
    }
    this.#enumerate = options.enumerateMoves;
    this.#defaultMove = options.defaultMove;
  }

  expected(_state: Readonly<WorldState>): Move {
    return this.#defaultMove;
  }

  sample(state: Readonly<WorldState>, rng: Rng): Move {
    const moves = this.#moves(state);
    return moves.length === 0 ? this.#defaultMove : rng.pick(moves);
  }

  distribution(state: Readonly<WorldState>): readonly WeightedMove<Move>[] {
    const moves = this.#moves(state);
    if (moves.length === 0) return [{ move: this.#defaultMove, probability: 1 }];
    return moves.map((move) => ({ move, probability: 1 / moves.length }));
  }

  #moves(state: Readonly<WorldState>): readonly Move[] {
    const moves: unknown = this.#enumerate(state);
    if (!Array.isArray(moves)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `UniformRandomAgentModel.enumerateMoves must return an array of moves, got ${describeValue(moves)}`,
        { field: "enumerateMoves", value: moves },
      );
    }
    return moves as readonly Move[];
  }
}
