import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import type { z } from "zod";
import {
  type ActionSpec,
  describeValue,
  type FactCatalog,
  type GoalSpec,
  LangGoapError,
  validateActions,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { collectFacts, collectResourceKeys, describeFactType, type FactInventory } from "./fact-inventory.js";
import { buildGoalSchema, type InterpretedGoal } from "./goal-schema.js";
import { type AnswerProblem, checkAnswer } from "./interpreted-goal.js";
import {
  DEFAULT_GOAL_SYSTEM_PROMPT,
  fillTemplate,
  type GoalExample,
  renderActionCatalog,
  renderExamples,
  renderFactCatalog,
  renderWorldState,
} from "./prompt.js";
import { invokeModel, type ProviderCallSettings, type ProviderRetryOptions, providerCallSettings } from "./provider-call.js";
import {
  asRejectedAnswer,
  isRawAndParsed,
  parseJsonOutput,
  readRawAnswer,
  type StructuredOutputOptions,
  structuredOutputOptionsFor,
} from "./structured-call.js";

/** Options of {@link GoalInterpreter}. */
export interface GoalInterpreterOptions {
  /**
   * System prompt template. Placeholders `{fact_catalog}`, `{action_catalog}`,
   * `{world_state}` and `{examples}` are filled in; other braces are kept.
   * @defaultValue {@link DEFAULT_GOAL_SYSTEM_PROMPT}
   */
  readonly systemPrompt?: string;
  /** Worked examples shown to the model; each is checked against the goal schema up front. @defaultValue [] */
  readonly examples?: readonly GoalExample[];
  /** Declared facts (types, allowed values, descriptions, synonyms). @defaultValue inferred from the actions */
  readonly facts?: FactCatalog;
  /** Corrective retries after a rejected answer, each with the validation error in the prompt. @defaultValue 1 */
  readonly maxCorrections?: number;
  /** Passed to `withStructuredOutput`. @defaultValue `{ name: "goal" }`, plus function calling for OpenAI models */
  readonly structuredOutput?: StructuredOutputOptions;
  /**
   * Time limit in ms (`Infinity` for none) of one answer's model request,
   * the client's own retries and their waits included; the request is
   * aborted then (its signal) and the interpretation fails with `TIMEOUT`
   * as its cause. A caller's `config.signal` ends it at once too.
   * @defaultValue 60000 (`DEFAULT_MODEL_TIMEOUT_MS`)
   */
  readonly timeoutMs?: number;
  /**
   * Retries of our own, off by default: the chat model client's
   * `maxRetries` is the one retry policy (see {@link ProviderRetryOptions}
   * for the number of calls a failing provider costs with each client).
   * @defaultValue `{ maxAttempts: 1 }`
   */
  readonly retry?: ProviderRetryOptions;
}

/** A goal together with the model's structured answer and how many answers it took. */
export interface InterpretationResult {
  readonly goal: GoalSpec;
  readonly interpreted: InterpretedGoal;
  /** Model calls made (1 when the first answer was valid). */
  readonly attempts: number;
}

const GOAL_INTERPRETER_OPTIONS_KEYS = {
  systemPrompt: true,
  examples: true,
  facts: true,
  maxCorrections: true,
  structuredOutput: true,
  timeoutMs: true,
  retry: true,
} as const satisfies OptionKeys<GoalInterpreterOptions>;

/**
 * Turns a natural-language request into a {@link GoalSpec} with a chat model's
 * structured output. The schema allows exactly the facts the actions require
 * or produce (plus declared ones), typed per fact; a rejected answer (unknown
 * fact, impossible value, refusal, no answer) gets one corrective retry with
 * the problem in the prompt, then a `LangGoapError` listing the allowed facts
 * (`UNKNOWN_FACT` for unknown facts, `INTERPRETER_ERROR` otherwise).
 *
 * @example
 * ```ts
 * const interpreter = new GoalInterpreter(new ChatOpenAI({ model: "gpt-4o-mini" }), villageActions, {
 *   examples: [{ request: "I need wood", goal: { conditions: { has_wood: true } } }],
 * });
 * const goal = await interpreter.interpret("I'm hungry", { is_hungry: true });
 * goal.conditions; // { is_hungry: false }
 * ```
 */
export class GoalInterpreter {
  readonly actions: readonly ActionSpec[];
  readonly facts: FactInventory;
  /** The zod schema the model answers with. */
  readonly schema: z.ZodType<InterpretedGoal>;
  readonly #llm: BaseChatModel;
  readonly #systemPrompt: string;
  readonly #examples: readonly GoalExample[];
  readonly #maxCorrections: number;
  readonly #structuredOutput: StructuredOutputOptions;
  readonly #call: ProviderCallSettings;

  constructor(llm: BaseChatModel, actions: readonly ActionSpec[], options: GoalInterpreterOptions = {}) {
    checkOptionKeys(options, GOAL_INTERPRETER_OPTIONS_KEYS, "new GoalInterpreter()");
    if (typeof llm?.withStructuredOutput !== "function") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `GoalInterpreter: llm must be a chat model with withStructuredOutput(), got ${describeValue(llm)}`,
      );
    }
    this.actions = validateActions(actions);
    this.facts = collectFacts(this.actions, options.facts);
    if (this.facts.size === 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        "GoalInterpreter: the actions mention no facts and no facts are declared; nothing can be a goal",
      );
    }
    this.schema = buildGoalSchema(this.facts, collectResourceKeys(this.actions));
    const maxCorrections = options.maxCorrections ?? 1;
    if (!Number.isInteger(maxCorrections) || maxCorrections < 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `GoalInterpreter: maxCorrections must be an integer >= 0, got ${describeValue(maxCorrections)}`,
      );
    }
    this.#maxCorrections = maxCorrections;
    if (options.systemPrompt !== undefined && (typeof options.systemPrompt !== "string" || options.systemPrompt.trim() === "")) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `GoalInterpreter: systemPrompt must be a non-empty string, got ${describeValue(options.systemPrompt)}`,
      );
    }
    this.#systemPrompt = options.systemPrompt ?? DEFAULT_GOAL_SYSTEM_PROMPT;
    this.#examples = Object.freeze([...(options.examples ?? [])]);
    this.#examples.forEach((example, i) => {
      const check = checkAnswer(this.schema, example?.goal, this.facts);
      if (!check.ok || typeof example.request !== "string") {
        const why = check.ok ? "request must be a string" : check.problem.message;
        throw new LangGoapError("INVALID_OPTION", `GoalInterpreter: examples[${i}] is not a valid goal: ${why}`, { index: i });
      }
    });
    this.#call = providerCallSettings("GoalInterpreter", options.timeoutMs, options.retry);
    this.#llm = llm;
    this.#structuredOutput = structuredOutputOptionsFor(llm, "goal", options.structuredOutput);
  }

  /** The allowed facts as listed in prompts and errors, e.g. `is_hungry (boolean)`. */
  get allowedFacts(): string[] {
    return [...this.facts.values()].map(describeFactType);
  }

  /** The system and user messages sent for a request. */
  buildMessages(request: string, worldState: Readonly<WorldState> = {}): BaseMessage[] {
    const system = fillTemplate(this.#systemPrompt, {
      fact_catalog: renderFactCatalog(this.facts),
      action_catalog: renderActionCatalog(this.actions),
      world_state: renderWorldState(worldState),
      examples: renderExamples(this.#examples),
    });
    return [new SystemMessage(system), new HumanMessage(request)];
  }

  /** Interprets `request` into a goal. */
  async interpret(request: string, worldState: Readonly<WorldState> = {}, config?: RunnableConfig): Promise<GoalSpec> {
    return (await this.interpretDetailed(request, worldState, config)).goal;
  }

  /** The model's validated structured answer, reasoning included. */
  async interpretRaw(request: string, worldState: Readonly<WorldState> = {}, config?: RunnableConfig): Promise<InterpretedGoal> {
    return (await this.interpretDetailed(request, worldState, config)).interpreted;
  }

  /** Interprets `request` and reports the structured answer and the number of model calls. */
  async interpretDetailed(request: string, worldState: Readonly<WorldState> = {}, config?: RunnableConfig): Promise<InterpretationResult> {
    if (typeof request !== "string" || request.trim() === "") {
      throw new LangGoapError("INTERPRETER_ERROR", `GoalInterpreter: request must be a non-empty string, got ${describeValue(request)}`);
    }
    // includeRaw keeps the model's message, so a refusal or an answer the provider's parser dropped can still be explained.
    const structured = this.#llm.withStructuredOutput(this.schema, { ...this.#structuredOutput, includeRaw: true });
    const messages = this.buildMessages(request, worldState);
    const problems: AnswerProblem[] = [];
    for (let attempt = 1; attempt <= this.#maxCorrections + 1; attempt++) {
      const answer = await this.#ask(structured, messages, request, config);
      if (answer.ok) return { goal: answer.goal, interpreted: answer.interpreted, attempts: attempt };
      problems.push(answer.problem);
      messages.push(new HumanMessage(this.#correction(answer.problem, answer.rawOutput)));
    }
    throw this.#failure(request, problems);
  }

  /** One model call, checked; a bad answer comes back as a problem, a failed call throws. */
  async #ask(
    structured: Runnable<BaseMessage[], unknown>,
    messages: BaseMessage[],
    request: string,
    config: RunnableConfig | undefined,
  ): Promise<
    { ok: true; goal: GoalSpec; interpreted: InterpretedGoal } | { ok: false; problem: AnswerProblem; rawOutput: string | undefined }
  > {
    let output: unknown;
    const calls = { count: 0 };
    try {
      output = await invokeModel(structured, messages, config, this.#call, "GoalInterpreter: the chat model call", calls);
    } catch (error) {
      const rejected = asRejectedAnswer(error);
      if (!rejected) {
        const tries = calls.count > 1 ? ` (${calls.count} attempts)` : "";
        throw new LangGoapError(
          "INTERPRETER_ERROR",
          `GoalInterpreter: the chat model call failed${tries}: ${(error as Error)?.message ?? describeValue(error)}`,
          { request, attempts: calls.count },
          { cause: error },
        );
      }
      // Re-check the raw output ourselves: it gives structured reasons (which facts are unknown).
      const reparsed = parseJsonOutput(rejected.rawOutput);
      const recheck = reparsed === undefined ? undefined : checkAnswer(this.schema, reparsed, this.facts);
      const problem = recheck && !recheck.ok ? recheck.problem : { message: rejected.message, unknownFacts: [] };
      return { ok: false, problem, rawOutput: rejected.rawOutput };
    }
    const { raw, parsed } = isRawAndParsed(output) ? output : { raw: undefined, parsed: output };
    let candidate = parsed;
    let rawText: string | undefined;
    if (candidate === undefined || candidate === null) {
      const read = readRawAnswer(raw);
      if (read.refusal)
        return { ok: false, problem: { message: `the model refused: ${read.refusal}`, unknownFacts: [] }, rawOutput: undefined };
      candidate = read.candidate;
      rawText = read.text;
    }
    const check = checkAnswer(this.schema, candidate, this.facts);
    if (check.ok) return { ok: true, goal: check.goal, interpreted: check.interpreted };
    return { ok: false, problem: check.problem, rawOutput: candidate === undefined ? rawText : describeValue(candidate) };
  }

  #correction(problem: AnswerProblem, rawOutput: string | undefined): string {
    return [
      `Your previous answer was rejected: ${problem.message}.`,
      ...(rawOutput ? [`Previous answer: ${rawOutput}`] : []),
      `Allowed facts: ${this.allowedFacts.join(", ")}.`,
      "Answer again with a corrected goal that uses only the allowed facts and values.",
    ].join("\n");
  }

  #failure(request: string, problems: readonly AnswerProblem[]): LangGoapError {
    const last = problems[problems.length - 1] as AnswerProblem;
    const unknownFacts = [...new Set(problems.flatMap((p) => p.unknownFacts))];
    return new LangGoapError(
      last.unknownFacts.length > 0 ? "UNKNOWN_FACT" : "INTERPRETER_ERROR",
      `GoalInterpreter could not turn ${JSON.stringify(request)} into a goal after ${problems.length} answer${
        problems.length > 1 ? "s" : ""
      }: ${last.message}. Allowed facts: ${this.allowedFacts.join(", ")}`,
      { request, problems: problems.map((p) => p.message), unknownFacts, allowedFacts: [...this.facts.keys()] },
    );
  }
}
