import { describeValue, LangGoapError } from "../../core/errors.js";
import type { ProblemFeatures } from "../features.js";

/**
 * Picks a strategy name for a problem. A plain function is a classifier;
 * so is any object with a `classify` method (like {@link RuleBasedClassifier}).
 */
export type StrategyClassifier = ((features: ProblemFeatures) => string) | { classify(features: ProblemFeatures): string };

/** Options of {@link RuleBasedClassifier}. */
export interface RuleBasedClassifierOptions {
  /** Actions from which a problem counts as wide. @defaultValue 30 */
  readonly branchingThreshold?: number;
  /** Horizon estimate from which a problem counts as deep. @defaultValue 20 */
  readonly horizonThreshold?: number;
  /** Send every stochastic problem to MCTS. @defaultValue false */
  readonly preferMctsForStochastic?: boolean;
}

/** The names {@link RuleBasedClassifier} returns. */
export type RuleBasedStrategyName = "csp-pipeline" | "mcts" | "astar";

/**
 * LangGOAP's routing rules, first match wins:
 * 1. the goal has constraints, objectives or metrics → `"csp-pipeline"`;
 * 2. the transition model's divergence policy is risk-averse → `"mcts"`;
 * 3. the model is stochastic and `preferMctsForStochastic` is set → `"mcts"`;
 * 4. `actionCount >= branchingThreshold` and `horizonEstimate >= horizonThreshold` → `"mcts"`;
 * 5. otherwise → `"astar"`.
 *
 * @example
 * ```ts
 * new RuleBasedClassifier().classify(extractFeatures(start, goal, actions)); // "astar"
 * ```
 */
export class RuleBasedClassifier {
  readonly branchingThreshold: number;
  readonly horizonThreshold: number;
  readonly preferMctsForStochastic: boolean;

  constructor(options: RuleBasedClassifierOptions = {}) {
    const check = (field: string, value: number) => {
      if (!(typeof value === "number" && value >= 0)) {
        throw new LangGoapError("INVALID_OPTION", `RuleBasedClassifier.${field} must be a number >= 0, got ${describeValue(value)}`);
      }
      return value;
    };
    this.branchingThreshold = check("branchingThreshold", options.branchingThreshold ?? 30);
    this.horizonThreshold = check("horizonThreshold", options.horizonThreshold ?? 20);
    this.preferMctsForStochastic = options.preferMctsForStochastic ?? false;
    Object.freeze(this);
  }

  classify(features: ProblemFeatures): RuleBasedStrategyName {
    if (features.hasConstraints || features.hasObjectives || features.hasMetrics || features.hasSoftGoals) return "csp-pipeline";
    if (features.riskProfile === "risk-averse") return "mcts";
    if (features.isStochastic && this.preferMctsForStochastic) return "mcts";
    if (features.actionCount >= this.branchingThreshold && features.horizonEstimate >= this.horizonThreshold) return "mcts";
    return "astar";
  }
}

/**
 * Runs any {@link StrategyClassifier}: a function, or an object with `classify`.
 *
 * @example
 * ```ts
 * runClassifier((f) => (f.isStochastic ? "mcts" : "astar"), features);
 * ```
 */
export function runClassifier(classifier: StrategyClassifier, features: ProblemFeatures): string {
  return typeof classifier === "function" ? classifier(features) : classifier.classify(features);
}
