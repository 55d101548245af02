import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  type ActionSpec,
  type Conditions,
  describeValue,
  GoalSpec,
  LangGoapError,
  MultiGoal,
  toGoalSpec,
  type WorldState,
} from "../core/index.js";
import { GoalInterpreter, type GoalInterpreterOptions, KeywordGoalInterpreter } from "../nl/index.js";

/** How a goal written as a sentence becomes a {@link GoalSpec}: a chat model, or keyword matching (offline, deterministic). */
export type GoalInterpreterKind = "llm" | "keyword";

/** @internal What interpreting sentence goals needs. */
export interface SentenceInterpreterOptions {
  readonly llm?: BaseChatModel | undefined;
  readonly interpreter?: GoalInterpreterKind | undefined;
  readonly interpreterOptions?: GoalInterpreterOptions | undefined;
}

/** @internal Interprets one sentence into a goal. */
export type SentenceInterpreter = (sentence: string, worldState: Readonly<WorldState>, config?: RunnableConfig) => Promise<GoalSpec>;

/**
 * @internal Builds the interpreter for sentence goals: the keyword
 * interpreter when `interpreter` is `"keyword"`, otherwise a
 * {@link GoalInterpreter} over `llm`, which is then required. Built up front
 * so a missing model or a domain without facts fails at construction.
 */
export function createSentenceInterpreter(
  actions: readonly ActionSpec[],
  options: SentenceInterpreterOptions,
  where: string,
): SentenceInterpreter {
  const kind = options.interpreter ?? "llm";
  if (kind === "keyword") {
    const facts = options.interpreterOptions?.facts;
    const keyword = new KeywordGoalInterpreter(actions, facts ? { facts } : {});
    return async (sentence, worldState) => keyword.interpret(sentence, worldState);
  }
  if (kind !== "llm") {
    throw new LangGoapError("INVALID_OPTION", `${where}: interpreter must be "llm" or "keyword", got ${describeValue(kind)}`);
  }
  if (!options.llm) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `${where}: goals written as sentences need options.llm (a LangChain chat model) to interpret them, or options.interpreter: "keyword" for offline keyword matching`,
    );
  }
  const model = new GoalInterpreter(options.llm, actions, options.interpreterOptions);
  return (sentence, worldState, config) => model.interpret(sentence, worldState, config);
}

/**
 * @internal Turns a goal given as a sentence, a goal object or bare
 * conditions into a goal object (sentences through
 * {@link createSentenceInterpreter}).
 */
export async function resolveGoal(
  goal: string | GoalSpec | MultiGoal | Conditions,
  actions: readonly ActionSpec[],
  options: SentenceInterpreterOptions,
  where: string,
): Promise<GoalSpec | MultiGoal> {
  if (goal instanceof GoalSpec || goal instanceof MultiGoal) return goal;
  if (typeof goal === "string") return createSentenceInterpreter(actions, options, where)(goal, {});
  if (typeof goal !== "object" || goal === null || Array.isArray(goal)) {
    throw new LangGoapError(
      "INVALID_GOAL",
      `${where}: goal must be a sentence, a GoalSpec, a MultiGoal or an object of conditions, got ${describeValue(goal)}`,
    );
  }
  return toGoalSpec(goal);
}
