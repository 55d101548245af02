import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import { describeValue, LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";

/** A thread as the embedded LangGraph server reports it. */
export interface ServedThread {
  readonly thread_id: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** ISO 8601 time the thread was created. */
  readonly created_at: string;
  /** ISO 8601 time of the last change. */
  readonly updated_at: string;
}

/** What the embedded server asks of its thread registry: `put` creates or replaces a thread, `patch` merges metadata. */
export interface ThreadWrite {
  readonly kind: "put" | "patch";
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Options of {@link StoreThreadSaver}. */
export interface StoreThreadSaverOptions {
  /** Store namespace of the thread records. @defaultValue ["langgoap", "threads"] */
  readonly namespace?: readonly string[];
  /** When given, `delete` also deletes the thread's checkpoints, as the LangGraph platform does. @defaultValue none */
  readonly checkpointer?: BaseCheckpointSaver;
  /** Clock for `created_at` / `updated_at`. @defaultValue () => new Date() */
  readonly now?: () => Date;
}

function metadataOf(value: unknown, id: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new LangGoapError("INVALID_OPTION", `thread ${id}: metadata must be an object, got ${describeValue(value)}`, { threadId: id });
  }
  return { ...(value as Record<string, unknown>) };
}

const STORE_THREAD_SAVER_OPTIONS_KEYS = {
  namespace: true,
  checkpointer: true,
  now: true,
} as const satisfies OptionKeys<StoreThreadSaverOptions>;

/**
 * The thread registry of the embedded LangGraph server
 * (`createEmbedServer` from `@langchain/langgraph-api/experimental/embed`),
 * kept in a LangGraph `BaseStore`. With a `PostgresStore` next to a
 * `PostgresSaver`, every server process sees the same threads and
 * checkpoints: a run paused by one process is resumed by any other.
 *
 * `get` resolves to `undefined` for an unknown thread: the embedded server's
 * routes test for that and answer 404 (its `ThreadSaver` type says
 * `Promise<Thread>`, so the signature here follows it).
 *
 * @example
 * ```ts
 * const store = PostgresStore.fromConnString(url);
 * const checkpointer = PostgresSaver.fromConnString(url);
 * const app = createEmbedServer({
 *   graph: { agent: graph },
 *   checkpointer,
 *   store,
 *   threads: new StoreThreadSaver(store, { checkpointer }),
 * });
 * ```
 */
export class StoreThreadSaver {
  readonly #store: BaseStore;
  readonly #namespace: string[];
  readonly #now: () => Date;
  readonly #checkpointer: BaseCheckpointSaver | undefined;

  constructor(store: BaseStore, options: StoreThreadSaverOptions = {}) {
    checkOptionKeys(options, STORE_THREAD_SAVER_OPTIONS_KEYS, "new StoreThreadSaver()");
    if (typeof store?.get !== "function" || typeof store.put !== "function" || typeof store.delete !== "function") {
      throw new LangGoapError("INVALID_OPTION", `StoreThreadSaver: expected a LangGraph BaseStore, got ${describeValue(store)}`);
    }
    const namespace = options.namespace ?? ["langgoap", "threads"];
    if (!Array.isArray(namespace) || namespace.length === 0 || !namespace.every((part) => typeof part === "string" && part !== "")) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `StoreThreadSaver option namespace must be a non-empty array of non-empty strings, got ${describeValue(namespace)}`,
      );
    }
    this.#store = store;
    this.#namespace = [...namespace];
    this.#now = options.now ?? (() => new Date());
    this.#checkpointer = options.checkpointer;
  }

  /** The thread, or `undefined` when there is none (the server answers 404). */
  async get(id: string): Promise<ServedThread> {
    const item = await this.#store.get(this.#namespace, id);
    return item?.value as ServedThread | undefined as ServedThread;
  }

  /** Creates or replaces (`put`) a thread, or merges metadata into it (`patch`, creating it when missing). */
  async set(id: string, write: ThreadWrite): Promise<ServedThread> {
    if (typeof id !== "string" || id === "")
      throw new LangGoapError("INVALID_OPTION", `thread id must be a non-empty string, got ${describeValue(id)}`);
    if (write?.kind !== "put" && write?.kind !== "patch") {
      throw new LangGoapError("INVALID_OPTION", `thread ${id}: write kind must be "put" or "patch", got ${describeValue(write?.kind)}`);
    }
    const metadata = metadataOf(write.metadata, id);
    const now = this.#now().toISOString();
    const existing = await this.get(id);
    const thread: ServedThread =
      write.kind === "patch" && existing
        ? { ...existing, metadata: { ...existing.metadata, ...metadata }, updated_at: now }
        : { thread_id: id, metadata, created_at: existing?.created_at ?? now, updated_at: now };
    await this.#store.put(this.#namespace, id, { ...thread });
    return thread;
  }

  /** Forgets a thread, and deletes its checkpoints when the saver was given a checkpointer. */
  async delete(id: string): Promise<void> {
    await this.#checkpointer?.deleteThread(id);
    await this.#store.delete(this.#namespace, id);
  }
}
