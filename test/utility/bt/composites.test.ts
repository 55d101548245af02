import { describe, expect, it } from "vitest";
import { BehaviourTree, ConditionNode, LangGoapError, Parallel, Selector, Sequence } from "../../../src/index.js";
import { always, scripted, statuses } from "./scripted.js";

describe("Sequence", () => {
  it("runs children in order, resumes at the running child, succeeds when all did", () => {
    const log: string[] = [];
    const seq = new Sequence({
      children: [
        always("a", "success", log),
        scripted("b", ["running", "running", "success", "running"], log),
        always("c", "success", log),
      ],
    });
    expect(statuses(seq, 4)).toEqual(["running", "running", "success", "running"]);
    expect(log).toEqual([
      "a enter",
      "a success",
      "a exit completed",
      "b enter",
      "b running", // tick 1
      "b running", // tick 2: a is not re-ticked (memory)
      "b success",
      "b exit completed",
      "c enter",
      "c success",
      "c exit completed", // tick 3
      "a enter",
      "a success",
      "a exit completed",
      "b enter",
      "b running", // tick 4: a new activation from a
    ]);
  });

  it("fails at the first failure without ticking the rest", () => {
    const log: string[] = [];
    const seq = new Sequence({ children: [always("a", "success", log), always("b", "failure", log), always("c", "success", log)] });
    expect(statuses(seq, 2)).toEqual(["failure", "failure"]);
    expect(log.filter((l) => l.startsWith("c"))).toEqual([]);
  });

  it("reactive: a condition in front that turns false stops the running child", () => {
    const log: string[] = [];
    const seq = new Sequence({
      reactive: true,
      children: [new ConditionNode({ conditions: { hungry: true } }), always("eat", "running", log)],
    });
    const tree = new BehaviourTree({ root: seq, blackboard: { hungry: true } });
    expect([tree.tick(1), tree.tick(1)]).toEqual(["running", "running"]);
    tree.update({ hungry: false });
    expect(tree.tick(1)).toBe("failure");
    expect(log).toEqual(["eat enter", "eat running", "eat running", "eat exit interrupted"]);
    // Without reactive, the condition is not re-checked while eat runs.
    const memory = new Sequence({ children: [new ConditionNode({ conditions: { hungry: true } }), always("eat2", "running")] });
    const t2 = new BehaviourTree({ root: memory, blackboard: { hungry: true } });
    t2.tick(1);
    t2.update({ hungry: false });
    expect(t2.tick(1)).toBe("running");
  });
});

describe("Selector", () => {
  it("tries children in priority order until one does not fail", () => {
    const log: string[] = [];
    const sel = new Selector({
      children: [always("a", "failure", log), scripted("b", ["running", "success"], log), always("c", "success", log)],
    });
    expect(statuses(sel, 3)).toEqual(["running", "success", "success"]);
    expect(log.filter((l) => !l.includes("enter") && !l.includes("exit"))).toEqual([
      "a failure",
      "b running", // tick 1
      "b success", // tick 2 resumes at b: a is not re-tried
      "a failure",
      "b success", // tick 3 starts over at a; c is never needed
    ]);
  });

  it("fails when every child failed", () => {
    expect(statuses(new Selector({ children: [always("a", "failure"), always("b", "failure")] }), 2)).toEqual(["failure", "failure"]);
  });

  it("reactive: a higher-priority child that starts to run takes over and aborts the lower one", () => {
    const log: string[] = [];
    const sel = new Selector({
      reactive: true,
      children: [
        new Sequence({ children: [new ConditionNode({ conditions: { threat: true } }), always("flee", "running", log)] }),
        always("work", "running", log),
      ],
    });
    const tree = new BehaviourTree({ root: sel, blackboard: { threat: false } });
    tree.tick(1);
    tree.tick(1);
    tree.update({ threat: true });
    expect(tree.tick(1)).toBe("running");
    expect(log).toEqual(["work enter", "work running", "work running", "flee enter", "flee running", "work exit interrupted"]);
  });
});

describe("Parallel", () => {
  it("default policy: succeeds when all succeed, ticking only unfinished children", () => {
    const log: string[] = [];
    const par = new Parallel({
      children: [scripted("a", ["running", "success"], log), scripted("b", ["running", "running", "success"], log)],
    });
    expect(statuses(par, 3)).toEqual(["running", "running", "success"]);
    expect(log.filter((l) => l.startsWith("a ") && !l.includes("enter") && !l.includes("exit"))).toEqual(["a running", "a success"]);
  });

  it("fails at the first failure (failure: any) and aborts the children still running", () => {
    const log: string[] = [];
    const par = new Parallel({ children: [scripted("a", ["running", "failure"], log), always("b", "running", log)] });
    expect(statuses(par, 2)).toEqual(["running", "failure"]);
    expect(log.at(-1)).toBe("b exit interrupted");
  });

  it("success: 1 succeeds with the first success; a count that cannot be reached fails", () => {
    expect(statuses(new Parallel({ success: 1, children: [scripted("a", ["running", "success"]), always("b", "running")] }), 2)).toEqual([
      "running",
      "success",
    ]);
    // success "all", failure "all": one failure makes success unreachable.
    expect(statuses(new Parallel({ failure: "all", children: [always("a", "failure"), always("b", "running")] }), 1)).toEqual(["failure"]);
    expect(
      statuses(
        new Parallel({ success: 2, failure: 2, children: [always("a", "success"), always("b", "failure"), always("c", "running")] }),
        2,
      ),
    ).toEqual(["running", "running"]);
  });

  it("failure wins when both thresholds are reached on the same tick", () => {
    expect(statuses(new Parallel({ success: 1, children: [always("a", "success"), always("b", "failure")] }), 1)).toEqual(["failure"]);
  });

  it("refuses thresholds outside 1..children", () => {
    expect(() => new Parallel({ success: 3, children: [always("a", "success"), always("b", "success")] })).toThrow(LangGoapError);
    expect(() => new Parallel({ failure: 0, children: [always("a", "success")] })).toThrow(
      /failure must be "all", "any" or an integer from 1 to 1/,
    );
  });
});

describe("composite options", () => {
  it("empty children are refused with a code", () => {
    try {
      new Sequence({ children: [] });
      expect.unreachable();
    } catch (error) {
      expect((error as LangGoapError).code).toBe("INVALID_OPTION");
      expect((error as Error).message).toContain('sequence "sequence"');
    }
  });
});
