/**
 * A local stand-in for the LangSmith API: records the runs a real
 * `langsmith` Client sends (single posts and patches, JSON batches and
 * multipart batches), so tests can check the run tree that arrived.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubRun {
  id: string;
  name?: string;
  run_type?: string;
  parent_run_id?: string | null;
  trace_id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  error?: string | null;
  end_time?: unknown;
  extra?: Record<string, unknown>;
  tags?: string[];
  session_name?: string;
  events?: unknown[];
}

export interface LangSmithStub {
  readonly url: string;
  /** Runs by id, creations and patches merged in arrival order. */
  readonly runs: Map<string, StubRun>;
  /** Paths the client called, e.g. "POST /runs/multipart". */
  readonly calls: string[];
  /** Resolves once `holds()` is true of what has arrived (checked now and after each request). */
  arrived(holds: () => boolean): Promise<void>;
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Splits a multipart body into its named parts (LangSmith names them `post.<id>`, `patch.<id>`, `post.<id>.inputs`, ...). */
function multipart(raw: Buffer, contentType: string): { name: string; value: string }[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return [];
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  return raw
    .toString("utf8")
    .split(delimiter)
    .slice(1, -1)
    .map((part) => {
      const [head = "", ...rest] = part.replace(/^\r\n/, "").split("\r\n\r\n");
      const name = /name="([^"]+)"/.exec(head)?.[1] ?? "";
      return { name, value: rest.join("\r\n\r\n").replace(/\r\n$/, "") };
    });
}

export async function startLangSmithStub(): Promise<LangSmithStub> {
  const runs = new Map<string, StubRun>();
  const calls: string[] = [];
  const waiting: { holds: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const wait of waiting.filter((w) => w.holds())) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  };
  const merge = (id: string, fields: Partial<StubRun>) => runs.set(id, { ...(runs.get(id) ?? { id }), ...fields, id });
  const server: Server = createServer(async (req, res) => {
    const raw = await body(req);
    const path = (req.url ?? "").split("?")[0] ?? "";
    calls.push(`${req.method} ${path}`);
    const json = () => (raw.length ? (JSON.parse(raw.toString("utf8")) as Record<string, unknown>) : {});
    if (req.method === "GET" && path === "/info") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ version: "0.0.0-stub", batch_ingest_config: { size_limit: 100, size_limit_bytes: 20_971_520 } }));
      return;
    }
    if (req.method === "POST" && path === "/runs") {
      const run = json() as unknown as StubRun;
      merge(run.id, run);
    } else if (req.method === "PATCH" && path.startsWith("/runs/")) {
      merge(path.slice("/runs/".length), json() as Partial<StubRun>);
    } else if (req.method === "POST" && path === "/runs/batch") {
      const { post = [], patch = [] } = json() as { post?: StubRun[]; patch?: StubRun[] };
      for (const run of [...post, ...patch]) merge(run.id, run);
    } else if (req.method === "POST" && path === "/runs/multipart") {
      for (const { name, value } of multipart(raw, String(req.headers["content-type"] ?? ""))) {
        const [kind, id, field] = name.split(".");
        if (!id || (kind !== "post" && kind !== "patch")) continue;
        const parsed = JSON.parse(value) as Record<string, unknown>;
        merge(id, field ? ({ [field]: parsed } as Partial<StubRun>) : (parsed as Partial<StubRun>));
      }
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
    check();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runs,
    calls,
    arrived: (holds) =>
      new Promise<void>((resolve) => {
        waiting.push({ holds, resolve });
        check();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
