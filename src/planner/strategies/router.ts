import type { ActionSpec } from "../../core/action.js";
import { describeValue, LangGoapError } from "../../core/errors.js";
import type { WorldState } from "../../core/facts.js";
import type { GoalSpec } from "../../core/goal.js";
import { callTracer } from "../../core/tracer.js";
import { extractFeatures, type ProblemFeatures } from "../features.js";
import type { TransitionModel } from "../transitions.js";
import type { PlanningStrategy, StrategyContext, StrategyResult } from "../types.js";
import { BasePlanningStrategy } from "./base.js";
import { RuleBasedClassifier, runClassifier, type StrategyClassifier } from "./classifier.js";

/**
 * Options of {@link StrategyRouter}. `K` is the union of the registered
 * names, inferred from `strategies`: `default` and the names the router
 * reports must be among them.
 */
export interface StrategyRouterOptions<K extends string = string> {
  /** The strategies to choose from, by the names the classifier returns. */
  readonly strategies: Readonly<Record<K, PlanningStrategy>> | ReadonlyMap<K, PlanningStrategy>;
  /** @defaultValue a default {@link RuleBasedClassifier} */
  readonly classifier?: StrategyClassifier;
  /** The model features are measured against (stochastic? risk-averse?). @defaultValue the declared effects (deterministic, strict) */
  readonly transitionModel?: TransitionModel;
  /** Strategy used when the classifier names an unregistered one and `onUnknown` is `"default"`. @defaultValue "astar" */
  readonly default?: NoInfer<K>;
  /** What an unregistered name does: throw `UNKNOWN_STRATEGY`, or fall back to `default`. @defaultValue "raise" */
  readonly onUnknown?: "raise" | "default";
  /** Told every choice. A throwing hook is ignored. */
  readonly onStrategyChosen?: (name: NoInfer<K>, features: ProblemFeatures) => void;
}

/**
 * Chooses a strategy per problem: measures it with {@link extractFeatures},
 * asks the classifier for a name, and delegates to the strategy registered
 * under that name. Typed by its names: `StrategyRouter<"astar" | "mcts">`
 * rejects a `default` it does not register, and `lastChosen` is one of them.
 * The classifier's answer is only known at run time, so it is checked then
 * (`onUnknown`). The choice is kept in `lastChosen`, given to the
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
export class StrategyRouter<K extends string = string> extends BasePlanningStrategy {
  readonly name = "router";
  readonly strategies: ReadonlyMap<K, PlanningStrategy>;
  readonly classifier: StrategyClassifier;
  readonly transitionModel: TransitionModel | undefined;
  /** The `default` option; checked only when `onUnknown` is `"default"` (then it must be registered). */
  readonly defaultName: K;
  readonly onUnknown: "raise" | "default";
  readonly #onStrategyChosen: ((name: K, features: ProblemFeatures) => void) | undefined;
  #lastChosen: K | undefined;
  #lastFeatures: ProblemFeatures | undefined;

  constructor(options: StrategyRouterOptions<K>) {
    super();
    const raw: unknown = options?.strategies;
    if (typeof raw !== "object" || raw === null) {
      throw new LangGoapError("INVALID_OPTION", `StrategyRouter.strategies must map names to strategies, got ${describeValue(raw)}`);
    }
    const entries: [K, PlanningStrategy][] =
      raw instanceof Map ? [...(raw as ReadonlyMap<K, PlanningStrategy>)] : (Object.entries(raw) as [K, PlanningStrategy][]);
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
    // Without a `default`, "astar" is the name used; it need not be registered unless `onUnknown` is "default".
    this.defaultName = options.default ?? ("astar" as K);
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

  /** The name chosen by the last planning call (`plan` or `planDetailed`). */
  get lastChosen(): K | undefined {
    return this.#lastChosen;
  }

  /** The features measured by the last planning call. */
  get lastFeatures(): ProblemFeatures | undefined {
    return this.#lastFeatures;
  }

  /** The name the router would use for a problem with these features (applies `onUnknown`). */
  choose(features: ProblemFeatures): K {
    const name: unknown = runClassifier(this.classifier, features);
    if (typeof name === "string" && this.strategies.has(name as K)) return name as K;
    if (this.onUnknown === "default") return this.defaultName;
    throw new LangGoapError(
      "UNKNOWN_STRATEGY",
      `the classifier chose ${describeValue(name)}, which is not a registered strategy; registered strategies are [${[...this.strategies.keys()].join(", ")}]`,
      { chosen: name, registered: [...this.strategies.keys()] },
    );
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
