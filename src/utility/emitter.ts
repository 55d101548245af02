/** A listener of one event: receives the event's payload. */
export type TypedListener<T> = (payload: T) => void;

/** Removes the listener it was returned for. */
export type Unsubscribe = () => void;

/**
 * A small synchronous event emitter typed by an event map (no DOM, no Node
 * `EventEmitter`): `Events` maps each event name to its payload type.
 *
 * Listeners run in subscription order. A throwing listener does not stop
 * the others; after all have run, the first error is rethrown to the code
 * that emitted, so bugs surface instead of vanishing.
 *
 * @example
 * ```ts
 * const events = new TypedEmitter<{ changed: { to: string } }>();
 * const stop = events.on("changed", (e) => console.log(e.to));
 * events.emit("changed", { to: "eat" }); // logs "eat"
 * stop();
 * ```
 */
export class TypedEmitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, TypedListener<never>[]>();

  /** Calls `listener` on every `event` until the returned function is called. */
  on<K extends keyof Events>(event: K, listener: TypedListener<Events[K]>): Unsubscribe {
    const list = this.#listeners.get(event) ?? [];
    // Copy on write, so a listener that unsubscribes during emit does not skip its neighbour.
    this.#listeners.set(event, [...list, listener as TypedListener<never>]);
    return () => this.off(event, listener);
  }

  /** Calls `listener` on the next `event` only. */
  once<K extends keyof Events>(event: K, listener: TypedListener<Events[K]>): Unsubscribe {
    const wrapper: TypedListener<Events[K]> = (payload) => {
      this.off(event, wrapper);
      listener(payload);
    };
    return this.on(event, wrapper);
  }

  /** Removes one subscription of `listener` to `event`. */
  off<K extends keyof Events>(event: K, listener: TypedListener<Events[K]>): void {
    const list = this.#listeners.get(event);
    if (!list) return;
    const index = list.indexOf(listener as TypedListener<never>);
    if (index < 0) return;
    const next = [...list.slice(0, index), ...list.slice(index + 1)];
    if (next.length) this.#listeners.set(event, next);
    else this.#listeners.delete(event);
  }

  /** Number of listeners of `event`. */
  listenerCount(event: keyof Events): number {
    return this.#listeners.get(event)?.length ?? 0;
  }

  /** Delivers `payload` to every listener of `event`. */
  protected emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const list = this.#listeners.get(event);
    if (!list) return;
    let failure: { error: unknown } | undefined;
    for (const listener of list) {
      try {
        (listener as TypedListener<Events[K]>)(payload);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
