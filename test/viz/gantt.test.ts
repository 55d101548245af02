import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { Plan } from "../../src/planner/index.js";
import { renderAsciiGantt, renderMermaidGantt } from "../../src/viz/index.js";
import { countingPlan } from "../support/long-plan.js";
import { scheduledVillagePlan, villagePlan } from "./fixtures.js";

describe("renderAsciiGantt", () => {
  it("scales bars to the makespan in schedule order", () => {
    expect(renderAsciiGantt(scheduledVillagePlan(), { width: 14 })).toBe(
      [
        "action          |--------------|  0..7s",
        "go_to_tree      |##            |  0-1s",
        "go_to_campfire  |###           |  0-1.5s",
        "chop_wood       |  ####        |  1s-3s",
        "cook_food       |      ######  |  3s-6s",
        "eat_food        |            ##|  6s-7s",
        "",
      ].join("\n"),
    );
  });

  it("defaults to a 60-character axis", () => {
    const lines = renderAsciiGantt(scheduledVillagePlan()).split("\n");
    expect(lines[0]).toBe(`action          |${"-".repeat(60)}|  0..7s`);
    expect(lines[5]).toBe(`eat_food        |${" ".repeat(51)}${"#".repeat(9)}|  6s-7s`);
  });

  it("draws an instant as a single bar", () => {
    const p = scheduledVillagePlan({
      makespanMs: 1000,
      schedule: villagePlan().actionNames.map((actionName, index) => ({
        index,
        actionName,
        startMs: index === 4 ? 1000 : 0,
        durationMs: index === 4 ? 0 : 1000,
        endMs: 1000,
      })),
    });
    expect(renderAsciiGantt(p, { width: 10 }).split("\n")[5]).toBe("eat_food        |         ||  1s-1s");
  });

  it("rejects unscheduled plans and bad widths with a message saying what to do", () => {
    expect(() => renderAsciiGantt(villagePlan())).toThrow(/no schedule covering its 5 step\(s\).*schedulePlan/);
    expect(() => renderAsciiGantt(Plan.empty())).toThrow(/the plan is empty/);
    for (const width of [9, 12.5, Number.NaN]) {
      const error = (() => {
        try {
          renderAsciiGantt(scheduledVillagePlan(), { width });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(LangGoapError);
      expect((error as LangGoapError).code).toBe("INVALID_OPTION");
      expect((error as LangGoapError).message).toMatch(/width must be an integer >= 10/);
    }
  });
});

describe("renderMermaidGantt", () => {
  it("writes one task a step with start and duration in milliseconds", () => {
    expect(renderMermaidGantt(scheduledVillagePlan())).toBe(
      [
        "gantt",
        "    title Plan Schedule",
        "    dateFormat x",
        "    axisFormat %S.%Ls",
        "    section Plan",
        "    go_to_tree :t0, 0, 1000ms",
        "    go_to_campfire :t2, 0, 1500ms",
        "    chop_wood :t1, 1000, 2000ms",
        "    cook_food :t3, 3000, 3000ms",
        "    eat_food :t4, 6000, 1000ms",
        "",
      ].join("\n"),
    );
  });

  it("needs a schedule", () => {
    expect(() => renderMermaidGantt(villagePlan())).toThrow(LangGoapError);
  });
});

describe("an explicit schedule option", () => {
  it("draws a schedule passed in instead of metadata.csp", () => {
    const fromMetadata = scheduledVillagePlan();
    const schedule = fromMetadata.metadata.csp?.schedule ?? [];
    const bare = villagePlan();
    expect(renderAsciiGantt(bare, { schedule, width: 14 })).toBe(renderAsciiGantt(fromMetadata, { width: 14 }));
    expect(renderMermaidGantt(bare, { schedule })).toBe(renderMermaidGantt(fromMetadata));
    expect(() => renderAsciiGantt(bare, { schedule: schedule.slice(1) })).toThrow(/no schedule covering its 5 step/);
  });
});

describe("Gantt charts of a long schedule", () => {
  it("draws 200,000 scheduled steps (the horizon found without spreading them as arguments, which overflows the stack)", () => {
    const n = 200_000;
    const plan = countingPlan(n, 1);
    const schedule = Array.from({ length: n }, (_, i) => ({ index: i, actionName: "tick", startMs: i, durationMs: 1, endMs: i + 1 }));
    const mermaid = renderMermaidGantt(plan, { schedule });
    expect(mermaid.split("\n").filter((line) => /:t\d+, \d+, 1ms$/.test(line))).toHaveLength(n);
    expect(mermaid).toContain(":t199999, 199999, 1ms");
  }, 120_000);
});
