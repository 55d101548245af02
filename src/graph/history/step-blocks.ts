import type { BaseStore, GetOperation, PutOperation } from "@langchain/langgraph";
import { describeValue, LangGoapError } from "../../core/errors.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { HISTORY_WINDOW } from "../history-window-size.js";
import type { ActionResult } from "../state.js";

/**
 * A run's executed actions from position `first` (a multiple of
 * {@link HISTORY_WINDOW}), as the graph stores them: each block as one store
 * item, written when it fills up (the run's state keeps only a window of
 * the newest records) and the last one when the run ends.
 */
export interface StepBlock {
  readonly runId: string;
  readonly threadId?: string;
  /** Position in the run of the block's first record. */
  readonly first: number;
  readonly records: readonly ActionResult[];
  /** The run's last block, written when it ended: the run has `first + records.length` records. */
  readonly final: boolean;
  /** Epoch ms of the run's first planning round: orders the runs of a thread. */
  readonly runStartedAt: number;
}

/** One executed action of a run, with where it stands. */
export interface HistoryStep extends ActionResult {
  readonly runId: string;
  readonly threadId?: string;
  /** Position in the run, from 0. */
  readonly index: number;
}

/** One page of a run's or thread's full history. */
export interface HistoryPage {
  /** Oldest first. */
  readonly steps: HistoryStep[];
  /** Give it back for the next page; `null` when no stored record follows. */
  readonly nextCursor: string | null;
  /**
   * True when every run paged through had ended and its records are all
   * stored. False when a run has not ended (crashed, paused, still
   * running): its newest records are in its state's `executionHistory`
   * (blocks of {@link HISTORY_WINDOW} are stored as they fill up).
   */
  readonly complete: boolean;
}

/** Options of a history page read. */
export interface HistoryPageOptions {
  /** Where to go on: a page's `nextCursor`. @defaultValue the first record */
  readonly cursor?: string | null;
  /** Most records in the page, 1 to {@link MAX_HISTORY_PAGE}. @defaultValue 100 */
  readonly limit?: number;
}

/** Most records one history page holds. */
export const MAX_HISTORY_PAGE = 1000;
const DEFAULT_HISTORY_PAGE = 100;

/** Thread runs read per store search. */
const RUNS_PER_SEARCH = 500;

/** Where a page goes on: a run and a position in it. */
interface Cursor {
  readonly runId: string;
  readonly index: number;
}

function fail(message: string, details: Record<string, unknown> = {}, cause?: unknown): never {
  throw new LangGoapError("STORE_ERROR", message, details, cause === undefined ? undefined : { cause });
}

function encodeCursor(cursor: Cursor): string {
  return `${encodeURIComponent(cursor.runId)}:${cursor.index}`;
}

function decodeCursor(text: unknown, where: string): Cursor {
  const match = typeof text === "string" ? /^([^:]+):(\d{1,15})$/.exec(text) : null;
  if (!match) throw new LangGoapError("INVALID_OPTION", `${where}: cursor must be a page's nextCursor, got ${describeValue(text)}`);
  let runId: string;
  try {
    runId = decodeURIComponent(match[1] as string);
  } catch {
    throw new LangGoapError("INVALID_OPTION", `${where}: cursor must be a page's nextCursor, got ${describeValue(text)}`);
  }
  return { runId, index: Number(match[2]) };
}

function pageLimit(limit: unknown, where: string): number {
  if (limit === undefined) return DEFAULT_HISTORY_PAGE;
  if (!(typeof limit === "number" && Number.isInteger(limit) && limit >= 1 && limit <= MAX_HISTORY_PAGE)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `${where}: limit must be an integer from 1 to ${MAX_HISTORY_PAGE}, got ${describeValue(limit)}`,
    );
  }
  return limit;
}

function text(value: unknown, what: string, where: string): string {
  if (typeof value !== "string" || value === "")
    throw new LangGoapError("INVALID_OPTION", `${where}: expected ${what}, got ${describeValue(value)}`);
  return value;
}

/** A run or thread id as a namespace label (store labels may hold no ".", ":" or NUL). */
function label(id: string): string {
  return encodeURIComponent(id).replace(/\./g, "%2E");
}

/** Keys sort in run order: positions padded to 12 digits. */
function blockKey(first: number): string {
  return String(first).padStart(12, "0");
}

const HISTORY_PAGE_OPTIONS_KEYS = { cursor: true, limit: true } as const satisfies OptionKeys<HistoryPageOptions>;

/** Reads and writes a run's step blocks under `[...namespace, "steps", runId]`, and a thread's runs under `[...namespace, "thread-runs", threadId]`. @internal */
export class StepBlockStore {
  constructor(
    readonly store: BaseStore,
    readonly namespace: readonly string[],
  ) {}

  /** Stores a block (replacing one at the same position: a step run again after a crash writes what it did). */
  async write(block: StepBlock): Promise<void> {
    if (block.first % HISTORY_WINDOW !== 0 || block.records.length > HISTORY_WINDOW) {
      fail(
        `StoreExecutionHistory.recordSteps: a block starts at a multiple of ${HISTORY_WINDOW} and holds at most as many records, got ${block.records.length} from ${block.first}`,
      );
    }
    const value = JSON.parse(JSON.stringify(block)) as Record<string, unknown>;
    const operations: PutOperation[] = [{ namespace: this.#blocks(block.runId), key: blockKey(block.first), value }];
    if (block.threadId) {
      operations.push({
        namespace: this.#threadRuns(block.threadId),
        key: block.runId,
        value: { runId: block.runId, threadId: block.threadId, startedAt: block.runStartedAt },
      });
    }
    try {
      await this.store.batch(operations);
    } catch (error) {
      fail(
        `StoreExecutionHistory: the store could not save the steps of run ${block.runId} from ${block.first}: ${(error as Error)?.message ?? error}`,
        { runId: block.runId },
        error,
      );
    }
  }

  /** A page of one run's records. */
  async readRun(runId: string, options: HistoryPageOptions = {}): Promise<HistoryPage> {
    const where = "StoreExecutionHistory.readRunHistory";
    text(runId, "a run id", where);
    const limit = pageLimit(options.limit, where);
    let from = 0;
    if (options.cursor !== undefined && options.cursor !== null) {
      const cursor = decodeCursor(options.cursor, where);
      if (cursor.runId !== runId)
        throw new LangGoapError(
          "INVALID_OPTION",
          `${where}: the cursor belongs to run ${describeValue(cursor.runId)}, not ${describeValue(runId)}`,
        );
      from = cursor.index;
    }
    return this.#page(runId, from, limit);
  }

  /** A page of every run of a thread, runs in the order they started. */
  async readThread(threadId: string, options: HistoryPageOptions = {}): Promise<HistoryPage> {
    checkOptionKeys(options, HISTORY_PAGE_OPTIONS_KEYS, "readThreadHistory()");
    const where = "StoreExecutionHistory.readThreadHistory";
    text(threadId, "a thread id", where);
    const limit = pageLimit(options.limit, where);
    const runs = await this.#runsOf(threadId);
    let at = 0;
    let from = 0;
    if (options.cursor !== undefined && options.cursor !== null) {
      const cursor = decodeCursor(options.cursor, where);
      at = runs.indexOf(cursor.runId);
      if (at < 0)
        throw new LangGoapError(
          "INVALID_OPTION",
          `${where}: the cursor names run ${describeValue(cursor.runId)}, which thread ${describeValue(threadId)} does not hold`,
        );
      from = cursor.index;
    }
    const steps: HistoryStep[] = [];
    let complete = true;
    for (; at < runs.length; at++, from = 0) {
      const runId = runs[at] as string;
      const page = await this.#page(runId, from, limit - steps.length);
      steps.push(...page.steps);
      if (!page.complete) complete = false;
      if (page.nextCursor !== null) return { steps, nextCursor: page.nextCursor, complete };
      if (steps.length >= limit) {
        const next = runs[at + 1];
        return { steps, nextCursor: next === undefined ? null : encodeCursor({ runId: next, index: 0 }), complete };
      }
    }
    return { steps, nextCursor: null, complete };
  }

  /**
   * Records `from` on of one run, at most `limit`: the blocks that hold them
   * are read in one batch. Stops at the run's last block, or at a block not
   * stored yet (the run has not ended).
   */
  async #page(runId: string, from: number, limit: number): Promise<HistoryPage> {
    const firstBlock = Math.floor(from / HISTORY_WINDOW);
    const lastBlock = Math.floor((from + limit - 1) / HISTORY_WINDOW);
    const gets: GetOperation[] = [];
    for (let b = firstBlock; b <= lastBlock; b++) gets.push({ namespace: this.#blocks(runId), key: blockKey(b * HISTORY_WINDOW) });
    let items: ({ value: Record<string, unknown> } | null)[];
    try {
      items = (await this.store.batch(gets)) as ({ value: Record<string, unknown> } | null)[];
    } catch (error) {
      return fail(
        `StoreExecutionHistory: the store could not read the steps of run ${runId}: ${(error as Error)?.message ?? error}`,
        { runId },
        error,
      );
    }
    const steps: HistoryStep[] = [];
    for (let i = 0; i < items.length; i++) {
      const block = items[i]?.value as StepBlock | undefined;
      // Not stored yet: the run has not ended (its newest records are in its state).
      if (block === undefined) return { steps, nextCursor: null, complete: false };
      const start = (firstBlock + i) * HISTORY_WINDOW;
      for (let k = Math.max(0, from - start); k < block.records.length && steps.length < limit; k++) {
        steps.push({
          ...(block.records[k] as ActionResult),
          runId,
          ...(block.threadId ? { threadId: block.threadId } : {}),
          index: start + k,
        });
      }
      const end = start + block.records.length;
      if (block.final) {
        const next = from + steps.length;
        return { steps, nextCursor: next < end ? encodeCursor({ runId, index: next }) : null, complete: true };
      }
      if (steps.length >= limit) return { steps, nextCursor: encodeCursor({ runId, index: from + steps.length }), complete: true };
    }
    return { steps, nextCursor: encodeCursor({ runId, index: from + steps.length }), complete: true };
  }

  /** The ids of a thread's runs, in the order they started (ties by id). */
  async #runsOf(threadId: string): Promise<string[]> {
    const namespace = this.#threadRuns(threadId);
    const runs: { runId: string; startedAt: number }[] = [];
    try {
      for (let offset = 0; ; offset += RUNS_PER_SEARCH) {
        const page = await this.store.search(namespace, { limit: RUNS_PER_SEARCH, offset });
        for (const item of page) {
          // Stores match namespaces by prefix: a thread whose id extends this one's is not this thread.
          if (item.namespace.length !== namespace.length || item.namespace[namespace.length - 1] !== label(threadId)) continue;
          const value = item.value as { runId?: unknown; startedAt?: unknown };
          if (typeof value.runId === "string")
            runs.push({ runId: value.runId, startedAt: typeof value.startedAt === "number" ? value.startedAt : 0 });
        }
        if (page.length < RUNS_PER_SEARCH) break;
      }
    } catch (error) {
      fail(
        `StoreExecutionHistory: the store could not list the runs of thread ${threadId}: ${(error as Error)?.message ?? error}`,
        { threadId },
        error,
      );
    }
    runs.sort((a, b) => a.startedAt - b.startedAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
    return runs.map((r) => r.runId);
  }

  #blocks(runId: string): string[] {
    return [...this.namespace, "steps", label(runId)];
  }

  #threadRuns(threadId: string): string[] {
    return [...this.namespace, "thread-runs", label(threadId)];
  }
}
