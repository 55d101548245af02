import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { createDeploymentGraph, StoreThreadSaver } from "../../src/integrations/index.js";

function clock() {
  let t = Date.parse("2026-01-01T00:00:00.000Z");
  return () => {
    t += 1000;
    return new Date(t);
  };
}

describe("StoreThreadSaver", () => {
  it("creates, patches, reads and deletes threads in the store", async () => {
    const store = new InMemoryStore();
    const threads = new StoreThreadSaver(store, { now: clock() });
    expect(await threads.get("t-1")).toBeUndefined();

    const created = await threads.set("t-1", { kind: "put", metadata: { owner: "ana" } });
    expect(created).toEqual({
      thread_id: "t-1",
      metadata: { owner: "ana" },
      created_at: "2026-01-01T00:00:01.000Z",
      updated_at: "2026-01-01T00:00:01.000Z",
    });
    const patched = await threads.set("t-1", { kind: "patch", metadata: { graph_id: "agent" } });
    expect(patched).toEqual({
      thread_id: "t-1",
      metadata: { owner: "ana", graph_id: "agent" },
      created_at: "2026-01-01T00:00:01.000Z",
      updated_at: "2026-01-01T00:00:02.000Z",
    });
    // Another saver on the same store (another server process) sees the same thread.
    expect(await new StoreThreadSaver(store).get("t-1")).toEqual(patched);
    expect((await store.get(["langgoap", "threads"], "t-1"))?.value).toEqual(patched);

    const replaced = await threads.set("t-1", { kind: "put" });
    expect(replaced.metadata).toEqual({});
    expect(replaced.created_at).toBe("2026-01-01T00:00:01.000Z");

    await threads.delete("t-1");
    expect(await threads.get("t-1")).toBeUndefined();
  });

  it("deletes the thread's checkpoints when given the checkpointer", async () => {
    const store = new InMemoryStore();
    const checkpointer = new MemorySaver();
    const threads = new StoreThreadSaver(store, { checkpointer, namespace: ["app", "threads"] });
    const graph = createDeploymentGraph({ logger: {} });
    graph.checkpointer = checkpointer;
    const config = { configurable: { thread_id: "t-2" } };
    await threads.set("t-2", { kind: "put" });
    await graph.invoke({ goal: { published: true }, worldState: {} }, config);
    expect((await checkpointer.getTuple(config))?.checkpoint.channel_values.status).toBe("goal_achieved");
    expect(await store.get(["app", "threads"], "t-2")).not.toBeNull();

    await threads.delete("t-2");
    expect(await checkpointer.getTuple(config)).toBeUndefined();
    expect(await store.get(["app", "threads"], "t-2")).toBeNull();
  });

  it("rejects what is not a store, a namespace, a write or metadata", async () => {
    const store = new InMemoryStore();
    expect(() => new StoreThreadSaver({} as InMemoryStore)).toThrow(/StoreThreadSaver: expected a LangGraph BaseStore, got/);
    expect(() => new StoreThreadSaver(store, { namespace: [] })).toThrow(
      /namespace must be a non-empty array of non-empty strings, got \[\]/,
    );
    const threads = new StoreThreadSaver(store);
    await expect(threads.set("", { kind: "put" })).rejects.toThrow('thread id must be a non-empty string, got ""');
    await expect(threads.set("t", { kind: "post" } as never)).rejects.toThrow('thread t: write kind must be "put" or "patch", got "post"');
    await expect(threads.set("t", { kind: "put", metadata: [1] as never })).rejects.toBeInstanceOf(LangGoapError);
    expect(await threads.get("t")).toBeUndefined();
  });
});
