/**
 * The inspector's server without a browser: routes and mounting, loopback
 * only, a bounded number of streams, and a stream that does not read
 * costing bounded memory (its views coalesce, counted).
 */
import { createServer, request } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { createInspector, type Inspector } from "../../src/inspect/index.js";

let inspector: Inspector | undefined;
afterEach(async () => {
  await inspector?.close();
  inspector = undefined;
});

/**
 * Opens the event stream on a raw socket that stops reading after the
 * response's first bytes (the server has attached the stream by then): the
 * slowest client there is.
 */
function stalledStream(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
    socket.once("data", () => {
      socket.pause();
      resolve(socket);
    });
    socket.on("error", reject);
  });
}

function get(port: number, path: string, host = `127.0.0.1:${port}`): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
        // An event stream never ends: its first message is enough.
        if (res.headers["content-type"]?.startsWith("text/event-stream") && body.includes("\n\n")) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        }
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("inspector server", () => {
  it("serves the page, its script, uPlot from the package and the state; refuses other hosts", async () => {
    inspector = createInspector({ title: '<img src=x onerror="alert(1)">' });
    const { port } = await inspector.listen();
    const page = await get(port, "/");
    expect(page.status).toBe(200);
    expect(page.body).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(page.body).not.toContain("<img");
    // No inline script: the page's CSP allows scripts from its origin only.
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
    expect((await get(port, "/uPlot.iife.min.js")).body).toContain("uPlot");
    expect((await get(port, "/inspector.js")).body).not.toContain("innerHTML");
    expect((await get(port, "/nope")).status).toBe(404);
    // DNS rebinding: a page at evil.example resolving to 127.0.0.1 is refused.
    expect((await get(port, "/api/state", "evil.example:80")).status).toBe(421);
    await expect(inspector.listen()).rejects.toThrow(/already/);
  });

  it("listens on loopback only", async () => {
    inspector = createInspector();
    await expect(inspector.listen({ host: "0.0.0.0" })).rejects.toThrow(/loopback/);
  });

  it("mounts under a base path in another server and leaves other paths alone", async () => {
    inspector = createInspector();
    const mounted = inspector;
    const server = createServer((req, res) => {
      if (!mounted.handler(req, res, "/inspect")) {
        res.writeHead(200);
        res.end("app");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect((await get(port, "/other")).body).toBe("app");
      expect((await get(port, "/inspect")).status).toBe(308);
      expect((await get(port, "/inspect/")).body).toContain('src="./inspector.js"');
      mounted.search("s", {}, { warm: true }, [new ActionSpec({ name: "light", effects: { warm: true } })]);
      const state = JSON.parse((await get(port, "/inspect/api/state")).body);
      expect(state.views["search:s"].data.plan.actions).toEqual(["light"]);
    } finally {
      await mounted.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("refuses streams beyond maxClients with 503 and counts them", async () => {
    inspector = createInspector({ maxClients: 2 });
    const { port } = await inspector.listen();
    const a = await stalledStream(port);
    const b = await stalledStream(port);
    const third = await get(port, "/events");
    expect(third.status).toBe(503);
    expect(inspector.stats.refused).toBe(1);
    expect(inspector.stats.clients).toBe(2);
    a.destroy();
    b.destroy();
  });

  it("keeps memory bounded for a stream that never reads: views coalesce, counted", async () => {
    inspector = createInspector();
    const { port } = await inspector.listen();
    const socket = await stalledStream(port);
    const agents = 400;
    // A crowd of big rows: each frame is ~60 KB; 1,500 frames would be ~90 MB if buffered.
    const { GoapAgent } = await import("../../src/utility/index.js");
    const action = new ActionSpec({ name: "x".repeat(40), effects: { done: true } });
    for (let i = 0; i < agents; i++)
      inspector.crowd.watch(new GoapAgent({ name: `agent-${i}-${"y".repeat(60)}`, actions: [action], goal: { done: true } }));
    global.gc?.();
    const before = process.memoryUsage().heapUsed + process.memoryUsage().external;
    for (let i = 0; i < 1500; i++) {
      inspector.crowd.sample(i);
      if (i % 100 === 0) await new Promise((r) => setImmediate(r));
    }
    const after = process.memoryUsage().heapUsed + process.memoryUsage().external;
    const stats = inspector.stats;
    expect(stats.clients).toBe(1);
    // Nearly every frame was replaced by a newer one while the socket was full.
    expect(stats.coalesced).toBeGreaterThan(1300);
    expect(stats.sent).toBeLessThan(200);
    expect(after - before).toBeLessThan(60_000_000);
    socket.destroy();
  });
});

describe("inspector views that are too big", () => {
  it("are replaced by a marker saying so, counted", async () => {
    inspector = createInspector({ maxMessageBytes: 10_000 });
    // Every expansion's state carries a 2,000-character note (values are cut there): dozens of them pass 10 KB.
    const actions = Array.from({ length: 30 }, (_, i) => new ActionSpec({ name: `a${i}`, effects: { [`f${i}`]: true } }));
    inspector.search("big", { note: "x".repeat(5000) }, { f0: true, f1: true, f2: true }, actions, { heuristic: "zero" });
    expect(inspector.stats.oversized).toBe(1);
    expect((inspector.snapshot()["search:big"] as { data: unknown }).data).toEqual({
      oversized: "this view is larger than 10000 bytes and was not sent",
    });
  });
});
