import { describe, expect, it, vi } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { LoggingTracer, type LogRecord } from "../../src/tracing/index.js";

const write = new ActionSpec({ name: "write", effects: { drafted: true }, cost: 2 });
const at = new Date("2026-01-02T03:04:05.000Z");

describe("LoggingTracer", () => {
  it("writes structured records with levels", () => {
    const records: LogRecord[] = [];
    const tracer = new LoggingTracer({ sink: (r) => records.push(r), now: () => at });
    tracer.onPlanStart({ toJSON: () => ({ conditions: { published: true } }) }, { drafted: false, blob: { x: 1 } }, "astar");
    tracer.onPlanComplete({ actionNames: ["research", "write"], totalCost: 3.5 }, 1.25);
    tracer.onActionStart(write, {});
    tracer.onActionComplete({ actionName: "write", success: false, error: "timeout" });
    tracer.onActionRetry(write, 1, new Error("timeout"), 250);
    tracer.onSearchExpand({ nodeId: 1, parentId: 0, actionName: "write", state: {}, g: 1, h: 1, f: 2 });
    expect(records.map((r) => [r.level, r.message])).toEqual([
      ["info", "plan_start strategy=astar"],
      ["info", "plan_complete actions=[research, write] total_cost=3.5 duration_ms=1.25"],
      ["info", "action_start action=write"],
      ["warn", "action_complete action=write success=false error=timeout"],
      ["warn", "action_retry action=write attempt=1 error=timeout backoff_ms=250"],
    ]);
    expect(records[0]).toEqual({
      level: "info",
      event: "plan_start",
      message: "plan_start strategy=astar",
      data: { goal: { conditions: { published: true } }, strategy: "astar", state: { drafted: false } },
      time: "2026-01-02T03:04:05.000Z",
      logger: "langgoap.tracing",
    });
  });

  it("includes search events at debug level and honours overrides", () => {
    const records: LogRecord[] = [];
    const tracer = new LoggingTracer({ level: "debug", sink: (r) => records.push(r), levels: { onStrategyChosen: "error" }, name: "npc" });
    tracer.onSearchComplete(12, 0.5, true);
    tracer.onStrategyChosen("mcts");
    expect(records.map((r) => [r.level, r.message, r.logger])).toEqual([
      ["debug", "search_complete nodes_expanded=12 duration_ms=0.5 found=true", "npc"],
      ["error", "strategy_chosen strategy=mcts", "npc"],
    ]);
  });

  it("logs JSON lines to the console by default", () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      new LoggingTracer({ now: () => at }).onStrategyChosen("astar");
      expect(JSON.parse(info.mock.calls[0]?.[0] as string)).toMatchObject({ event: "strategy_chosen", level: "info" });
    } finally {
      info.mockRestore();
    }
  });

  it("rejects unknown levels", () => {
    expect(() => new LoggingTracer({ level: "loud" as never })).toThrow(LangGoapError);
    expect(() => new LoggingTracer({ levels: { onReplan: "loud" as never } })).toThrow(/levels\.onReplan/);
  });
});
