import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver, LangGraphRunnableConfig } from "@langchain/langgraph";
import { LangGoapError } from "../core/index.js";

/**
 * Step claims live among the pending writes of the run's first checkpoint,
 * on this channel. No state channel has the name and the task ids are not
 * LangGraph tasks, so LangGraph never applies or replays them; every saver
 * keeps the first write of a (checkpoint, task id, index) and ignores later
 * ones (SQLite `INSERT OR IGNORE`, PostgreSQL `ON CONFLICT DO NOTHING`,
 * MemorySaver's check), which makes a write a claim only one caller wins.
 */
const CHANNEL = "langgoap:step";

/** LangGraph's configurable key for the checkpointer of the running task (stable across LangGraph 1.x). */
const CHECKPOINTER_KEY = "__pregel_checkpointer";

/** The configurable key `GoapGraph.recover` sets: the step it may take over. */
export const RECOVER_KEY = "langgoap_recover";

interface ClaimEntry {
  readonly kind: "claim";
  readonly position: number;
  readonly slot: number;
  readonly owner: string;
  /** The claiming invocation's `run_id` (LangGraph API server runs, `GoapGraph.invoke`), when it had one. */
  readonly invocation: string | null;
  readonly at: string;
  /** Human answers the claimant acted on, by action name (reused when a recovery finishes the step). */
  readonly answers: Record<string, unknown>;
}

interface ReleaseEntry {
  readonly kind: "release";
  readonly position: number;
  readonly slot: number;
}

/** The claims of one step, by slot, and the slots released by a claimant that stopped alive. */
export interface StepLog {
  readonly claims: ReadonlyMap<number, ClaimEntry>;
  readonly released: ReadonlySet<number>;
}

/** Permission to take over a step whose claimant stopped: written by `GoapGraph.recover`. */
export interface RecoveryTicket {
  /** The run's first checkpoint (`runCheckpointId`). */
  readonly anchor: string;
  readonly position: number;
  /** The highest claimed slot when recovery began; the recovery claims the next one. */
  readonly slot: number;
}

/** A won claim. */
export interface StepClaim {
  readonly slot: number;
  /** 1 on a step's first start; more when earlier starts did not finish. */
  readonly stepAttempt: number;
  /** Earlier starts whose claimant stopped without finishing or releasing (crashes). */
  readonly crashes: number;
}

/** Where a task's checkpoint lives, read from its LangGraph config. */
export interface TaskCheckpoint {
  readonly checkpointer: BaseCheckpointSaver;
  readonly threadId: string;
  readonly checkpointNs: string;
  /** The checkpoint the task runs from. */
  readonly checkpointId: string;
}

/** @internal The checkpoint a node's task runs from, or null outside a checkpointed graph. */
export function taskCheckpoint(config: LangGraphRunnableConfig | undefined): TaskCheckpoint | null {
  const configurable = config?.configurable as Record<string, unknown> | undefined;
  const checkpointer = configurable?.[CHECKPOINTER_KEY] as BaseCheckpointSaver | undefined;
  const threadId = configurable?.thread_id;
  if (!checkpointer || typeof checkpointer.getTuple !== "function" || typeof threadId !== "string") return null;
  // A task's namespace is "<parent ns>|<node>:<task id>"; the map gives each namespace's current checkpoint.
  const taskNs = typeof configurable?.checkpoint_ns === "string" ? configurable.checkpoint_ns : "";
  const checkpointNs = taskNs.split("|").slice(0, -1).join("|");
  const map = configurable?.checkpoint_map as Record<string, unknown> | undefined;
  const checkpointId = map?.[checkpointNs];
  if (typeof checkpointId !== "string") return null;
  return { checkpointer, threadId, checkpointNs, checkpointId };
}

/**
 * @internal The `run_id` an invocation runs under (the LangGraph API
 * server's run, or the one `GoapGraph.invoke` gives a run), or null. The
 * server retries a run whose worker died under the same `run_id`.
 */
export function invocationId(config: LangGraphRunnableConfig | undefined): string | null {
  const configurable = (config?.configurable ?? {}) as Record<string, unknown>;
  const metadata = (config?.metadata ?? {}) as Record<string, unknown>;
  const id = configurable.run_id ?? metadata.run_id;
  return typeof id === "string" && id !== "" ? id : null;
}

/** @internal The recovery ticket of an invocation made by `GoapGraph.recover`, when it is for this step. */
export function recoveryTicketFor(config: LangGraphRunnableConfig | undefined, anchor: string, position: number): RecoveryTicket | null {
  const ticket = (config?.configurable as Record<string, unknown> | undefined)?.[RECOVER_KEY] as RecoveryTicket | undefined;
  return ticket && ticket.anchor === anchor && ticket.position === position ? ticket : null;
}

function isEntry(value: unknown): value is ClaimEntry | ReleaseEntry {
  const v = value as Partial<ClaimEntry> | null;
  return typeof v === "object" && v !== null && (v.kind === "claim" || v.kind === "release") && typeof v.position === "number";
}

/**
 * @internal The claims of a run's steps, kept in the checkpointer. Before
 * an executor acts on a step it claims the step's next slot; only one
 * caller wins a slot, so two invocations continuing the same paused or
 * crashed run never both execute a step (the loser gets `STEP_CLAIMED`).
 * A claim is released when its invocation stops alive without finishing
 * the step (an interrupt inside `execute`); a claim neither finished nor
 * released means its process stopped. Such a step is taken over, as a
 * re-run the action is told about, only by `GoapGraph.recover` or by an
 * invocation under the same `run_id` as the claimant (a platform retrying
 * the run whose worker died).
 */
export class StepJournal {
  readonly #checkpointer: BaseCheckpointSaver;
  readonly #config: { configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string } };

  /** The journal kept on checkpoint `anchor` (a run's `runCheckpointId`) of a thread. */
  constructor(checkpointer: BaseCheckpointSaver, threadId: string, checkpointNs: string, anchor: string) {
    this.#checkpointer = checkpointer;
    this.#config = { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: anchor } };
  }

  /** The journal on checkpoint `anchor` of the thread a node's task runs in, or null outside a checkpointed graph. */
  static forTask(config: LangGraphRunnableConfig | undefined, anchor: string): StepJournal | null {
    const task = taskCheckpoint(config);
    return task ? new StepJournal(task.checkpointer, task.threadId, task.checkpointNs, anchor) : null;
  }

  /** The claims of step `position`, or null when the run's first checkpoint is not (yet) saved. */
  async read(position: number): Promise<StepLog | null> {
    const tuple = await this.#checkpointer.getTuple(this.#config);
    if (!tuple) return null;
    const claims = new Map<number, ClaimEntry>();
    const released = new Set<number>();
    for (const [, channel, value] of tuple.pendingWrites ?? []) {
      if (channel !== CHANNEL || !isEntry(value) || value.position !== position) continue;
      if (value.kind === "claim") claims.set(value.slot, value);
      else released.add(value.slot);
    }
    return { claims, released };
  }

  /** The answers of the latest claim of step `position` (what a stopped claimant acted on). */
  async answers(position: number): Promise<Record<string, unknown>> {
    const log = await this.read(position);
    const latest = log ? Math.max(0, ...log.claims.keys()) : 0;
    return log?.claims.get(latest)?.answers ?? {};
  }

  /**
   * Claims step `position` for this invocation (`invocation`: its
   * `run_id`). With a recovery ticket, the slot after those the recovery
   * saw; otherwise the first slot whose earlier holders released it or ran
   * under the same `run_id`. `label` names the step in errors.
   */
  async claim(
    position: number,
    answers: Record<string, unknown>,
    by: { readonly ticket: RecoveryTicket | null; readonly invocation: string | null },
    label: string,
  ): Promise<StepClaim> {
    const { ticket, invocation } = by;
    const owner = randomUUID();
    let slot = ticket ? ticket.slot + 1 : 1;
    for (;;) {
      const entry: ClaimEntry = { kind: "claim", position, slot, owner, invocation, at: new Date().toISOString(), answers };
      await this.#checkpointer.putWrites(this.#config, [[CHANNEL, entry]], `langgoap-claim-${position}-${slot}`);
      const log = await this.read(position);
      // No saved first checkpoint (durability off): nothing to check against.
      if (!log) return { slot, stepAttempt: slot, crashes: 0 };
      const holder = log.claims.get(slot);
      if (holder?.owner === owner) {
        let crashes = 0;
        for (const s of log.claims.keys()) if (s < slot && !log.released.has(s)) crashes++;
        return { slot, stepAttempt: slot, crashes };
      }
      const sameRun = invocation !== null && holder?.invocation === invocation;
      if (ticket || !(log.released.has(slot) || sameRun)) throw this.#claimed(position, label, holder);
      slot = Math.max(...log.claims.keys()) + 1;
    }
  }

  /** Marks this invocation's claim as given up alive (the step may start again without a recovery). */
  async release(position: number, slot: number): Promise<void> {
    const entry: ReleaseEntry = { kind: "release", position, slot };
    await this.#checkpointer.putWrites(this.#config, [[CHANNEL, entry]], `langgoap-release-${position}-${slot}`);
  }

  #claimed(position: number, label: string, holder: ClaimEntry | undefined): LangGoapError {
    const threadId = this.#config.configurable.thread_id;
    const when = holder ? ` at ${holder.at}` : "";
    return new LangGoapError(
      "STEP_CLAIMED",
      `thread "${threadId}": step ${position} (${label}) was claimed by another invocation${when}, which runs or ran it; ` +
        "this invocation did not run it (two invocations never run the same step). If the process that claimed it stopped " +
        "before finishing, continue the thread with graph.recover(config)",
      { threadId, checkpointId: this.#config.configurable.checkpoint_id, position, claimedAt: holder?.at ?? null },
    );
  }
}
