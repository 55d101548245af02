import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { RunnableConfig } from "@langchain/core/runnables";
import { type ActionSpec, describeValue, type FactCatalog, type GoalSpec, LangGoapError, type WorldState } from "../core/index.js";
import { GoalInterpreter, type GoalInterpreterOptions, KeywordGoalInterpreter } from "../nl/index.js";
import type { NotUnderstood } from "./goap-chat-report.js";
import type { GoalInterpreterKind } from "./resolve-goal.js";

/** A request read as a goal, or why it could not be. */
export type ChatInterpretation =
  | { readonly ok: true; readonly goal: GoalSpec; readonly reasoning: string | null }
  | { readonly ok: false; readonly why: NotUnderstood };

/** @internal Reads one chat request as a goal; a request that names no goal comes back as `ok: false`, a broken model call throws. */
export type ChatInterpreter = (
  request: string,
  worldState: Readonly<WorldState>,
  config: RunnableConfig | undefined,
) => Promise<ChatInterpretation>;

/** @internal What the chat agent's interpreter needs. */
export interface ChatInterpreterOptions {
  readonly llm?: BaseChatModel | undefined;
  readonly interpreter?: GoalInterpreterKind | undefined;
  readonly facts?: FactCatalog | undefined;
  readonly interpreterOptions?: Omit<GoalInterpreterOptions, "facts"> | undefined;
}

/**
 * LangGraph's "messages" stream carries chat model output to the user; the
 * interpreter's structured answer (a goal as JSON) is not a reply, so its
 * model call is tagged out of that stream.
 */
const NO_STREAM_TAG = "langsmith:nostream";

/**
 * @internal The chat agent's interpreter: a {@link GoalInterpreter} over
 * `llm` (the default), or the offline {@link KeywordGoalInterpreter}. Answers
 * the interpreter rejected (unknown facts, no goal, a refusal) become
 * `ok: false` with the reason; a failed model call (network, 5xx, abort)
 * throws, so the turn fails rather than telling the user their request was
 * not understood.
 */
export function createChatInterpreter(actions: readonly ActionSpec[], options: ChatInterpreterOptions, where: string): ChatInterpreter {
  const kind = options.interpreter ?? "llm";
  const facts = options.facts;
  if (kind === "keyword") {
    const keyword = new KeywordGoalInterpreter(actions, facts ? { facts } : {});
    const knownFacts = [...keyword.facts.keys()];
    return async (request, worldState) => {
      try {
        const read = keyword.interpretSync(request, worldState);
        return { ok: true, goal: read.goal, reasoning: read.reasoning };
      } catch (error) {
        if (!(error instanceof LangGoapError) || error.code !== "INTERPRETER_ERROR") throw error;
        return { ok: false, why: { request, reason: "no fact or action I know matches your words", unknownFacts: [], knownFacts } };
      }
    };
  }
  if (kind !== "llm") {
    throw new LangGoapError("INVALID_OPTION", `${where}: interpreter must be "llm" or "keyword", got ${describeValue(kind)}`);
  }
  if (!options.llm) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `${where}: options.llm (a LangChain chat model) is required to read messages as goals, or options.interpreter: "keyword" for offline keyword matching`,
    );
  }
  const model = new GoalInterpreter(options.llm, actions, { ...options.interpreterOptions, ...(facts ? { facts } : {}) });
  const knownFacts = [...model.facts.keys()];
  return async (request, worldState, config) => {
    const tagged = { ...config, tags: [...(config?.tags ?? []), NO_STREAM_TAG] };
    try {
      const read = await model.interpretDetailed(request, worldState, tagged);
      return { ok: true, goal: read.goal, reasoning: read.interpreted.reasoning ?? null };
    } catch (error) {
      const rejected = answerRejection(error);
      if (!rejected) throw error;
      return { ok: false, why: { request, ...rejected, knownFacts } };
    }
  };
}

/** The reason and unknown facts of an interpreter error that rejected the model's answers (not a failed call). */
function answerRejection(error: unknown): { reason: string; unknownFacts: string[] } | undefined {
  if (!(error instanceof LangGoapError)) return undefined;
  const problems = error.details.problems;
  // Only rejected answers carry `problems`; a failed call carries `attempts` instead.
  if ((error.code !== "UNKNOWN_FACT" && error.code !== "INTERPRETER_ERROR") || !Array.isArray(problems)) return undefined;
  const unknownFacts = Array.isArray(error.details.unknownFacts) ? error.details.unknownFacts.map(String) : [];
  const last = problems[problems.length - 1];
  return { reason: typeof last === "string" ? last : error.message, unknownFacts };
}
