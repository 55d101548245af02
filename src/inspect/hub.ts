import type { ServerResponse } from "node:http";
import { LangGoapError } from "../core/index.js";

/** Limits of an {@link InspectorHub}. */
export interface HubLimits {
  /** Streams open at once; one more is refused with 503. @defaultValue 8 */
  readonly maxClients?: number;
  /** Runs and searches kept; the one updated longest ago leaves first. @defaultValue 64 */
  readonly maxViews?: number;
  /** Largest message in bytes; a larger view is replaced by a marker saying so. @defaultValue 4,000,000 */
  readonly maxMessageBytes?: number;
}

/** Counters of an {@link InspectorHub}, for tests and the page's footer. */
export interface HubStats {
  readonly clients: number;
  /** Messages written to streams. */
  readonly sent: number;
  /** Messages replaced by a newer one of the same view before a slow stream could take them. */
  readonly coalesced: number;
  /** Streams refused because `maxClients` were open. */
  readonly refused: number;
  /** Views dropped because `maxViews` were kept. */
  readonly evicted: number;
  /** Messages replaced by a marker because they exceeded `maxMessageBytes`. */
  readonly oversized: number;
}

interface Message {
  readonly key: string;
  /** The SSE frame, serialized once for every stream. */
  readonly frame: string;
}

interface Client {
  readonly res: ServerResponse;
  /** Views waiting for a blocked stream: one message a view, the newest. */
  readonly pending: Map<string, Message>;
  blocked: boolean;
}

/** Whether a key names a view that is evicted oldest-first (every view but the page-wide ones). */
const EVICTABLE = /^(run|search):/;

/**
 * @internal The inspector's fan-out: the latest message of every view, and
 * the open Server-Sent-Events streams. A new stream first receives every
 * view's latest message, so a reconnecting page is whole again at once.
 * Memory is bounded whatever the clients do: a stream whose socket is
 * backed up gets nothing more until it drains, and meanwhile keeps only the
 * newest message of each view (older ones are counted in `coalesced`);
 * views and streams are capped.
 */
export class InspectorHub {
  readonly #latest = new Map<string, Message>();
  readonly #clients = new Set<Client>();
  readonly #maxClients: number;
  readonly #maxViews: number;
  readonly #maxMessageBytes: number;
  #sent = 0;
  #coalesced = 0;
  #refused = 0;
  #evicted = 0;
  #oversized = 0;
  #sequence = 0;

  constructor(limits: HubLimits = {}) {
    this.#maxClients = positiveInteger("maxClients", limits.maxClients ?? 8);
    this.#maxViews = positiveInteger("maxViews", limits.maxViews ?? 64);
    this.#maxMessageBytes = positiveInteger("maxMessageBytes", limits.maxMessageBytes ?? 4_000_000);
  }

  get stats(): HubStats {
    return {
      clients: this.#clients.size,
      sent: this.#sent,
      coalesced: this.#coalesced,
      refused: this.#refused,
      evicted: this.#evicted,
      oversized: this.#oversized,
    };
  }

  /** The latest data of every view, in publication order (for `GET /api/state`). */
  snapshot(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, message] of this.#latest) out[key] = JSON.parse(message.frame.slice(message.frame.indexOf("data: ") + 6));
    return out;
  }

  /** Publishes a view's new data (already in display form) to every stream. */
  publish(key: string, data: unknown): void {
    let json = JSON.stringify({ key, seq: ++this.#sequence, data });
    // A UTF-16 unit is at most 3 UTF-8 bytes: most messages skip the exact count (a second pass over 150 KB a frame).
    if (json.length * 3 > this.#maxMessageBytes && Buffer.byteLength(json) > this.#maxMessageBytes) {
      this.#oversized++;
      json = JSON.stringify({
        key,
        seq: this.#sequence,
        data: { oversized: `this view is larger than ${this.#maxMessageBytes} bytes and was not sent` },
      });
    }
    const message: Message = { key, frame: `data: ${json}\n\n` };
    this.#latest.delete(key);
    this.#latest.set(key, message);
    this.#evict();
    for (const client of this.#clients) this.#offer(client, message);
  }

  /** Forgets a view (its key no longer appears to new streams). */
  remove(key: string): void {
    this.#latest.delete(key);
  }

  /**
   * Opens a Server-Sent-Events stream on `res` (status 503 when `maxClients`
   * are open) and sends every view's latest message.
   */
  attach(res: ServerResponse): boolean {
    if (this.#clients.size >= this.#maxClients) {
      this.#refused++;
      res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "5" });
      res.end(`too many inspector streams are open (${this.#maxClients})\n`);
      return false;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-content-type-options": "nosniff",
    });
    const client: Client = { res, pending: new Map(), blocked: false };
    this.#clients.add(client);
    res.on("close", () => this.#clients.delete(client));
    res.on("drain", () => {
      client.blocked = false;
      this.#flush(client);
    });
    // Reconnect quickly after the server restarts or the stream breaks.
    this.#write(client, "retry: 1000\n\n");
    for (const message of this.#latest.values()) this.#offer(client, message);
    return true;
  }

  /** Sends a comment to every stream, so idle proxies and browsers keep them open. */
  heartbeat(): void {
    for (const client of this.#clients) if (!client.blocked) this.#write(client, ": keep-alive\n\n");
  }

  /** Ends every stream. */
  close(): void {
    for (const client of this.#clients) client.res.end();
    this.#clients.clear();
  }

  #offer(client: Client, message: Message): void {
    if (client.blocked) {
      if (client.pending.has(message.key)) this.#coalesced++;
      client.pending.delete(message.key);
      client.pending.set(message.key, message);
      return;
    }
    this.#sent++;
    this.#write(client, message.frame);
  }

  #flush(client: Client): void {
    for (const [key, message] of client.pending) {
      if (client.blocked) return;
      client.pending.delete(key);
      this.#sent++;
      this.#write(client, message.frame);
    }
  }

  #write(client: Client, frame: string): void {
    if (client.res.destroyed || client.res.writableEnded) return;
    if (!client.res.write(frame)) client.blocked = true;
  }

  #evict(): void {
    // maxViews counts runs and searches; the page-wide views (meta, crowd, history) are always kept.
    let evictable = 0;
    for (const key of this.#latest.keys()) if (EVICTABLE.test(key)) evictable++;
    for (const key of this.#latest.keys()) {
      if (evictable <= this.#maxViews) break;
      if (!EVICTABLE.test(key)) continue;
      this.#latest.delete(key);
      evictable--;
      this.#evicted++;
      for (const client of this.#clients) client.pending.delete(key);
    }
  }
}

function positiveInteger(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new LangGoapError("INVALID_OPTION", `inspector: ${field} must be a whole number >= 1, got ${String(value)}`, { field, value });
  }
  return value;
}
