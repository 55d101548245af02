import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import type { BaseStore } from "@langchain/langgraph";
import { z } from "zod";
import { describeValue, displayText, LangGoapError, type PlanningTracer, promptDataBlock, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { randomUuid } from "../core/uuid.js";
import { actionOutcome, factsOf } from "./trace-event.js";

/** A lesson drawn from a failed action (Reflexion, Shinn et al. 2023). */
export interface Reflection {
  readonly actionName: string;
  readonly error: string;
  readonly reflection: string;
  readonly suggestion: string;
  /** ISO-8601 time. */
  readonly timestamp: string;
}

/** Options of {@link ReflexionTracer}. */
export interface ReflexionTracerOptions {
  /** Writes reflections; without one, a fixed template is used. @defaultValue none */
  readonly llm?: BaseChatModel;
  /** Persists reflections across runs (one key per reflection). @defaultValue none (memory only) */
  readonly store?: BaseStore;
  /** Store namespace. @defaultValue ["langgoap", "reflections"] */
  readonly namespace?: readonly string[];
  /** Reflections kept, oldest dropped first. @defaultValue 5 */
  readonly maxReflections?: number;
  /** Clock for timestamps. @defaultValue `() => new Date()` */
  readonly now?: () => Date;
  /** Told when the model or the store fails (the tracer carries on). @defaultValue none */
  readonly onError?: (error: unknown, stage: "reflect" | "load" | "save") => void;
}

const reflectionSchema = z.object({
  reflection: z.string().describe("Why the action most likely failed, in one sentence."),
  suggestion: z.string().describe("What to do differently next time, in one sentence."),
});

/**
 * The template reflection used without a model (or when the model fails).
 *
 * @example
 * ```ts
 * templateReflection("publish", "403").suggestion;
 * // "Consider alternative actions that achieve the same effect, or verify that 'publish' has ..."
 * ```
 */
export function templateReflection(actionName: string, error: string): Pick<Reflection, "reflection" | "suggestion"> {
  return {
    reflection: `Action '${actionName}' failed with error: ${error}. The action's preconditions may not have been fully met, or the action's implementation may have an issue.`,
    suggestion: `Consider alternative actions that achieve the same effect, or verify that '${actionName}' has the correct preconditions and a robust implementation.`,
  };
}

const REFLEXION_TRACER_OPTIONS_KEYS = {
  llm: true,
  store: true,
  namespace: true,
  maxReflections: true,
  now: true,
  onError: true,
} as const satisfies OptionKeys<ReflexionTracerOptions>;

/**
 * Learns from failures: each failed action becomes a {@link Reflection}
 * (written by a chat model when given one, else from a template), kept in a
 * capped FIFO list and, with a store, persisted so later runs start with the
 * lessons (loaded lazily on the first `onPlanStart`; construction does no
 * I/O). The graph's planner reads `reflections` into its state.
 *
 * @example
 * ```ts
 * const reflexion = new ReflexionTracer({ store, llm });
 * await new GoapGraph(actions, { tracer: reflexion }).invoke(goal, state);
 * reflexion.reflections[0]?.suggestion;
 * ```
 */
export class ReflexionTracer implements PlanningTracer {
  readonly #llm: BaseChatModel | undefined;
  readonly #store: BaseStore | undefined;
  readonly #namespace: string[];
  readonly #max: number;
  readonly #now: () => Date;
  readonly #onError: ReflexionTracerOptions["onError"];
  readonly #kept: { reflection: Reflection; key: string }[] = [];
  #loading: Promise<void> | undefined;

  constructor(options: ReflexionTracerOptions = {}) {
    checkOptionKeys(options, REFLEXION_TRACER_OPTIONS_KEYS, "new ReflexionTracer()");
    const max = options.maxReflections ?? 5;
    if (!Number.isInteger(max) || max < 1) {
      throw new LangGoapError("INVALID_OPTION", `ReflexionTracer: maxReflections must be an integer >= 1, got ${describeValue(max)}`);
    }
    const namespace = [...(options.namespace ?? ["langgoap", "reflections"])];
    if (namespace.length === 0 || namespace.some((label) => typeof label !== "string" || label === "" || label.includes("."))) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `ReflexionTracer: namespace must be non-empty strings without ".", got ${describeValue(namespace)}`,
      );
    }
    this.#llm = options.llm;
    this.#store = options.store;
    this.#namespace = namespace;
    this.#max = max;
    this.#now = options.now ?? (() => new Date());
    this.#onError = options.onError;
  }

  /** Reflections kept, oldest first. */
  get reflections(): readonly Reflection[] {
    return this.#kept.map((k) => k.reflection);
  }

  /** Loads persisted reflections (once; later calls return the same promise). */
  load(): Promise<void> {
    this.#loading ??= this.#loadFromStore();
    return this.#loading;
  }

  async onPlanStart(): Promise<void> {
    await this.load();
  }

  async onActionComplete(result: unknown): Promise<void> {
    const outcome = actionOutcome(result);
    if (outcome.success) return;
    await this.load();
    const actionName = outcome.action ?? "unknown";
    const error = outcome.error ?? "unknown error";
    const before = (result as { stateBefore?: WorldState } | null)?.stateBefore;
    const text = await this.#reflect(actionName, error, before);
    await this.add({ actionName, error, ...text, timestamp: this.#now().toISOString() });
  }

  /** Adds a reflection (dropping the oldest beyond the cap) and persists it. */
  async add(reflection: Reflection): Promise<void> {
    const key = `${reflection.timestamp}_${randomUuid()}`;
    this.#kept.push({ reflection, key });
    const evicted = this.#kept.splice(0, Math.max(0, this.#kept.length - this.#max));
    if (!this.#store) return;
    try {
      await this.#store.put(this.#namespace, key, { ...reflection });
      for (const old of evicted) await this.#store.delete(this.#namespace, old.key);
    } catch (e) {
      this.#report(e, "save");
    }
  }

  async #reflect(
    actionName: string,
    error: string,
    before: WorldState | undefined,
  ): Promise<Pick<Reflection, "reflection" | "suggestion">> {
    if (!this.#llm) return templateReflection(actionName, error);
    // The error is a tool's output and lessons were written from earlier ones: all of it reaches the model as data.
    const prompt = [
      `The action '${displayText(actionName, { maxChars: 200 })}' of a goal-oriented agent failed. Its error:`,
      promptDataBlock("error", error),
      "World state before the action:",
      promptDataBlock("world_state", factsOf(before)),
      ...(this.#kept.length
        ? [
            "Earlier lessons:",
            promptDataBlock(
              "lessons",
              this.#kept.map((k) => `[${k.reflection.actionName}] ${k.reflection.suggestion}`),
            ),
          ]
        : []),
      "Reflect briefly: why did it most likely fail, and what should the agent do differently next time?",
    ].join("\n");
    try {
      const answer = await this.#llm.withStructuredOutput(reflectionSchema, { name: "reflection" }).invoke([new HumanMessage(prompt)]);
      if (answer.reflection.trim() && answer.suggestion.trim())
        return { reflection: answer.reflection.trim(), suggestion: answer.suggestion.trim() };
      return templateReflection(actionName, error);
    } catch (e) {
      this.#report(e, "reflect");
      return templateReflection(actionName, error);
    }
  }

  async #loadFromStore(): Promise<void> {
    if (!this.#store) return;
    try {
      const found: { reflection: Reflection; key: string }[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await this.#store.search(this.#namespace, { limit: 100, offset });
        for (const item of page) {
          // Only items exactly in our namespace (search matches by prefix).
          if (item.namespace.join("\u0000") !== this.#namespace.join("\u0000")) continue;
          const v = item.value as Partial<Reflection>;
          if (typeof v.actionName === "string" && typeof v.reflection === "string" && typeof v.suggestion === "string") {
            found.push({ reflection: { error: "", timestamp: "", ...v } as Reflection, key: item.key });
          }
        }
        if (page.length < 100) break;
      }
      found.sort((a, b) =>
        a.reflection.timestamp < b.reflection.timestamp ? -1 : a.reflection.timestamp > b.reflection.timestamp ? 1 : a.key < b.key ? -1 : 1,
      );
      const known = new Set(this.#kept.map((k) => k.key));
      this.#kept.unshift(...found.filter((f) => !known.has(f.key)));
      this.#kept.splice(0, Math.max(0, this.#kept.length - this.#max));
    } catch (e) {
      this.#report(e, "load");
    }
  }

  #report(error: unknown, stage: "reflect" | "load" | "save"): void {
    try {
      this.#onError?.(error, stage);
    } catch {
      // Reporting never breaks a run.
    }
  }
}
