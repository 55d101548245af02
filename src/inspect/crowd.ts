import { LangGoapError } from "../core/index.js";
import type { GoapAgent, StupSelection, UtilityBrain } from "../utility/index.js";

/** Samples of every series kept per agent and for the crowd; older ones leave. */
export const MAX_SAMPLES = 600;

/** Options of {@link CrowdMonitor.watch}. */
export interface WatchAgentOptions {
  /** The agent's brain: its actions' scores (the goals' utilities) and their considerations are plotted. */
  readonly brain?: UtilityBrain;
  /** Shown in the table. @defaultValue the agent's `name`, made unique with `#n` */
  readonly name?: string;
}

interface Watched {
  readonly name: string;
  readonly agent: GoapAgent;
  readonly brain: UtilityBrain | undefined;
  /** Utility per goal from the last STUP selection, when the agent uses STUP. */
  stup: Record<string, number> | null;
  switches: number;
  failures: number;
  lastFailure: string | null;
  /** Ring of score vectors (one a sample, in column order), for the agent's charts. */
  readonly history: (number | null)[][];
  readonly unsubscribe: (() => void)[];
}

/** One consideration's column: `goal / consideration`. */
function considerationColumn(goal: string, consideration: string): string {
  return `${goal} / ${consideration}`;
}

function ring<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > MAX_SAMPLES) list.shift();
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? Math.round(value * 10_000) / 10_000 : null;
}

/**
 * The crowd view's model: the {@link GoapAgent}s you watch (with their
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
  readonly #series = { time: [] as number[], switches: [] as number[], failures: [] as number[] };
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
    if (this.#agents.size >= this.#maxAgents) {
      throw new LangGoapError("INVALID_OPTION", `inspector crowd: at most ${this.#maxAgents} agents can be watched (maxAgents)`, {
        maxAgents: this.#maxAgents,
      });
    }
    let name = options.name ?? agent.name;
    for (let n = 2; this.#agents.has(name); n++) name = `${options.name ?? agent.name}#${n}`;
    const watched: Watched = {
      name,
      agent,
      brain: options.brain,
      stup: null,
      switches: 0,
      failures: 0,
      lastFailure: null,
      history: [],
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
    for (const action of options.brain?.actions ?? []) {
      this.#column(action.name);
      for (const c of action.considerations) this.#column(considerationColumn(action.name, c.name));
    }
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
      const evaluated = new Map(brain.lastEvaluation?.scores.map((s) => [s.action.name, s.score]) ?? []);
      for (const action of brain.actions) {
        try {
          const breakdown = action.explain(brain.blackboard, brain.missingInput === undefined ? {} : { missingInput: brain.missingInput });
          scores[this.#column(action.name)] = finite(evaluated.get(action.name) ?? breakdown.score);
          for (const c of breakdown.considerations) scores[this.#column(considerationColumn(action.name, c.name))] = finite(c.score);
        } catch {
          // A consideration that cannot read its input (missing blackboard key) has no value to plot this sample.
        }
      }
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
      ring(watched.history, vector);
      switches += watched.switches;
      failures += watched.failures;
      if (goal !== null) byGoal[goal] = (byGoal[goal] ?? 0) + 1;
      rows.push([
        watched.name,
        agent.status,
        goal,
        agent.currentAction?.name ?? null,
        plan ? plan.actionNames.join(" → ") : null,
        plan ? agent.step : null,
        watched.switches,
        watched.failures,
        watched.lastFailure,
      ]);
      scores.push(vector);
    }
    const frame = {
      time: Math.round(time * 1000) / 1000,
      sample: this.#samples,
      columns: this.#columns,
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
    ring(this.#series.time, frame.time);
    ring(this.#series.switches, frame.switches);
    ring(this.#series.failures, frame.failures);
    this.#publish(frame);
  }

  /** The kept series: the crowd's switches and failures per sample, and one agent's scores (for a page that just opened). */
  history(agentName?: string): Record<string, unknown> {
    const watched = agentName === undefined ? undefined : this.#agents.get(agentName);
    return {
      columns: this.#columns,
      time: this.#series.time,
      switches: this.#series.switches,
      failures: this.#series.failures,
      agent: watched ? { name: watched.name, scores: watched.history } : null,
    };
  }
}
