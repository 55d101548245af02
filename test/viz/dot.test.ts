import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { Plan } from "../../src/planner/index.js";
import { renderDot } from "../../src/viz/index.js";
import { independentPlan, scheduledVillagePlan, villagePlan } from "./fixtures.js";

describe("renderDot", () => {
  it("draws a digraph with one box a step and causal edges", () => {
    expect(renderDot(villagePlan())).toBe(
      [
        "digraph Plan {",
        "    rankdir=TB;",
        '    node [shape=box, style="rounded,filled", fillcolor="#e8f4ff", fontname="Helvetica"];',
        '    s0 [label="go_to_tree\\ncost=1"];',
        '    s1 [label="chop_wood\\ncost=2"];',
        '    s2 [label="go_to_campfire\\ncost=1"];',
        '    s3 [label="cook_food\\ncost=3"];',
        '    s4 [label="eat_food\\ncost=1"];',
        "    s0 -> s1;",
        "    s1 -> s3;",
        "    s2 -> s3;",
        "    s3 -> s4;",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("clusters parallel steps and notes the makespan", () => {
    const text = renderDot(scheduledVillagePlan());
    expect(text).toContain('    subgraph cluster_0 { label="t=0"; style="dashed"; s0; s2; }\n');
    expect(text).toContain('    s2 [label="go_to_campfire\\ncost=1\\nduration=1.5s"];\n');
    expect(text).toContain('    legend [shape=note, fillcolor="#fff8dc", label="makespan: 7s\\l"];\n');
  });

  it("uses a dashed chain when steps are independent", () => {
    expect(renderDot(independentPlan())).toContain("    s0 -> s1 [style=dashed];\n    s1 -> s2 [style=dashed];\n");
  });

  it("escapes quotes and backslashes in labels", () => {
    const odd = new ActionSpec({ name: 'a"b\\c', effects: { x: true } });
    expect(renderDot(new Plan({ actions: [odd], expectedStates: [{ x: true }], totalCost: 1 }))).toContain(
      '    s0 [label="a\\"b\\\\c"];\n',
    );
  });

  it("marks an infeasible plan in red with its explanation", () => {
    const text = renderDot(
      scheduledVillagePlan({
        status: "infeasible",
        resourceUsage: [{ key: "usd", total: 12, max: 10, satisfied: false, level: "hard" }],
        explanation: "usd over budget by 2",
      }),
    );
    expect(text).toContain('    s0 [label="go_to_tree\\ncost=1\\nduration=1s", fillcolor="#fdecea", color="#c0392b"];\n');
    expect(text).toContain(
      '    legend [shape=note, fillcolor="#fdecea", label="Resources:\\l  usd: 12 / 10  [VIOLATED]\\lmakespan: 7s\\lINFEASIBLE PLAN\\l  usd over budget by 2\\l"];\n',
    );
  });

  it("renders the empty plan", () => {
    expect(renderDot(Plan.empty())).toBe('digraph Plan {\n    rankdir=TB;\n    empty [label="(empty plan)"];\n}\n');
  });
});
