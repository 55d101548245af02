import { type ActionSpec, callTracer, describeValue, type GoalSpec, LangGoapError, type WorldState } from "../core/index.js";
import { RuleBasedClassifier, runClassifier, type StrategyClassifier } from "./classifier.js";
import { extractFeatures, type ProblemFeatures } from "./features.js";
import type { TransitionModel } from "./transitions.js";
import type { Plan, PlanningStrategy, StrategyContext, StrategyResult } from "./types.js";

/** Options of {@link StrategyRouter}. */
export interface StrategyRouterOptions {
  /** The strategies to choose from, by the names the classifier returns. */
  readonly strategies: Readonly<Record<string, PlanningStrategy>> | ReadonlyMap<string, PlanningStrategy>;
  /** @defaultValue a default {@link RuleBasedClassifier} */
  readonly classifier?: StrategyClassifier;
  /** The model features are measured against (stochastic? risk-averse?). @defaultValue the declared effects (deterministic, strict) */
  readonly transitionModel?: TransitionModel;
  /** Strategy used when the classifier names an unregistered one and `onUnknown` is `"default"`. @defaultValue "astar" */
  readonly default?: string;
  /** What an unregistered name does: throw `UNKNOWN_STRATEGY`, or fall back to `default`. @defaultValue "raise" */
  readonly onUnknown?: "raise" | "default";
  /** Told every choice. A throwing hook is ignored. */
  readonly onStrategyChosen?: (name: string, features: ProblemFeatures) => void;
}

/**
 * Chooses a strategy per problem: measures it with {@link extractFeatures},
 * asks the classifier for a name, and delegates to the strategy registered
 * under that name. The choice is kept in `lastChosen`, given to the
 * `onStrategyChosen` hook and to the tracer's `onStrategyChosen`.
 *
 * @example
 * ```ts
 * const router = new StrategyRouter({
 *   strategies: { astar: new AStarStrategy(), mcts: new MCTSStrategy({ transitionModel: slippery }) },
 *   transitionModel: slippery,
 *   classifier: new RuleBasedClassifier({ preferMctsForStochastic: true }),
 * });
 * await router.plan(start, goal, actions);
 * router.lastChosen; // "mcts"
 * ```
 */
export class StrategyRouter implements PlanningStrategy {
  readonly name = "router";
  readonly strategies: ReadonlyMap<string, PlanningStrategy>;
  readonly classifier: StrategyClassifier;
  readonly transitionModel: TransitionModel | undefined;
  readonly defaultName: string;
  readonly onUnknown: "raise" | "default";
  readonly #onStrategyChosen: ((name: string, features: ProblemFeatures) => void) | undefined;
  #lastChosen: string | undefined;
  #lastFeatures: ProblemFeatures | undefined;

  constructor(options: StrategyRouterOptions) {
    const raw: unknown = options?.strategies;
    if (typeof raw !== "object" || raw === null) {
      throw new LangGoapError("INVALID_OPTION", `StrategyRouter.strategies must map names to strategies, got ${describeValue(raw)}`);
    }
    const entries =
      raw instanceof Map ? [...(raw as ReadonlyMap<string, PlanningStrategy>)] : Object.entries(raw as Record<string, PlanningStrategy>);
    if (entries.length === 0) throw new LangGoapError("INVALID_OPTION", "StrategyRouter.strategies must register at least one strategy");
    for (const [name, strategy] of entries) {
      if (typeof strategy?.plan !== "function") {
        throw new LangGoapError(
          "INVALID_OPTION",
          `StrategyRouter.strategies["${name}"] must have a plan() method, got ${describeValue(strategy)}`,
        );
      }
    }
    this.strategies = new Map(entries);
    const onUnknown = options.onUnknown ?? "raise";
    if (onUnknown !== "raise" && onUnknown !== "default") {
      throw new LangGoapError("INVALID_OPTION", `StrategyRouter.onUnknown must be "raise" or "default", got ${describeValue(onUnknown)}`);
    }
    this.onUnknown = onUnknown;
    this.defaultName = options.default ?? "astar";
    if (onUnknown === "default" && !this.strategies.has(this.defaultName)) {
      throw new LangGoapError(
        "UNKNOWN_STRATEGY",
        `StrategyRouter.default "${this.defaultName}" is not registered; registered strategies are [${[...this.strategies.keys()].join(", ")}]`,
      );
    }
    const classifier = options.classifier ?? new RuleBasedClassifier();
    if (typeof classifier !== "function" && typeof (classifier as { classify?: unknown })?.classify !== "function") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `StrategyRouter.classifier must be a function or have classify(), got ${describeValue(classifier)}`,
      );
    }
    this.classifier = classifier;
    this.transitionModel = options.transitionModel;
    this.#onStrategyChosen = options.onStrategyChosen;
  }

  /** The name chosen by the last call of {@link plan}. */
  get lastChosen(): string | undefined {
    return this.#lastChosen;
  }

  /** The features measured by the last call of {@link plan}. */
  get lastFeatures(): ProblemFeatures | undefined {
    return this.#lastFeatures;
  }

  /** The name the router would use for a problem with these features (applies `onUnknown`). */
  choose(features: ProblemFeatures): string {
    const name: unknown = runClassifier(this.classifier, features);
    if (typeof name === "string" && this.strategies.has(name)) return name;
    if (this.onUnknown === "default") return this.defaultName;
    throw new LangGoapError(
      "UNKNOWN_STRATEGY",
      `the classifier chose ${describeValue(name)}, which is not a registered strategy; registered strategies are [${[...this.strategies.keys()].join(", ")}]`,
      { chosen: name, registered: [...this.strategies.keys()] },
    );
  }

  async plan(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<Plan | null> {
    return this.#route(start, goal, actions, context).plan(start, goal, actions, context);
  }

  /** The chosen strategy's detailed result when it gives one; otherwise its plan, `null` read as `no_plan`. */
  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    const strategy = this.#route(start, goal, actions, context);
    if (strategy.planDetailed) return strategy.planDetailed(start, goal, actions, context);
    const plan = await strategy.plan(start, goal, actions, context);
    return { plan, status: plan ? "found" : context.signal?.aborted ? "aborted" : "no_plan" };
  }

  #route(start: Readonly<WorldState>, goal: GoalSpec, actions: readonly ActionSpec[], context: StrategyContext): PlanningStrategy {
    const features = extractFeatures(start, goal, actions, {
      ...(this.transitionModel ? { transitionModel: this.transitionModel } : {}),
      ...(context.blacklisted ? { blacklisted: context.blacklisted } : {}),
    });
    const name = this.choose(features);
    this.#lastChosen = name;
    this.#lastFeatures = features;
    try {
      this.#onStrategyChosen?.(name, features);
    } catch {
      // Observers never change the outcome of planning.
    }
    callTracer(context.tracer, "onStrategyChosen", name);
    return this.strategies.get(name) as PlanningStrategy;
  }
}
