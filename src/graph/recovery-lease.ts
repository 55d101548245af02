import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { maxOf } from "../core/extremes.js";
import { LangGoapError } from "../core/index.js";
import { randomUuid } from "../core/uuid.js";
import { type Liveness, liveness, type ProcessIdentity, thisProcess } from "./process-identity.js";
import { type ClaimsConfig, claimEntries, claimsConfig, claimsNamespace, readClaims, writeClaims } from "./step-journal.js";

interface RecoveryEntry {
  readonly kind: "recovery";
  readonly generation: number;
  readonly id: string;
  readonly process: ProcessIdentity;
  readonly at: string;
}

interface RecoveryEnd {
  readonly kind: "recovery-end";
  readonly generation: number;
}

interface Recoveries {
  readonly started: ReadonlyMap<number, RecoveryEntry>;
  readonly ended: ReadonlySet<number>;
}

function recoveries(writes: Awaited<ReturnType<typeof readClaims>>): Recoveries {
  const started = new Map<number, RecoveryEntry>();
  const ended = new Set<number>();
  for (const value of claimEntries(writes)) {
    const entry = value as { kind?: unknown; generation?: unknown; id?: unknown; process?: unknown } | null;
    if (typeof entry !== "object" || entry === null || typeof entry.generation !== "number") continue;
    if (entry.kind === "recovery" && typeof entry.id === "string" && typeof entry.process === "object" && entry.process !== null)
      started.set(entry.generation, entry as unknown as RecoveryEntry);
    else if (entry.kind === "recovery-end") ended.add(entry.generation);
  }
  return { started, ended };
}

/**
 * @internal The right to recover a run, held by one `GoapGraph.recover`
 * at a time. Recoveries of a run are numbered; a recovery takes the number
 * after the last one with a compare-and-set write (the checkpointer keeps
 * the first write of a task id, as for step claims), so of recoveries that
 * start together exactly one wins. A later recovery waits for none: while
 * the last one may still run (it has not written its end, and its process
 * runs, or runs on another host where this one cannot see it) it is
 * refused with `STEP_CLAIMED`; once that process is gone, the run is
 * taken over.
 */
export class RecoveryLease {
  readonly #checkpointer: BaseCheckpointSaver;
  readonly #config: ClaimsConfig;
  readonly #generation: number;

  private constructor(checkpointer: BaseCheckpointSaver, config: ClaimsConfig, generation: number) {
    this.#checkpointer = checkpointer;
    this.#config = config;
    this.#generation = generation;
  }

  /**
   * Takes the lease of run `runId` of a thread, or throws `STEP_CLAIMED`
   * when another recovery holds it. `takeOver`: the caller knows every
   * earlier recovery has stopped (needed only for one on another host).
   */
  static async acquire(
    checkpointer: BaseCheckpointSaver,
    at: { readonly threadId: string; readonly checkpointNs: string; readonly runId: string },
    takeOver: boolean,
  ): Promise<RecoveryLease> {
    const config = claimsConfig(at.threadId, claimsNamespace(at.checkpointNs), `${at.runId}.recoveries`);
    const seen = recoveries(await readClaims(checkpointer, config));
    const last = Math.max(0, maxOf(seen.started.keys()));
    const holder = seen.started.get(last);
    if (holder && !seen.ended.has(last) && !takeOver) {
      const state = await liveness(holder.process);
      if (state !== "gone") throw busy(at, holder, state);
    }
    const generation = last + 1;
    const mine: RecoveryEntry = {
      kind: "recovery",
      generation,
      id: randomUuid(),
      process: await thisProcess(),
      at: new Date().toISOString(),
    };
    const after = recoveries(await writeClaims(checkpointer, config, mine, `langgoap-recovery-${generation}`));
    const winner = after.started.get(generation);
    if (winner?.id !== mine.id) throw busy(at, winner, "alive");
    return new RecoveryLease(checkpointer, config, generation);
  }

  /** Ends the lease (the recovery stops alive: returned, paused or failed); the next recovery need not wait. */
  async end(): Promise<void> {
    const entry: RecoveryEnd = { kind: "recovery-end", generation: this.#generation };
    await writeClaims(this.#checkpointer, this.#config, entry, `langgoap-recovery-end-${this.#generation}`);
  }
}

function busy(
  at: { readonly threadId: string; readonly runId: string },
  holder: RecoveryEntry | undefined,
  state: Liveness,
): LangGoapError {
  const { threadId, runId } = at;
  const who = holder ? ` (process ${holder.process.pid} on host "${holder.process.host}", since ${holder.at})` : "";
  const next =
    state === "unknown"
      ? "That process runs on another host, so whether it still runs cannot be seen from here: once you know it has stopped, " +
        "call graph.recover(config, { takeOver: true })"
      : "If that process stops before the run ends, call graph.recover(config) again";
  return new LangGoapError(
    "STEP_CLAIMED",
    `thread "${threadId}": its run is being recovered by another invocation${who}, which runs its steps; this recovery ran nothing ` +
      `(two recoveries never run one thread at once). ${next}`,
    {
      threadId,
      runId,
      recoveredBy: holder ? { host: holder.process.host, pid: holder.process.pid } : null,
      claimedAt: holder?.at ?? null,
    },
  );
}
