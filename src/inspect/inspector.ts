import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type ActionSpec, type GoalLike, LangGoapError, type PlanningTracer, type TraceRun, type WorldState } from "../core/index.js";
import { uplotAsset } from "./assets.js";
import { INSPECTOR_SCRIPT } from "./client-script.js";
import { CrowdMonitor } from "./crowd.js";
import { displayData } from "./display.js";
import { type HubLimits, type HubStats, InspectorHub } from "./hub.js";
import { INSPECTOR_CSS, inspectorPage } from "./page.js";
import { InspectorRun, type InspectorRunOptions } from "./run-view.js";
import { type InspectSearchOptions, searchView } from "./search-view.js";

/** What the inspector reads finished runs from: an execution history store (`StoreExecutionHistory`, or anything with `list`). */
export interface InspectorHistorySource {
  list(limit?: number): Promise<readonly unknown[]>;
}

/** Options of {@link createInspector}. */
export interface InspectorOptions extends HubLimits {
  /** The page's title. @defaultValue "langgoap inspector" */
  readonly title?: string;
  /** Finished runs to list (read by {@link Inspector.refreshHistory}). @defaultValue none */
  readonly history?: InspectorHistorySource;
  /** Finished runs listed at most. @defaultValue 200 */
  readonly historyLimit?: number;
  /** Agents the crowd view watches at most. @defaultValue 10,000 */
  readonly maxAgents?: number;
  /** Milliseconds between keep-alive comments on idle streams. @defaultValue 15,000 */
  readonly heartbeatMs?: number;
}

/** Options of {@link Inspector.listen}. */
export interface ListenOptions {
  /** @defaultValue 0 (any free port) */
  readonly port?: number;
  /** A loopback address: the inspector shows your runs' data and has no authentication. @defaultValue "127.0.0.1" */
  readonly host?: string;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

const HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  // Scripts and styles from the page's own origin only: even markup that slipped in could not run.
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/**
 * The live inspector: a web page that shows graph runs step by step, a
 * crowd of agents, single planning calls' search trees and finished runs
 * from an execution history store, updated over Server-Sent Events. Serve
 * it on loopback with {@link Inspector.listen} (or `langgoap inspect`), or
 * mount {@link Inspector.handler} into your own `node:http` server or
 * Express/Connect app. Node only: import it from `langgoap/inspect`.
 *
 * @example
 * ```ts
 * import { createInspector } from "langgoap/inspect";
 * const inspector = createInspector({ title: "village" });
 * const { url } = await inspector.listen({ port: 7300 });
 * console.log(`inspector at ${url}`);
 * const graph = new GoapGraph(actions, { tracer: inspector.run("run-1") });
 * ```
 */
export class Inspector {
  /** The crowd view: watch agents, then call `sample()` from your loop. */
  readonly crowd: CrowdMonitor;
  readonly #hub: InspectorHub;
  readonly #title: string;
  readonly #runs = new Map<string, InspectorRun>();
  readonly #dirty = new Set<InspectorRun>();
  #flushScheduled = false;
  /** Flushes scheduled and history reads under way, for {@link Inspector.idle}. */
  readonly #pending = new Set<Promise<unknown>>();
  readonly #history: InspectorHistorySource | undefined;
  readonly #historyLimit: number;
  readonly #heartbeatMs: number;
  readonly #maxRuns: number;
  #heartbeat: NodeJS.Timeout | undefined;
  #server: Server | undefined;
  #searches = 0;

  constructor(options: InspectorOptions = {}) {
    this.#hub = new InspectorHub(options);
    this.#title = options.title ?? "langgoap inspector";
    this.#history = options.history;
    this.#historyLimit = options.historyLimit ?? 200;
    this.#heartbeatMs = options.heartbeatMs ?? 15_000;
    this.#maxRuns = options.maxViews ?? 64;
    this.crowd = new CrowdMonitor(
      (frame) => this.#hub.publish("crowd", { ...(displayData(frame) as object), sentAt: Date.now() }),
      options.maxAgents ?? 10_000,
    );
    this.#hub.publish("meta", displayData({ title: this.#title }));
  }

  /** Streams, messages and what backpressure coalesced. */
  get stats(): HubStats {
    return this.#hub.stats;
  }

  /**
   * The live view of one graph run, created on first use: pass it (or a
   * `MultiTracer` holding it) as the graph's tracer, and feed it the
   * graph's streamed states with `observe` to show approvals.
   */
  run(id: string, options: InspectorRunOptions = {}): InspectorRun {
    let run = this.#runs.get(id);
    if (!run) {
      const created: InspectorRun = new InspectorRun(
        id,
        options,
        () => this.#markDirty(created),
        () => void this.refreshHistory(),
      );
      run = created;
      this.#runs.set(id, run);
      // Runs kept are bounded like the views: the oldest is forgotten (a served graph may start runs forever).
      for (const [oldId, old] of this.#runs) {
        if (this.#runs.size <= this.#maxRuns) break;
        this.#runs.delete(oldId);
        // A forgotten run may still be going: its pending change and its later hooks must not bring its view back.
        this.#dirty.delete(old);
        this.#hub.remove(`run:${oldId}`);
      }
      this.#markDirty(run);
    }
    return run;
  }

  /**
   * One tracer for every run of a graph (or of a served graph with
   * concurrent runs): each run gets its own view, named by its run id (and
   * thread). For approvals, feed a run's streamed states to
   * `inspector.run(runId).observe`.
   *
   * @example
   * ```ts
   * const graph = new GoapGraph(actions, { tracer: inspector.tracer() });
   * ```
   */
  tracer(): PlanningTracer {
    return {
      forRun: (run: TraceRun) => {
        const id = run.runId ?? run.threadId ?? "run";
        return this.run(id, { title: run.threadId && run.runId ? `${run.threadId} · ${run.runId}` : id });
      },
    };
  }

  #markDirty(run: InspectorRun): void {
    if (this.#runs.get(run.id) !== run) return;
    this.#dirty.add(run);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // One message per run per event-loop turn: a burst of hooks costs one serialization.
    const flushed = new Promise<void>((resolve) =>
      setImmediate(() => {
        this.#flushScheduled = false;
        for (const dirty of this.#dirty)
          this.#hub.publish(`run:${dirty.id}`, { ...(displayData(dirty.toView()) as object), sentAt: Date.now() });
        this.#dirty.clear();
        resolve();
      }),
    );
    this.#track(flushed);
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    const done = () => void this.#pending.delete(work);
    work.then(done, done);
    return work;
  }

  /**
   * Resolves once the views show everything that happened so far: the run
   * views changed by tracer hooks are published (that happens on the next
   * event-loop turn, one message per run per turn) and the history reads
   * under way (a run that ended reads the store again) have finished.
   * Read {@link Inspector.snapshot} after it to see a run's last step, in
   * tests or before printing a summary.
   *
   * @example
   * ```ts
   * run.observe(await graph.invoke(goal, state, config));
   * await inspector.idle();
   * const view = inspector.snapshot()["run:release"];
   * ```
   */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /**
   * Runs one planning call with its expansions recorded and shows its
   * search tree (g, h, f per expansion, the plan's path) and, when there is
   * no plan, the explanation. Returns the search's status.
   *
   * @example
   * ```ts
   * inspector.search("why-no-food", { has_money: false }, { has_food: true }, actions);
   * ```
   */
  search(
    id: string | undefined,
    start: Readonly<WorldState>,
    goal: GoalLike,
    actions: readonly ActionSpec[],
    options: InspectSearchOptions = {},
  ): string {
    const name = id ?? `search-${++this.#searches}`;
    const view = searchView(name, start, goal, actions, options);
    this.#hub.publish(`search:${name}`, { ...(displayData(view) as object), sentAt: Date.now() });
    return view.status as string;
  }

  /** Reads finished runs from the history store and shows them; returns how many. */
  refreshHistory(): Promise<number> {
    const history = this.#history;
    if (!history) return Promise.resolve(0);
    return this.#track(this.#readHistory(history));
  }

  async #readHistory(history: InspectorHistorySource): Promise<number> {
    try {
      const records = await history.list(this.#historyLimit);
      this.#hub.publish("history", displayData({ records: records.slice(0, this.#historyLimit) }));
      return records.length;
    } catch (error) {
      // A failing store never breaks the inspector: the page says what went wrong.
      this.#hub.publish(
        "history",
        displayData({ records: [], error: `history store: ${error instanceof Error ? error.message : String(error)}` }),
      );
      return 0;
    }
  }

  /** The latest data of every view, as the page receives it. */
  snapshot(): Record<string, unknown> {
    return this.#hub.snapshot();
  }

  /**
   * Serves the page, its assets, the event stream and the JSON API on a
   * request whose path starts with `basePath`; returns false (and answers
   * nothing) for other paths, so it can sit in front of your routes.
   *
   * @example
   * ```ts
   * const server = http.createServer((req, res) => {
   *   if (!inspector.handler(req, res, "/inspect")) myApp(req, res);
   * });
   * ```
   */
  handler = (req: IncomingMessage, res: ServerResponse, basePath = ""): boolean => {
    const url = new URL(req.url ?? "/", "http://inspector.invalid");
    const base = basePath.replace(/\/+$/, "");
    if (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return false;
    const path = url.pathname.slice(base.length);
    if (req.method !== "GET" && req.method !== "HEAD") return this.#send(res, 405, "text/plain", "method not allowed\n");
    if (path === "") {
      res.writeHead(308, { location: `${base}/`, ...HEADERS });
      res.end();
      return true;
    }
    switch (path) {
      case "/":
        return this.#send(res, 200, "text/html", inspectorPage(this.#title));
      case "/inspector.js":
        return this.#send(res, 200, "text/javascript", INSPECTOR_SCRIPT);
      case "/inspector.css":
        return this.#send(res, 200, "text/css", INSPECTOR_CSS);
      case "/uPlot.iife.min.js":
      case "/uPlot.min.css":
        return this.#send(res, 200, path.endsWith(".css") ? "text/css" : "text/javascript", uplotAsset(path.slice(1)) as string);
      case "/events":
        this.#startHeartbeat();
        this.#hub.attach(res);
        return true;
      case "/api/state":
        return this.#send(res, 200, "application/json", JSON.stringify({ views: this.#hub.snapshot(), stats: this.#hub.stats }));
      case "/api/crowd": {
        const agent = url.searchParams.get("agent") ?? undefined;
        return this.#send(res, 200, "application/json", JSON.stringify(this.crowd.history(agent)));
      }
      default:
        return this.#send(res, 404, "text/plain", "not found\n");
    }
  };

  #send(res: ServerResponse, status: number, type: string, body: string): true {
    res.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store", ...HEADERS });
    res.end(body);
    return true;
  }

  #startHeartbeat(): void {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => this.#hub.heartbeat(), this.#heartbeatMs);
    this.#heartbeat.unref();
  }

  /**
   * Serves the inspector on a loopback address (nothing else: it has no
   * authentication). Requests naming another host are refused, so a web
   * page elsewhere cannot reach it through DNS rebinding.
   */
  async listen(options: ListenOptions = {}): Promise<{ readonly url: string; readonly port: number }> {
    const host = options.host ?? "127.0.0.1";
    if (!LOOPBACK.has(host)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `inspector: host must be a loopback address (127.0.0.1, ::1 or localhost), got ${JSON.stringify(host)}`,
        {
          host,
        },
      );
    }
    if (this.#server) throw new LangGoapError("INVALID_OPTION", "inspector: listen was already called; close() it first");
    const server = createServer((req, res) => {
      const name = (req.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
      if (!LOOPBACK.has(name)) {
        this.#send(res, 421, "text/plain", "the inspector answers loopback host names only\n");
        return;
      }
      this.handler(req, res);
    });
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    void this.refreshHistory();
    const port = (server.address() as AddressInfo).port;
    return { url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`, port };
  }

  /** Ends every stream and stops the server started by `listen`. */
  async close(): Promise<void> {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    this.#hub.close();
    const server = this.#server;
    this.#server = undefined;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets of pages that are still open would hold close() for minutes.
      server.closeAllConnections();
      await closed;
    }
  }
}

/**
 * Creates an {@link Inspector}.
 *
 * @example
 * ```ts
 * const inspector = createInspector({ title: "orders", history: new StoreExecutionHistory(store) });
 * await inspector.listen({ port: 7300 });
 * ```
 */
export function createInspector(options: InspectorOptions = {}): Inspector {
  return new Inspector(options);
}
