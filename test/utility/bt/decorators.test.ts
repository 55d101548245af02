import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../../src/core/index.js";
import { BehaviourTree, Cooldown, Inverter, Repeat, Timeout } from "../../../src/utility/index.js";
import { always, scripted, statuses } from "./scripted.js";

describe("Inverter", () => {
  it("swaps success and failure, keeps running", () => {
    expect(statuses(new Inverter({ child: scripted("a", ["running", "success", "failure"]) }), 3)).toEqual([
      "running",
      "failure",
      "success",
    ]);
  });
});

describe("Repeat", () => {
  it("succeeds after the child's n-th success, one child run finishing per tick", () => {
    const log: string[] = [];
    const repeat = new Repeat({ child: always("swing", "success", log), times: 3 });
    expect(statuses(repeat, 4)).toEqual(["running", "running", "success", "running"]);
    expect(log.filter((l) => l === "swing enter")).toHaveLength(4);
  });

  it("counts runs that take several ticks, and fails (count reset) on a failure", () => {
    const repeat = new Repeat({ child: scripted("a", ["running", "success", "running", "failure", "success", "success"]), times: 2 });
    const tree = new BehaviourTree({ root: repeat });
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push([tree.tick(1), repeat.count]);
    expect(seen).toEqual([
      ["running", 0],
      ["running", 1],
      ["running", 1],
      ["failure", 0],
      ["running", 1],
      ["success", 0],
    ]);
  });

  it("requires a finite bound", () => {
    for (const times of [0, 1.5, Number.POSITIVE_INFINITY, undefined]) {
      expect(() => new Repeat({ child: always("a", "success"), times: times as number })).toThrow(/times must be an integer >= 1/);
    }
  });
});

describe("Timeout", () => {
  it("{ ticks: 3 }: the child runs 3 ticks, then is aborted and the timeout fails", () => {
    const log: string[] = [];
    const timeout = new Timeout({ child: always("walk", "running", log), limit: { ticks: 3 } });
    expect(statuses(timeout, 4)).toEqual(["running", "running", "failure", "running"]);
    expect(log.slice(0, 5)).toEqual(["walk enter", "walk running", "walk running", "walk running", "walk exit interrupted"]);
  });

  it("{ seconds }: counts tree time from the tick the child started, float sums included", () => {
    // 0.1 + 0.1 + 0.1 = 0.30000000000000004 still reaches 0.3.
    expect(statuses(new Timeout({ child: always("walk", "running"), limit: { seconds: 0.3 } }), 3, 0.1)).toEqual([
      "running",
      "running",
      "failure",
    ]);
    expect(statuses(new Timeout({ child: always("walk", "running"), limit: { seconds: 1 } }), 3, 0.5)).toEqual([
      "running",
      "failure",
      "running",
    ]);
  });

  it("passes through a child that finishes in time", () => {
    expect(statuses(new Timeout({ child: scripted("a", ["running", "success"]), limit: { ticks: 2 } }), 2)).toEqual(["running", "success"]);
  });
});

describe("Cooldown", () => {
  it("{ ticks: 3 }: finished on tick 1, fails on ticks 2 and 3 without ticking the child, runs it on tick 4", () => {
    const log: string[] = [];
    const cooldown = new Cooldown({ child: always("bark", "success", log), duration: { ticks: 3 } });
    expect(statuses(cooldown, 5)).toEqual(["success", "failure", "failure", "success", "failure"]);
    expect(log.filter((l) => l === "bark success")).toHaveLength(2);
  });

  it("{ seconds }: starts when the child finishes, after failures too", () => {
    const cooldown = new Cooldown({ child: scripted("a", ["running", "failure", "success"]), duration: { seconds: 1 } });
    expect(statuses(cooldown, 6, 0.5)).toEqual(["running", "failure", "failure", "success", "failure", "success"]);
  });

  it("refuses a duration that is not exactly one of ticks and seconds", () => {
    for (const duration of [{}, { ticks: 1, seconds: 1 }, { ticks: 0 }, { seconds: -1 }, { seconds: Number.NaN }]) {
      try {
        new Cooldown({ child: always("a", "success"), duration: duration as { ticks: number } });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(LangGoapError);
        expect((error as LangGoapError).code).toBe("INVALID_OPTION");
      }
    }
  });
});
