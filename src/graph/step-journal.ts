import { type BaseCheckpointSaver, emptyCheckpoint, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { maxOf } from "../core/extremes.js";
import { LangGoapError } from "../core/index.js";
import { randomUuid } from "../core/uuid.js";

/**
 * Step claims are pending writes on small checkpoints of their own, in a
 * namespace of the thread that LangGraph never reads (its state, history
 * and resumes use the graph's namespace), on this channel. Every saver
 * keeps the first write of a (checkpoint, task id, index) and ignores later
 * ones (SQLite `INSERT OR IGNORE`, PostgreSQL `ON CONFLICT DO NOTHING`,
 * MemorySaver's check), which makes a write a claim only one caller wins.
 */
const CHANNEL = "langgoap:step";

/** The namespace of the claims checkpoints, under the graph's own namespace. */
const CLAIMS_NS = "langgoap-claims";

/** Steps whose claims one claims checkpoint holds (reading a step's claims reads all of that checkpoint's writes). */
export const STEPS_PER_CLAIMS_CHECKPOINT = 32;

/** LangGraph's configurable key for the checkpointer of the running task (stable across LangGraph 1.x). */
const CHECKPOINTER_KEY = "__pregel_checkpointer";

/** The configurable key `GoapGraph.recover` sets: the step it may take over. */
export const RECOVER_KEY = "langgoap_recover";

/**
 * A step as claims name it: its position in the run's history, and the
 * checkpoint it runs from. Invocations continuing the thread from the same
 * checkpoint compete for its steps; a fork (an `updateState` on an earlier
 * checkpoint, a replay from one) starts from a new checkpoint and runs its
 * steps as new ones.
 */
export interface StepRef {
  readonly position: number;
  readonly checkpoint: string;
}

interface ClaimEntry {
  readonly kind: "claim";
  readonly position: number;
  readonly checkpoint: string;
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
  readonly checkpoint: string;
  readonly slot: number;
}

/** The claims of one step, by slot, and the slots released by a claimant that stopped alive. */
export interface StepLog {
  readonly claims: ReadonlyMap<number, ClaimEntry>;
  readonly released: ReadonlySet<number>;
}

/** Permission to take over a step whose claimant stopped: written by `GoapGraph.recover`. */
export interface RecoveryTicket {
  readonly runId: string;
  readonly position: number;
  /** The checkpoint the thread stopped at (the step runs from it again). */
  readonly checkpoint: string;
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
export function recoveryTicketFor(config: LangGraphRunnableConfig | undefined, runId: string, step: StepRef): RecoveryTicket | null {
  const ticket = (config?.configurable as Record<string, unknown> | undefined)?.[RECOVER_KEY] as RecoveryTicket | undefined;
  return ticket && ticket.runId === runId && ticket.position === step.position && ticket.checkpoint === step.checkpoint ? ticket : null;
}

/** @internal Where one claims checkpoint lives. */
export interface ClaimsConfig {
  readonly configurable: { readonly thread_id: string; readonly checkpoint_ns: string; readonly checkpoint_id: string };
}

/** @internal The namespace of the claims checkpoints of a graph in namespace `checkpointNs` ("" at the root). */
export function claimsNamespace(checkpointNs: string): string {
  return checkpointNs ? `${checkpointNs}|${CLAIMS_NS}` : CLAIMS_NS;
}

/** @internal The config of claims checkpoint `checkpointId` in claims namespace `ns`. */
export function claimsConfig(threadId: string, ns: string, checkpointId: string): ClaimsConfig {
  return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpointId } };
}

type Writes = readonly (readonly [string, string, unknown])[];

/**
 * @internal The entries written on a claims checkpoint. Savers return a
 * checkpoint's writes only with the checkpoint, and a writer saves the
 * (empty) checkpoint after its first write: when that writer died in
 * between, its write is there but unseen, so the reader saves the
 * checkpoint (saving it twice is harmless) and reads again.
 */
export async function readClaims(checkpointer: BaseCheckpointSaver, config: ClaimsConfig): Promise<Writes> {
  const tuple = (await checkpointer.getTuple(config)) ?? (await saveClaimsCheckpoint(checkpointer, config));
  return tuple.pendingWrites ?? [];
}

/**
 * @internal Writes `entry` on a claims checkpoint as task `taskId` and
 * reads the checkpoint's entries back. Every saver keeps the first write
 * of a (checkpoint, task id, index) and ignores later ones, so of callers
 * writing under one task id exactly one finds its own entry there.
 */
export async function writeClaims(
  checkpointer: BaseCheckpointSaver,
  config: ClaimsConfig,
  entry: unknown,
  taskId: string,
): Promise<Writes> {
  await checkpointer.putWrites(config, [[CHANNEL, entry]], taskId);
  const tuple = (await checkpointer.getTuple(config)) ?? (await saveClaimsCheckpoint(checkpointer, config));
  return tuple.pendingWrites ?? [];
}

async function saveClaimsCheckpoint(checkpointer: BaseCheckpointSaver, config: ClaimsConfig) {
  const checkpoint = { ...emptyCheckpoint(), id: config.configurable.checkpoint_id };
  await checkpointer.put(config, checkpoint, { source: "update", step: -1, parents: {} }, {});
  const tuple = await checkpointer.getTuple(config);
  if (!tuple) {
    const threadId = config.configurable.thread_id;
    throw new LangGoapError("STORE_ERROR", `the checkpointer did not keep the step claims of thread "${threadId}"`, { threadId });
  }
  return tuple;
}

/** @internal The entries on the claims channel among a claims checkpoint's writes. */
export function claimEntries(writes: Writes): unknown[] {
  return writes.filter(([, channel]) => channel === CHANNEL).map(([, , value]) => value);
}

function isEntry(value: unknown): value is ClaimEntry | ReleaseEntry {
  const v = value as Partial<ClaimEntry> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    (v.kind === "claim" || v.kind === "release") &&
    typeof v.position === "number" &&
    typeof v.checkpoint === "string"
  );
}

/**
 * @internal The claims of a run's steps, kept in the checkpointer. Before
 * an executor acts on a step it claims the step's next slot; only one
 * caller wins a slot, so two invocations continuing the same paused or
 * crashed run never both execute a step (the loser gets `STEP_CLAIMED`).
 * Claims are kept by run, in blocks of steps, on small checkpoints of their
 * own (so reading them never reads the run's state). A claim is released when its invocation stops alive
 * without finishing the step (an interrupt inside `execute`); a claim
 * neither finished nor released means its process stopped. Such a step is
 * taken over, as a re-run the action is told about, only by
 * `GoapGraph.recover` or by an invocation under the same `run_id` as the
 * claimant (a platform retrying the run whose worker died).
 */
export class StepJournal {
  readonly #checkpointer: BaseCheckpointSaver;
  readonly #threadId: string;
  readonly #ns: string;
  readonly #runId: string;

  /** The claims of run `runId` on a thread, for a graph in namespace `checkpointNs` ("" at the root). */
  constructor(checkpointer: BaseCheckpointSaver, threadId: string, checkpointNs: string, runId: string) {
    this.#checkpointer = checkpointer;
    this.#threadId = threadId;
    this.#ns = claimsNamespace(checkpointNs);
    this.#runId = runId;
  }

  /** The claims of run `runId` in the graph a node's task runs in, and the checkpoint it runs from; null outside a checkpointed graph. */
  static forTask(config: LangGraphRunnableConfig | undefined, runId: string): { journal: StepJournal; checkpoint: string } | null {
    const task = taskCheckpoint(config);
    return task
      ? { journal: new StepJournal(task.checkpointer, task.threadId, task.checkpointNs, runId), checkpoint: task.checkpointId }
      : null;
  }

  /** The claims checkpoint of step `position`'s block. */
  #config(position: number): ClaimsConfig {
    return claimsConfig(this.#threadId, this.#ns, `${this.#runId}.${Math.floor(position / STEPS_PER_CLAIMS_CHECKPOINT)}`);
  }

  /** The claims of `step` (none before its first claim). */
  async read(step: StepRef): Promise<StepLog> {
    return this.#log(await readClaims(this.#checkpointer, this.#config(step.position)), step);
  }

  #log(writes: Writes, step: StepRef): StepLog {
    const claims = new Map<number, ClaimEntry>();
    const released = new Set<number>();
    for (const [, channel, value] of writes) {
      if (channel !== CHANNEL || !isEntry(value) || value.position !== step.position || value.checkpoint !== step.checkpoint) continue;
      if (value.kind === "claim") claims.set(value.slot, value);
      else released.add(value.slot);
    }
    return { claims, released };
  }

  /** The answers of the latest claim of `step` (what a stopped claimant acted on). */
  async answers(step: StepRef): Promise<Record<string, unknown>> {
    const log = await this.read(step);
    return log.claims.get(Math.max(0, maxOf(log.claims.keys())))?.answers ?? {};
  }

  /**
   * Claims `step` for this invocation (`invocation`: its `run_id`). With a
   * recovery ticket, the slot after those the recovery saw; otherwise the
   * first slot whose earlier holders released it or ran under the same
   * `run_id`. `label` names the step in errors.
   */
  async claim(
    step: StepRef,
    answers: Record<string, unknown>,
    by: { readonly ticket: RecoveryTicket | null; readonly invocation: string | null },
    label: string,
  ): Promise<StepClaim> {
    const { ticket, invocation } = by;
    const owner = randomUuid();
    let slot = ticket ? ticket.slot + 1 : 1;
    for (;;) {
      const at = new Date().toISOString();
      const entry: ClaimEntry = { kind: "claim", ...step, slot, owner, invocation, at, answers };
      const log = await this.#write(step, entry, `langgoap-claim-${step.position}-${step.checkpoint}-${slot}`);
      const holder = log.claims.get(slot);
      if (holder?.owner === owner) {
        let crashes = 0;
        for (const s of log.claims.keys()) if (s < slot && !log.released.has(s)) crashes++;
        return { slot, stepAttempt: slot, crashes };
      }
      const sameRun = invocation !== null && holder?.invocation === invocation;
      if (ticket || !(log.released.has(slot) || sameRun)) throw this.#claimed(step.position, label, holder);
      slot = maxOf(log.claims.keys()) + 1;
    }
  }

  /** Writes an entry and reads the step's claims back. */
  async #write(step: StepRef, entry: ClaimEntry, taskId: string): Promise<StepLog> {
    return this.#log(await writeClaims(this.#checkpointer, this.#config(step.position), entry, taskId), step);
  }

  /** Marks this invocation's claim as given up alive (the step may start again without a recovery). */
  async release(step: StepRef, slot: number): Promise<void> {
    const entry: ReleaseEntry = { kind: "release", ...step, slot };
    const taskId = `langgoap-release-${step.position}-${step.checkpoint}-${slot}`;
    await this.#checkpointer.putWrites(this.#config(step.position), [[CHANNEL, entry]], taskId);
  }

  #claimed(position: number, label: string, holder: ClaimEntry | undefined): LangGoapError {
    const threadId = this.#threadId;
    const when = holder ? ` at ${holder.at}` : "";
    return new LangGoapError(
      "STEP_CLAIMED",
      `thread "${threadId}": step ${position} (${label}) was claimed by another invocation${when}, which runs or ran it; ` +
        "this invocation did not run it (two invocations never run the same step). If the process that claimed it stopped " +
        "before finishing, continue the thread with graph.recover(config)",
      { threadId, runId: this.#runId, position, claimedAt: holder?.at ?? null },
    );
  }
}
