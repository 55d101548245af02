/**
 * A TCP proxy in the test's process between one fleet worker and its
 * PostgreSQL, to cut that worker's network without root or namespaces.
 * `cut()` stops forwarding on every open connection (the bytes either side
 * sends are held, never delivered: the worker's statements hang, as over a
 * network that drops packets) and refuses new connections; `restore()`
 * destroys the held connections (their data is lost, as a partition's)
 * and forwards new ones again.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";

/** Where the proxy forwards to: a loopback port or a Unix socket's path. */
export type ProxyTarget = { readonly port: number } | { readonly path: string };

interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
}

export class TcpProxy {
  readonly #server: Server;
  readonly #target: ProxyTarget;
  readonly #pairs = new Set<Pair>();
  #cut = false;
  /** Connections refused while cut. */
  refused = 0;

  private constructor(server: Server, target: ProxyTarget) {
    this.#server = server;
    this.#target = target;
    server.on("connection", (client) => this.#accept(client));
  }

  /** A proxy on a free loopback port forwarding to a port on 127.0.0.1 or to a Unix socket (a private test server's). */
  static async start(target: ProxyTarget): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, target);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return proxy;
  }

  /** The port the worker connects to. */
  get port(): number {
    return (this.#server.address() as { port: number }).port;
  }

  /** `url` (a PostgreSQL URL, over TCP or a Unix socket) through this proxy. */
  urlThrough(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = "127.0.0.1";
    parsed.port = String(this.port);
    parsed.searchParams.delete("host");
    parsed.searchParams.delete("port");
    return parsed.toString();
  }

  /** Connections open now. */
  get open(): number {
    return this.#pairs.size;
  }

  /** Stops forwarding on every open connection (holding both sides) and refuses new ones. */
  cut(): void {
    this.#cut = true;
    for (const { client, upstream } of this.#pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  /** Destroys the held connections and forwards new ones again. */
  restore(): void {
    for (const pair of this.#pairs) this.#drop(pair);
    this.#cut = false;
  }

  async close(): Promise<void> {
    for (const pair of this.#pairs) this.#drop(pair);
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket): void {
    if (this.#cut) {
      this.refused++;
      client.destroy();
      return;
    }
    const upstream = createConnection(
      "path" in this.#target ? { path: this.#target.path } : { host: "127.0.0.1", port: this.#target.port },
    );
    const pair = { client, upstream };
    this.#pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => this.#drop(pair);
    client.on("error", drop);
    upstream.on("error", drop);
    client.on("close", drop);
    upstream.on("close", drop);
  }

  #drop(pair: Pair): void {
    if (!this.#pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream.destroy();
  }
}
