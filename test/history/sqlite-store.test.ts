import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { computeGoalHash, SqliteStore, StoreExecutionHistory } from "../../src/graph/history/index.js";
import { makeRecord, storeContract } from "../support/store-contract.js";

const dir = mkdtempSync(join(tmpdir(), "langgoap-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore", () => {
  const store = SqliteStore.open(join(dir, "contract.sqlite"));
  afterAll(() => store.close());
  storeContract(() => store);

  it("keeps data across reopening the file", async () => {
    const file = join(dir, "reopen.sqlite");
    const first = SqliteStore.open(file);
    const id = await new StoreExecutionHistory(first).record(makeRecord("published", 1));
    first.close();
    const second = SqliteStore.open(file);
    const records = await new StoreExecutionHistory(second).queryByGoal({ published: true });
    second.close();
    expect(records.map((r) => r.id)).toEqual([id]);
  });

  it("shares one file between connections without losing writes", async () => {
    const file = join(dir, "shared.sqlite");
    const connections = [SqliteStore.open(file), SqliteStore.open(file), new SqliteStore(new Database(file))];
    const histories = connections.map((c) => new StoreExecutionHistory(c));
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (histories[i % 3] as StoreExecutionHistory).record(makeRecord("published", i))),
    );
    const seen = await (histories[2] as StoreExecutionHistory).queryByGoal({ published: true }, 100);
    for (const c of connections) c.close();
    expect(seen.map((r) => r.id).sort()).toEqual([...ids].sort());
  });

  it("returns newest items first and compares nested filter values deeply", async () => {
    const s = SqliteStore.open(":memory:");
    // Usually in the same millisecond: the later write still comes first.
    await s.put(["n"], "first", { tags: ["a", "b"], meta: { v: 1 } });
    await s.put(["n"], "second", { tags: ["a"], meta: { v: 2 } });
    expect((await s.search(["n"])).map((i) => i.key)).toEqual(["second", "first"]);
    expect((await s.search(["n"], { filter: { tags: ["a", "b"] } })).map((i) => i.key)).toEqual(["first"]);
    expect((await s.search(["n"], { filter: { meta: { v: 2 } } })).map((i) => i.key)).toEqual(["second"]);
    expect((await s.search(["n"], { filter: { meta: { $nin: [{ v: 2 }] } } })).map((i) => i.key)).toEqual(["first"]);
    s.close();
  });

  it("runs a batch in order, in one transaction", async () => {
    const s = SqliteStore.open(":memory:");
    const [, got, , gone] = await s.batch([
      { namespace: ["b"], key: "k", value: { v: 1 } },
      { namespace: ["b"], key: "k" },
      { namespace: ["b"], key: "k", value: null },
      { namespace: ["b"], key: "k" },
    ]);
    expect(got?.value).toEqual({ v: 1 });
    expect(gone).toBeNull();
    await expect(
      s.batch([
        { namespace: ["b"], key: "x", value: { v: 1 } },
        { namespace: ["bad.label"], key: "y", value: { v: 2 } },
      ]),
    ).rejects.toThrow(LangGoapError);
    expect(await s.get(["b"], "x")).toBeNull();
    s.close();
  });

  it("rejects bad namespaces and values with clear errors", async () => {
    const s = SqliteStore.open(":memory:");
    // BaseStore's own methods validate namespaces first; batch() is checked by the store itself.
    await expect(s.batch([{ namespace: [], key: "k", value: { v: 1 } }])).rejects.toThrow(/non-empty array of labels/);
    await expect(s.batch([{ namespace: ["a.b"], key: "k" }])).rejects.toThrow(/without "\."/);
    await expect(s.put(["a"], "k", [1] as never)).rejects.toThrow(/must be an object/);
    expect(() => new SqliteStore({} as never)).toThrow(/better-sqlite3 Database/);
    s.close();
  });

  it("reads only the rows a page needs: filters, order, limit and offset run in SQL", async () => {
    const db = new Database(":memory:");
    let rowsRead = 0;
    const prepare = db.prepare.bind(db);
    // Count the rows SQLite hands to JavaScript.
    db.prepare = ((sql: string) => {
      const statement = prepare(sql);
      const all = statement.all.bind(statement);
      const iterate = statement.iterate.bind(statement);
      return Object.assign(statement, {
        all: (...params: unknown[]) => {
          const rows = all(...params);
          rowsRead += rows.length;
          return rows;
        },
        iterate: function* (...params: unknown[]) {
          for (const row of iterate(...params)) {
            rowsRead++;
            yield row;
          }
        },
      });
    }) as typeof db.prepare;
    const s = new SqliteStore(db);
    const history = new StoreExecutionHistory(s);
    const operations = Array.from({ length: 2000 }, (_, i) => ({
      namespace: ["langgoap", "executions", computeGoalHash({ [`g${i % 7}`]: true })],
      key: `r${i}`,
      value: { ...makeRecord(`g${i % 7}`, i % 60, { threadId: `t${i % 50}`, failedActions: i % 10 ? [] : ["write"] }), id: `r${i}` },
    }));
    await s.batch(operations as never);
    rowsRead = 0;
    expect((await history.list(20)).length).toBe(20);
    expect(rowsRead).toBeLessThanOrEqual(20);
    rowsRead = 0;
    expect((await history.queryByThread("t7", 5)).map((r) => r.threadId)).toEqual(Array(5).fill("t7"));
    expect(rowsRead).toBeLessThanOrEqual(5);
    rowsRead = 0;
    expect(await s.search(["langgoap"], { filter: { threadId: "t7", replanCount: { $lt: 1 } }, limit: 3, offset: 2 })).toHaveLength(3);
    expect(rowsRead).toBe(3);
    s.close();
  });

  it("compares filter values with their JSON types, as InMemoryStore does", async () => {
    const s = SqliteStore.open(":memory:");
    await s.put(["n"], "bool", { v: true, tag: "x" });
    await s.put(["n"], "one", { v: 1 });
    await s.put(["n"], "text", { v: "1" });
    await s.put(["n"], "nil", { v: null });
    await s.put(["n"], "none", {});
    await s.put(["n"], "list", { v: [1] });
    const found = async (filter: Record<string, unknown>) => (await s.search(["n"], { filter, limit: 50 })).map((i) => i.key).sort();
    expect(await found({ v: true })).toEqual(["bool"]);
    expect(await found({ v: 1 })).toEqual(["one"]);
    expect(await found({ v: "1" })).toEqual(["text"]);
    expect(await found({ v: null })).toEqual(["nil"]);
    expect(await found({ v: { $ne: 1 } })).toEqual(["bool", "list", "nil", "none", "text"]);
    expect(await found({ v: { $gte: 1 } })).toEqual(["one"]);
    expect(await found({ v: { $gt: "0" } })).toEqual([]);
    expect(await found({ v: { $in: [true, "1"] } })).toEqual(["bool", "text"]);
    expect(await found({ v: { $nin: [true, "1", null] } })).toEqual(["list", "none", "one"]);
    expect(await found({ v: [1] })).toEqual(["list"]);
    expect(await found({ 'we"ird': 1 })).toEqual([]);
    // Own properties only: "constructor" is not a fact every object has.
    expect(await found({ constructor: { $ne: null } })).toEqual(["bool", "list", "nil", "none", "one", "text"]);
    await expect(s.search(["n"], { limit: -1 })).rejects.toThrow(/limit must be an integer >= 0/);
    s.close();
  });
});
