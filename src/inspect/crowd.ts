import { displayText, LangGoapError } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Consideration, GoapAgent, StupSelection, UtilityBrain } from "../utility/index.js";
import { MAX_VALUE_CHARS } from "../viz/html/escape.js";

/** Samples of every series kept per agent and for the crowd; older ones leave. */
export const MAX_SAMPLES = 600;

/** Options of {@link CrowdMonitor.watch}. */
export interface WatchAgentOptions {
  /** The agent's brain: its actions' scores (the goals' utilities) and their considerations are plotted. */
  readonly brain?: UtilityBrain;
  /** Shown in the table. @defaultValue the agent's `name`, made unique with `#n` */
  readonly name?: string;
}

/** Where a brain's scores go: each action's column, and each consideration's. */
interface BrainLayout {
  readonly column: number;
  readonly considerations: readonly { readonly consideration: Consideration; readonly column: number }[];
}

/** A fixed-size ring of samples (no shifting of long arrays every sample). */
class Ring<T> {
  readonly #items: T[] = [];
  #next = 0;
  push(item: T): void {
    if (this.#items.length < MAX_SAMPLES) this.#items.push(item);
    else this.#items[this.#next] = item;
    this.#next = (this.#next + 1) % MAX_SAMPLES;
  }
  /** Oldest first. */
  toArray(): T[] {
    return this.#items.length < MAX_SAMPLES ? [...this.#items] : [...this.#items.slice(this.#next), ...this.#items.slice(0, this.#next)];
  }
}

/** Strings shown in the table are few and repeat every sample: their display form is cached (bounded). */
const MAX_CACHED_TEXTS = 20_000;

interface Watched {
  readonly name: string;
  readonly shownName: string;
  readonly layout: readonly BrainLayout[];
  readonly agent: GoapAgent;
  readonly brain: UtilityBrain | undefined;
  /** Utility per goal from the last STUP selection, when the agent uses STUP. */
  stup: Record<string, number> | null;
  switches: number;
  failures: number;
  lastFailure: string | null;
  /** Score vectors (one a sample, in column order), for the agent's charts. */
  readonly history: Ring<(number | null)[]>;
  readonly unsubscribe: (() => void)[];
}

/** One consideration's column: `goal / consideration`. */
function considerationColumn(goal: string, consideration: string): string {
  return `${goal} / ${consideration}`;
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? Math.round(value * 10_000) / 10_000 : null;
}

const WATCH_AGENT_OPTIONS_KEYS = { brain: true, name: true } as const satisfies OptionKeys<WatchAgentOptions>;

/**
 * The crowd view's model (its frames are in display form already: every
 * string bounded with control and bidi characters visible): the {@link GoapAgent}s you watch (with their
 * {@link UtilityBrain} or STUP tables), sampled by {@link CrowdMonitor.sample}
 * from your game loop. Each sample is a table row per agent (goal, plan,
 * action, status, goal switches and plan failures so far) and one score per
 * column: every goal's utility, then every goal's considerations (response
 * curve values). The page plots the crowd's switches and failures per
 * sample, and the utilities of the agent you pick.
 *
 * @example
 * ```ts
 * const crowd = inspector.crowd;
 * for (const [agent, brain] of villagers) crowd.watch(agent, { brain });
 * setInterval(() => { for (const [agent] of villagers) agent.tick(0.1); crowd.sample(); }, 100);
 * ```
 */
export class CrowdMonitor {
  readonly #agents = new Map<string, Watched>();
  readonly #columns: string[] = [];
  readonly #columnIndex = new Map<string, number>();
  readonly #publish: (frame: Record<string, unknown>) => void;
  readonly #series = { time: new Ring<number>(), switches: new Ring<number>(), failures: new Ring<number>() };
  readonly #texts = new Map<string, string>();
  #samples = 0;
  #lastSwitches = 0;
  #lastFailures = 0;
  readonly #maxAgents: number;

  /** @internal Created by the inspector. */
  constructor(publish: (frame: Record<string, unknown>) => void, maxAgents: number) {
    this.#publish = publish;
    this.#maxAgents = maxAgents;
  }

  /** Agents watched. */
  get size(): number {
    return this.#agents.size;
  }

  /** Score columns, in order: goal utilities and `goal / consideration` values. */
  get columns(): readonly string[] {
    return this.#columns;
  }

  /** A string in display form (bounded, control and bidi characters visible), from the cache. */
  #show(text: string | null): string | null {
    if (text === null) return null;
    let shown = this.#texts.get(text);
    if (shown === undefined) {
      if (this.#texts.size >= MAX_CACHED_TEXTS) this.#texts.clear();
      shown = displayText(text, { maxChars: MAX_VALUE_CHARS });
      this.#texts.set(text, shown);
    }
    return shown;
  }

  #column(name: string): number {
    let index = this.#columnIndex.get(name);
    if (index === undefined) {
      index = this.#columns.length;
      this.#columns.push(name);
      this.#columnIndex.set(name, index);
    }
    return index;
  }

  /**
   * Starts watching an agent: its goal switches and plan failures are
   * counted from now on, and each {@link CrowdMonitor.sample} reads its
   * state. Returns a function that stops watching it.
   */
  watch(agent: GoapAgent, options: WatchAgentOptions = {}): () => void {
    checkOptionKeys(options, WATCH_AGENT_OPTIONS_KEYS, "watch()");
    if (this.#agents.size >= this.#maxAgents) {
      throw new LangGoapError("INVALID_OPTION", `inspector crowd: at most ${this.#maxAgents} agents can be watched (maxAgents)`, {
        maxAgents: this.#maxAgents,
      });
    }
    let name = options.name ?? agent.name;
    for (let n = 2; this.#agents.has(name); n++) name = `${options.name ?? agent.name}#${n}`;
    const layout = (options.brain?.actions ?? []).map((action) => ({
      column: this.#column(action.name),
      considerations: action.considerations.map((consideration) => ({
        consideration,
        column: this.#column(considerationColumn(action.name, consideration.name)),
      })),
    }));
    const watched: Watched = {
      name,
      shownName: displayText(name, { maxChars: MAX_VALUE_CHARS }),
      layout,
      agent,
      brain: options.brain,
      stup: null,
      switches: 0,
      failures: 0,
      lastFailure: null,
      history: new Ring(),
      unsubscribe: [],
    };
    const fail = (reason: string) => {
      watched.failures++;
      watched.lastFailure = reason;
    };
    watched.unsubscribe.push(
      agent.on("goalChanged", ({ previous }) => {
        if (previous !== null) watched.switches++;
      }),
      agent.on("planFailed", ({ reason }) => fail(reason)),
      agent.on("planInvalidated", ({ reason }) => fail(reason)),
      agent.on("actionFailed", ({ action, reason }) => fail(`${action.name}: ${reason}`)),
    );
    this.#agents.set(name, watched);
    return () => {
      for (const stop of watched.unsubscribe) stop();
      this.#agents.delete(name);
    };
  }

  /**
   * A `stupGoalSelector` `onSelect` listener that records each STUP table's
   * utilities (score × multiplier) per goal for the watched agent `name`.
   *
   * @example
   * ```ts
   * const agent = new GoapAgent({ name: "guard", actions, selector: stupGoalSelector(stup, { onSelect: inspector.crowd.stupListener("guard") }) });
   * inspector.crowd.watch(agent);
   * ```
   */
  stupListener(name: string): (selection: StupSelection) => void {
    return (selection) => {
      const watched = this.#agents.get(name);
      if (!watched) return;
      watched.stup = Object.fromEntries(selection.table.map((row) => [row.name, row.utility]));
      for (const row of selection.table) this.#column(row.name);
    };
  }

  #scores(watched: Watched): (number | null)[] {
    const scores: (number | null)[] = new Array(this.#columns.length).fill(null);
    const brain = watched.brain;
    if (brain) {
      const blackboard = brain.blackboard;
      const missing = brain.missingInput;
      // The last evaluation's scores, in declaration order (they include cooldowns and momentum).
      const evaluated = brain.lastEvaluation?.scores;
      watched.layout.forEach((layout, i) => {
        const score = evaluated?.[i]?.score;
        if (score !== undefined) scores[layout.column] = finite(score);
        for (const { consideration, column } of layout.considerations) {
          try {
            scores[column] = finite(consideration.score(blackboard, missing));
          } catch {
            // A consideration that cannot read its input (a missing blackboard key) has no value this sample.
          }
        }
      });
    }
    if (watched.stup) for (const [goal, utility] of Object.entries(watched.stup)) scores[this.#column(goal)] = finite(utility);
    return scores;
  }

  /**
   * Reads every watched agent and publishes one frame to the page. Call it
   * from your loop (each tick, or every few); `time` is your simulation's
   * clock in seconds. @defaultValue `time`: the number of samples so far
   */
  sample(time: number = this.#samples): void {
    this.#samples++;
    const rows: unknown[][] = [];
    const scores: (number | null)[][] = [];
    const byGoal: Record<string, number> = {};
    let switches = 0;
    let failures = 0;
    for (const watched of this.#agents.values()) {
      const agent = watched.agent;
      const goal = agent.goalName ?? (agent.goal ? "(unnamed goal)" : null);
      const plan = agent.plan;
      const vector = this.#scores(watched);
      watched.history.push(vector);
      switches += watched.switches;
      failures += watched.failures;
      if (goal !== null) {
        const shown = this.#show(goal) as string;
        byGoal[shown] = (byGoal[shown] ?? 0) + 1;
      }
      rows.push([
        watched.shownName,
        agent.status,
        this.#show(goal),
        this.#show(agent.currentAction?.name ?? null),
        plan ? this.#show(plan.actionNames.join(" → ")) : null,
        plan ? agent.step : null,
        watched.switches,
        watched.failures,
        this.#show(watched.lastFailure),
      ]);
      scores.push(vector);
    }
    const frame = {
      time: Math.round(time * 1000) / 1000,
      sample: this.#samples,
      columns: this.#columns.map((c) => this.#show(c)),
      rows,
      scores,
      switches: switches - this.#lastSwitches,
      failures: failures - this.#lastFailures,
      totalSwitches: switches,
      totalFailures: failures,
      byGoal,
    };
    this.#lastSwitches = switches;
    this.#lastFailures = failures;
    this.#series.time.push(frame.time);
    this.#series.switches.push(frame.switches);
    this.#series.failures.push(frame.failures);
    this.#publish(frame);
  }

  /** The kept series: the crowd's switches and failures per sample, and one agent's scores (for a page that just opened). */
  history(agentName?: string): Record<string, unknown> {
    // The page asks by the name it shows (the display form).
    const watched =
      agentName === undefined
        ? undefined
        : (this.#agents.get(agentName) ?? [...this.#agents.values()].find((w) => w.shownName === agentName));
    return {
      /** The last sample's number: a page appends the frames after it that reached it meanwhile. */
      sample: this.#samples,
      columns: this.#columns.map((c) => this.#show(c)),
      time: this.#series.time.toArray(),
      switches: this.#series.switches.toArray(),
      failures: this.#series.failures.toArray(),
      agent: watched ? { name: watched.shownName, scores: watched.history.toArray() } : null,
    };
  }
}
