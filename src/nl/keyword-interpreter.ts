import {
  type ActionSpec,
  type Condition,
  describeValue,
  type Effect,
  type Fact,
  type FactCatalog,
  GoalSpec,
  isOperatorEffect,
  LangGoapError,
  resolveEffect,
  validateActions,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { collectFacts, type FactInfo, type FactInventory } from "./fact-inventory.js";
import { matching, stems, type Word, words } from "./text-match.js";

/** Options of {@link KeywordGoalInterpreter}. */
export interface KeywordGoalInterpreterOptions {
  /** Declared facts; their `synonyms` and `description` are the words that name them. @defaultValue inferred from the actions */
  readonly facts?: FactCatalog;
}

/** One goal condition and the request words that led to it. */
export interface KeywordMatch {
  readonly key: string;
  readonly condition: Condition;
  /** The request words that matched. */
  readonly words: readonly string[];
  /** How the key was found: named as a fact, or implied by a named action. */
  readonly via: "fact" | "action";
  /** The action whose effect or description decided the value, if any. */
  readonly action?: string;
}

/** A keyword interpretation: the goal and why. */
export interface KeywordInterpretation {
  readonly goal: GoalSpec;
  readonly matches: readonly KeywordMatch[];
  /** One line per match, e.g. `"hungry" -> is_hungry = false (eat_food gives it)`. */
  readonly reasoning: string;
}

interface Vocabulary {
  readonly strong: ReadonlySet<string>;
  readonly weak: ReadonlySet<string>;
}

function union(...sets: Iterable<string>[]): Set<string> {
  const out = new Set<string>();
  for (const set of sets) for (const item of set) out.add(item);
  return out;
}

function factVocabulary(fact: FactInfo): Vocabulary {
  return {
    strong: union(stems(fact.key), ...fact.synonyms.map(stems)),
    weak: stems(fact.description ?? ""),
  };
}

function actionVocabulary(action: ActionSpec): Vocabulary {
  return { strong: stems(action.name), weak: stems(action.description ?? "") };
}

/** How many descriptions use each word: common words ("villager") say little. */
function documentFrequency(vocabularies: Iterable<Vocabulary>): Map<string, number> {
  const df = new Map<string, number>();
  for (const v of vocabularies) for (const word of v.weak) df.set(word, (df.get(word) ?? 0) + 1);
  return df;
}

const KEYWORD_GOAL_INTERPRETER_OPTIONS_KEYS = { facts: true } as const satisfies OptionKeys<KeywordGoalInterpreterOptions>;

/**
 * Maps a request to a goal without a model, deterministically: request words
 * are matched (lower-cased, stemmed, stopwords dropped) against each fact's
 * key, synonyms and string values, and against action names. A named fact
 * takes the value some action produces, preferring the value whose action's
 * name and description best match the request, then a value that differs from
 * the current state; a number next to a numeric fact becomes a bound
 * ("3 wood" → `{ wood: { gte: 3 } }`). A named action that adds no named fact
 * contributes its primary effects (those on keys it does not require). When
 * nothing matches, the fact or action whose description best matches is
 * used (rare words weigh more than common ones); failing that, a
 * `LangGoapError` lists the words each fact answers to.
 *
 * Useful offline, in tests and demos, and as a cheap first pass before a model.
 *
 * @example
 * ```ts
 * const interpreter = new KeywordGoalInterpreter(villageActions, {
 *   facts: { is_hungry: { type: "boolean", synonyms: ["starving", "food"] } },
 * });
 * (await interpreter.interpret("I'm hungry", { is_hungry: true })).conditions; // { is_hungry: false }
 * ```
 */
export class KeywordGoalInterpreter {
  readonly actions: readonly ActionSpec[];
  readonly facts: FactInventory;
  readonly #factWords: ReadonlyMap<string, Vocabulary>;
  readonly #actionWords: ReadonlyMap<ActionSpec, Vocabulary>;
  readonly #df: ReadonlyMap<string, number>;

  constructor(actions: readonly ActionSpec[], options: KeywordGoalInterpreterOptions = {}) {
    checkOptionKeys(options, KEYWORD_GOAL_INTERPRETER_OPTIONS_KEYS, "new KeywordGoalInterpreter()");
    this.actions = validateActions(actions);
    this.facts = collectFacts(this.actions, options.facts);
    this.#factWords = new Map([...this.facts.values()].map((f) => [f.key, factVocabulary(f)]));
    this.#actionWords = new Map(this.actions.map((a) => [a, actionVocabulary(a)]));
    this.#df = documentFrequency([...this.#factWords.values(), ...this.#actionWords.values()]);
  }

  /** Name and synonym words count 2 each; a description word counts 1 / (number of descriptions using it). */
  #score(request: readonly Word[], vocabulary: Vocabulary): number {
    let total = 2 * matching(request, vocabulary.strong).length;
    for (const w of matching(request, vocabulary.weak)) total += 1 / (this.#df.get(w.stem) ?? 1);
    return total;
  }

  /** Interprets `request` into a goal (async, to match {@link GoalInterpreter}). */
  async interpret(request: string, worldState: Readonly<WorldState> = {}): Promise<GoalSpec> {
    return this.interpretSync(request, worldState).goal;
  }

  /** Interprets `request` into a goal, synchronously. */
  interpretSync(request: string, worldState: Readonly<WorldState> = {}): KeywordInterpretation {
    if (typeof request !== "string" || request.trim() === "") {
      throw new LangGoapError(
        "INTERPRETER_ERROR",
        `KeywordGoalInterpreter: request must be a non-empty string, got ${describeValue(request)}`,
      );
    }
    const said = words(request);
    const matches: KeywordMatch[] = [];
    const used = new Set<number>();
    for (const fact of this.facts.values()) {
      const match = this.#matchFact(fact, said, worldState);
      if (!match) continue;
      matches.push(match.match);
      for (const w of match.words) used.add(w.index);
    }
    const rest = said.filter((w) => !used.has(w.index));
    for (const action of this.actions) {
      const named = matching(rest, (this.#actionWords.get(action) as Vocabulary).strong);
      if (named.length > 0) this.#addPrimaryEffects(action, named, worldState, matches);
    }
    if (matches.length === 0) this.#matchDescriptions(said, worldState, matches);
    if (matches.length === 0) throw this.#noMatch(request);
    const conditions = Object.fromEntries(matches.map((m) => [m.key, m.condition]));
    return { goal: new GoalSpec({ conditions }), matches, reasoning: matches.map(explain).join("\n") };
  }

  #matchFact(fact: FactInfo, said: readonly Word[], state: Readonly<WorldState>): { match: KeywordMatch; words: Word[] } | undefined {
    if (!fact.producible) return undefined;
    const vocabulary = this.#factWords.get(fact.key) as Vocabulary;
    const named = matching(said, vocabulary.strong);
    const valueWords = said.filter((w) => fact.values.some((v) => stems(v).has(w.stem) && fact.produced.has(v)));
    if (named.length === 0 && valueWords.length === 0) return undefined;
    const wordsUsed = [...named, ...valueWords];
    const texts = wordsUsed.map((w) => w.text);
    const spokenValue = fact.values.find((v) => fact.produced.has(v) && valueWords.some((w) => stems(v).has(w.stem)));
    if (spokenValue !== undefined) {
      return { match: { key: fact.key, condition: spokenValue, words: texts, via: "fact" }, words: wordsUsed };
    }
    const numeric = this.#numericCondition(fact, said, named, state);
    if (numeric) return { match: { ...numeric, words: [...texts, ...numeric.extra] }, words: wordsUsed };
    const chosen = this.#chooseValue(fact, said, state);
    if (!chosen) return undefined;
    return {
      match: { key: fact.key, condition: chosen.value, words: texts, via: "fact", ...(chosen.action ? { action: chosen.action } : {}) },
      words: wordsUsed,
    };
  }

  /** Picks the produced value whose producing action best matches the request; ties: differs from the state, then first seen. */
  #chooseValue(fact: FactInfo, said: readonly Word[], state: Readonly<WorldState>): { value: Fact; action?: string } | undefined {
    let best: { value: Fact; action: string; rank: number[] } | undefined;
    let order = 0;
    for (const [value, producers] of fact.produced) {
      if (typeof value === "number" || value === null) continue;
      let bestAction = producers[0] as ActionSpec;
      let bestScore = -1;
      for (const action of producers) {
        const s = this.#score(said, this.#actionWords.get(action) as Vocabulary);
        if (s > bestScore) [bestAction, bestScore] = [action, s];
      }
      const rank = [bestScore, state[fact.key] !== undefined && state[fact.key] !== value ? 1 : 0, -order++];
      if (!best || compareRanks(rank, best.rank) > 0) best = { value, action: bestAction.name, rank };
    }
    return best ? { value: best.value, action: best.action } : undefined;
  }

  #numericCondition(
    fact: FactInfo,
    said: readonly Word[],
    named: readonly Word[],
    state: Readonly<WorldState>,
  ): (Omit<KeywordMatch, "words"> & { extra: string[] }) | undefined {
    if (!fact.types.has("number") || fact.types.size !== 1) return undefined;
    const raising = fact.increasedBy.length > 0;
    const lowering = fact.decreasedBy.length > 0;
    const number = said.find((w) => /^[0-9]+(?:\.[0-9]+)?$/.test(w.text) && named.some((n) => Math.abs(n.index - w.index) <= 2));
    const current = typeof state[fact.key] === "number" ? (state[fact.key] as number) : undefined;
    if (number) {
      const n = Number(number.text);
      const condition: Condition = raising && !lowering ? { gte: n } : lowering && !raising ? { lte: n } : n;
      return { key: fact.key, condition, via: "fact", extra: [number.text] };
    }
    if (raising && !lowering) return { key: fact.key, condition: { gt: current ?? 0 }, via: "fact", extra: [] };
    if (lowering && !raising && current !== undefined) return { key: fact.key, condition: { lt: current }, via: "fact", extra: [] };
    return undefined;
  }

  /** An action's effects on keys it does not require: what it is for, not what it uses up. */
  #addPrimaryEffects(action: ActionSpec, named: readonly Word[], state: Readonly<WorldState>, matches: KeywordMatch[]): void {
    const effects = action.staticEffects;
    if (!effects) return;
    for (const [key, effect] of Object.entries(effects) as [string, Effect][]) {
      if (key in action.preconditions || matches.some((m) => m.key === key)) continue;
      let condition: Condition;
      if (isOperatorEffect(effect) && effect.set === undefined) {
        const after = resolveEffect(typeof state[key] === "number" ? state[key] : 0, effect, `action "${action.name}" effect on "${key}"`);
        condition = effect.inc !== undefined ? { gte: after as number } : { lte: after as number };
      } else {
        condition = isOperatorEffect(effect) ? (effect.set as Fact) : effect;
      }
      matches.push({ key, condition, words: named.map((w) => w.text), via: "action", action: action.name });
    }
  }

  /**
   * Last resort: the fact or action whose description best matches the
   * request (rarer words weigh more; ties: facts first, then cheaper
   * actions, then declaration order).
   */
  #matchDescriptions(said: readonly Word[], state: Readonly<WorldState>, matches: KeywordMatch[]): void {
    let best: { rank: number[]; apply: () => void } | undefined;
    const consider = (rank: number[], apply: () => void) => {
      if ((rank[0] as number) > 0 && (!best || compareRanks(rank, best.rank) > 0)) best = { rank, apply };
    };
    [...this.facts.values()].forEach((fact, i) => {
      if (!fact.producible) return;
      const vocabulary = this.#factWords.get(fact.key) as Vocabulary;
      consider([this.#score(said, vocabulary), 1, 0, -i], () => {
        const chosen = this.#chooseValue(fact, said, state);
        if (!chosen) return;
        const words = matching(said, vocabulary.weak).map((w) => w.text);
        matches.push({ key: fact.key, condition: chosen.value, words, via: "fact", ...(chosen.action ? { action: chosen.action } : {}) });
      });
    });
    this.actions.forEach((action, i) => {
      const vocabulary = this.#actionWords.get(action) as Vocabulary;
      const cost = typeof action.cost === "number" ? action.cost : Number.POSITIVE_INFINITY;
      consider([this.#score(said, vocabulary), 0, -cost, -i], () =>
        this.#addPrimaryEffects(action, [...matching(said, vocabulary.strong), ...matching(said, vocabulary.weak)], state, matches),
      );
    });
    best?.apply();
  }

  #noMatch(request: string): LangGoapError {
    const known = [...this.facts.values()]
      .filter((f) => f.producible)
      .map((f) => (f.synonyms.length ? `${f.key} (${f.synonyms.join(", ")})` : f.key));
    return new LangGoapError(
      "INTERPRETER_ERROR",
      `KeywordGoalInterpreter: no fact or action matches ${JSON.stringify(request)}. Facts a goal can name: ${known.join(", ")}; actions: ${this.actions
        .map((a) => a.name)
        .join(", ")}`,
      { request, allowedFacts: known },
    );
  }
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

function explain(match: KeywordMatch): string {
  const said = match.words.map((w) => JSON.stringify(w)).join(", ");
  const value =
    typeof match.condition === "object" && match.condition !== null ? JSON.stringify(match.condition) : describeValue(match.condition);
  const why = match.via === "action" ? `names action ${match.action}` : match.action ? `${match.action} gives it` : "named fact";
  return `${said || "(description)"} -> ${match.key} = ${value} (${why})`;
}
