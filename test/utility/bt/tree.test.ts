import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../../src/core/index.js";
import { ActionNode, BehaviourTree, type BtStatus, ConditionNode, Sequence } from "../../../src/utility/index.js";
import { always } from "./scripted.js";

describe("BehaviourTree", () => {
  it("counts ticks and tree time from the deltas it is given (no wall clock)", () => {
    const seen: [number, number, number][] = [];
    const leaf = new ActionNode({
      run: (ctx, elapsed) => {
        seen.push([ctx.tick, Number(ctx.time.toFixed(6)), Number(elapsed.seconds.toFixed(6))]);
        return "running";
      },
    });
    const tree = new BehaviourTree({ root: leaf });
    tree.tick(0.25);
    tree.tick(0.5);
    tree.tick(0);
    expect(seen).toEqual([
      [1, 0.25, 0.25],
      [2, 0.75, 0.75],
      [3, 0.75, 0.75],
    ]);
    expect([tree.ticks, tree.time]).toEqual([3, 0.75]);
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, "1"]) {
      expect(() => tree.tick(bad as number)).toThrow(/deltaSeconds must be a finite number >= 0/);
    }
  });

  it("copies the initial blackboard and shares the live one with every node; conditions read own facts only", () => {
    const initial = { wood: 2 };
    const enough = new ConditionNode({ conditions: { wood: { gte: 3 } } });
    const tree = new BehaviourTree({ root: enough, blackboard: initial });
    expect(tree.tick(1)).toBe("failure");
    tree.update({ wood: 3 });
    expect(tree.tick(1)).toBe("success");
    expect(initial).toEqual({ wood: 2 });
    const inherited = new BehaviourTree({ root: new ConditionNode({ conditions: { toString: { ne: null } } }) });
    expect(inherited.tick(1)).toBe("failure");
  });

  it("refuses a node placed twice, and a blackboard that is not an object", () => {
    const leaf = always("a", "success");
    expect(() => new BehaviourTree({ root: new Sequence({ children: [leaf, leaf] }) })).toThrow(/node "a" appears twice/);
    expect(() => new BehaviourTree({ root: always("b", "success"), blackboard: [] as never })).toThrow(LangGoapError);
  });

  it("lists its nodes depth first", () => {
    const tree = new BehaviourTree({
      root: new Sequence({
        name: "root",
        children: [new Sequence({ name: "inner", children: [always("a", "success")] }), always("b", "success")],
      }),
    });
    expect(tree.nodes.map((n) => n.name)).toEqual(["root", "inner", "a", "b"]);
  });

  it("a throwing or invalid hook fails its node and is emitted as hookFailed after the tick", () => {
    const tree = new BehaviourTree({
      root: new Sequence({
        reactive: true,
        children: [
          new ConditionNode({ name: "bad-test", test: () => "yes" as never }),
          new ActionNode({ name: "never", run: () => "success" }),
        ],
      }),
    });
    const failures: string[] = [];
    tree.on("hookFailed", ({ node, hook, error }) => failures.push(`${node} ${hook}: ${(error as Error).message}`));
    expect(tree.tick(1)).toBe("failure");
    expect(failures).toEqual(['bad-test test: condition "bad-test": test returned "yes"; expected a boolean']);

    const exits: string[] = [];
    const throwing = new ActionNode({
      name: "boom",
      run: () => {
        throw new Error("kaput");
      },
      exit: (reason) => exits.push(reason),
    });
    const t2 = new BehaviourTree({ root: throwing });
    const seen: string[] = [];
    t2.on("hookFailed", ({ node, hook, error }) => seen.push(`${node} ${hook}: ${(error as Error).message}`));
    expect(t2.tick(1)).toBe("failure");
    expect(seen).toEqual(["boom run: kaput"]);
    expect(exits).toEqual(["failed"]);

    const odd = new BehaviourTree({ root: new ActionNode({ name: "odd", run: () => true as unknown as BtStatus }) });
    const codes: string[] = [];
    odd.on("hookFailed", ({ error }) => codes.push((error as LangGoapError).code));
    expect(odd.tick(1)).toBe("failure");
    expect(codes).toEqual(["INVALID_STATE"]);
  });

  it("abort stops what runs; the next tick starts from the root", () => {
    const log: string[] = [];
    const tree = new BehaviourTree({ root: new Sequence({ children: [always("a", "success", log), always("b", "running", log)] }) });
    tree.tick(1);
    tree.abort();
    expect(tree.status).toBe("idle");
    tree.tick(1);
    expect(log).toEqual([
      "a enter",
      "a success",
      "a exit completed",
      "b enter",
      "b running",
      "b exit interrupted",
      "a enter",
      "a success",
      "a exit completed",
      "b enter",
      "b running",
    ]);
  });
});
