import type { ActionSpec } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import { isPlainRecord } from "../core/names.js";
import type { Rng } from "../core/rng.js";
import type { AgentModel } from "./agent-model.js";
import { DivergencePolicy } from "./divergence-policy.js";
import { DeterministicTransitionModel, type ResolvedOutcome, type TransitionModel } from "./transitions.js";

/**
 * Another agent of the world: how it moves ({@link AgentModel}) and what a
 * move does to the world (`apply` returns the updates, like an action's
 * effects, computed on the state after our action and the agents before it).
 */
export interface ExternalAgent<Move = unknown> {
  /** Names the agent in errors and outcome labels. */
  readonly name: string;
  readonly model: AgentModel<Move>;
  apply(state: Readonly<WorldState>, move: Move): Readonly<Partial<WorldState>>;
}

/** Options of {@link ExternalAgentsTransitionModel}. */
export interface ExternalAgentsTransitionModelOptions {
  /** The other agents, moving in this order after each of our actions. */
  readonly agents: readonly ExternalAgent<unknown>[];
  /** What our own actions do. @defaultValue the declared effects ({@link DeterministicTransitionModel}) */
  readonly base?: TransitionModel;
  /**
   * List every joint outcome for MCTS (the product of the base's outcomes
   * and each agent's moves) when the base and every agent can list theirs.
   * Turn it off when that product grows large. @defaultValue true
   */
  readonly listOutcomes?: boolean;
}

interface Joint {
  probability: number;
  label: string;
  state: WorldState;
}

/**
 * A transition model for worlds with other agents in them: after each of
 * our actions (its outcome from `base`), every external agent moves — its
 * expected move in `expected`, a move drawn with the planner's generator in
 * `sample`, all of them with their probabilities in `distribution` — and
 * the updates of our action and of every move are returned together. MCTS
 * plans over it to avoid what a guard or a ghost may do; deterministic
 * planners see the agents' expected moves. Because `expected` includes
 * facts the actions do not declare, the model carries a
 * {@link DivergencePolicy} saying so.
 *
 * @example
 * ```ts
 * const guard = new UniformRandomAgentModel({ enumerateMoves: (s) => neighbours(s.guard), defaultMove: 0 });
 * const model = new ExternalAgentsTransitionModel({
 *   agents: [{ name: "guard", model: guard, apply: (s, to) => ({ guard: to, caught: s.thief === to }) }],
 * });
 * const mcts = new MCTSStrategy({ transitionModel: model, deadEndPenalty: 1 });
 * ```
 */
export class ExternalAgentsTransitionModel implements TransitionModel {
  readonly stochastic = true;
  readonly divergencePolicy: DivergencePolicy;
  readonly agents: readonly ExternalAgent<unknown>[];
  readonly #base: TransitionModel;
  /** Present when every part can list its outcomes (see `listOutcomes`). */
  readonly distribution?: (state: Readonly<WorldState>, action: ActionSpec) => readonly ResolvedOutcome[];

  constructor(options: ExternalAgentsTransitionModelOptions) {
    const agents: unknown = options?.agents;
    if (!Array.isArray(agents) || agents.length === 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `ExternalAgentsTransitionModel.agents must be a non-empty array of { name, model, apply }, got ${describeValue(agents)}`,
        { field: "agents" },
      );
    }
    const names = new Set<string>();
    for (const [i, agent] of (agents as unknown[]).entries()) checkAgent(agent, i, names);
    this.agents = Object.freeze([...(agents as ExternalAgent<unknown>[])]);
    this.#base = options.base ?? new DeterministicTransitionModel();
    this.divergencePolicy = new DivergencePolicy({
      reason: `other agents (${[...names].join(", ")}) move after each action`,
      kind: "other",
    });
    const base = this.#base;
    const canList =
      (options.listOutcomes ?? true) &&
      (typeof base.distribution === "function" || base.stochastic === false) &&
      this.agents.every((a) => typeof a.model.distribution === "function");
    if (canList) this.distribution = (state, action) => this.#distribution(state, action);
    Object.freeze(this);
  }

  expected(state: Readonly<WorldState>, action: ActionSpec): Readonly<Partial<WorldState>> {
    return this.#afterAgents(state, this.#base.expected(state, action), (agent, now) => agent.model.expected(now));
  }

  sample(state: Readonly<WorldState>, action: ActionSpec, rng: Rng): Readonly<Partial<WorldState>> {
    return this.#afterAgents(state, this.#base.sample(state, action, rng), (agent, now) => agent.model.sample(now, rng));
  }

  #afterAgents(
    state: Readonly<WorldState>,
    ours: Readonly<Partial<WorldState>>,
    pick: (agent: ExternalAgent<unknown>, now: Readonly<WorldState>) => unknown,
  ): Readonly<Partial<WorldState>> {
    const updates: WorldState = { ...ours };
    let now: WorldState = { ...state, ...ours };
    for (const agent of this.agents) {
      const moved = applyMove(agent, now, pick(agent, now));
      Object.assign(updates, moved);
      now = { ...now, ...moved };
    }
    return updates;
  }

  #distribution(state: Readonly<WorldState>, action: ActionSpec): readonly ResolvedOutcome[] {
    const base = this.#base;
    const first =
      typeof base.distribution === "function"
        ? base.distribution(state, action)
        : [{ probability: 1, label: action.name, updates: base.expected(state, action) }];
    let joints: Joint[] = first.map((o) => ({ probability: o.probability, label: o.label, state: { ...state, ...o.updates } }));
    for (const agent of this.agents) {
      const next: Joint[] = [];
      for (const joint of joints) {
        const moves = (agent.model.distribution as NonNullable<AgentModel<unknown>["distribution"]>)(joint.state);
        for (const { move, probability } of moves) {
          if (probability <= 0) continue;
          next.push({
            probability: joint.probability * probability,
            label: `${joint.label}; ${agent.name} ${describeValue(move)}`,
            state: { ...joint.state, ...applyMove(agent, joint.state, move) },
          });
        }
      }
      joints = next;
    }
    return joints.map((j) => ({ probability: j.probability, label: j.label, updates: changedFrom(state, j.state) }));
  }
}

function checkAgent(agent: unknown, index: number, names: Set<string>): void {
  const where = `ExternalAgentsTransitionModel.agents[${index}]`;
  const fail = (what: string, details: Record<string, unknown>) => {
    throw new LangGoapError("INVALID_OPTION", `${where}${what}`, { index, ...details });
  };
  if (typeof agent !== "object" || agent === null) fail(` must be { name, model, apply }, got ${describeValue(agent)}`, {});
  const { name, model, apply } = agent as Partial<ExternalAgent<unknown>>;
  if (typeof name !== "string" || name.trim() === "")
    fail(`.name must be a non-blank string, got ${describeValue(name)}`, { field: "name" });
  if (names.has(name as string)) fail(`.name "${name}" is used by another agent: names must be unique`, { field: "name" });
  names.add(name as string);
  if (typeof model?.expected !== "function" || typeof model?.sample !== "function") {
    fail(` ("${name}").model must be an AgentModel with expected(state) and sample(state, rng), got ${describeValue(model)}`, {
      field: "model",
    });
  }
  if (typeof apply !== "function")
    fail(` ("${name}").apply must be a function (state, move) => updates, got ${describeValue(apply)}`, { field: "apply" });
}

function applyMove(agent: ExternalAgent<unknown>, state: Readonly<WorldState>, move: unknown): Readonly<Partial<WorldState>> {
  const updates: unknown = agent.apply(state, move);
  if (!isPlainRecord(updates)) {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `external agent "${agent.name}": apply(state, ${describeValue(move)}) must return an object of fact updates, got ${describeValue(updates)}`,
      { agent: agent.name, move },
    );
  }
  return updates as Readonly<Partial<WorldState>>;
}

/** The facts of `after` that differ from `before` (own keys only). */
function changedFrom(before: Readonly<WorldState>, after: Readonly<WorldState>): Partial<WorldState> {
  const updates: Partial<WorldState> = {};
  for (const key of Object.keys(after)) if (!Object.is(before[key], after[key])) updates[key] = after[key];
  return updates;
}
