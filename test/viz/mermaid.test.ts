import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { Plan } from "../../src/planner/index.js";
import { renderMermaid } from "../../src/viz/index.js";
import { independentPlan, scheduledVillagePlan, villagePlan } from "./fixtures.js";

const HEAD = [
  "flowchart TD",
  "    classDef action fill:#f8f9fa,stroke:#4a90d9,stroke-width:2px,color:#1a1a2e",
  "    classDef infeasible fill:#fdecea,stroke:#c0392b,stroke-width:2px,color:#7b1d12",
];

describe("renderMermaid", () => {
  it("draws steps as nodes and causal links as arrows", () => {
    expect(renderMermaid(villagePlan())).toBe(
      [
        ...HEAD,
        '    s0_go_to_tree["go_to_tree<br/>cost 1"]:::action',
        '    s1_chop_wood["chop_wood<br/>cost 2"]:::action',
        '    s2_go_to_campfire["go_to_campfire<br/>cost 1"]:::action',
        '    s3_cook_food["cook_food<br/>cost 3"]:::action',
        '    s4_eat_food["eat_food<br/>cost 1"]:::action',
        "    s0_go_to_tree --> s1_chop_wood",
        "    s1_chop_wood --> s3_cook_food",
        "    s2_go_to_campfire --> s3_cook_food",
        "    s3_cook_food --> s4_eat_food",
        "",
      ].join("\n"),
    );
  });

  it("chains steps with dotted arrows when nothing links them", () => {
    const text = renderMermaid(independentPlan());
    expect(text).toContain('    s0_wash["wash"]:::action\n');
    expect(text).toContain("    s0_wash -.-> s1_dry\n    s1_dry -.-> s2_fold\n");
  });

  it("puts parallel steps of a schedule in one subgraph", () => {
    const text = renderMermaid(scheduledVillagePlan());
    expect(text).toContain(
      [
        '    subgraph slot_0["t=0"]',
        '        s0_go_to_tree["go_to_tree<br/>cost 1<br/>⏱ 1s"]:::action',
        '        s2_go_to_campfire["go_to_campfire<br/>cost 1<br/>⏱ 1.5s"]:::action',
        "    end",
        '    s1_chop_wood["chop_wood<br/>cost 2<br/>⏱ 2s"]:::action',
      ].join("\n"),
    );
  });

  it("escapes names that would break Mermaid syntax and sanitizes node ids", () => {
    const odd = new ActionSpec({ name: 'say-"hi"<b>#1', effects: { said: true } });
    const text = renderMermaid(new Plan({ actions: [odd], expectedStates: [{ said: true }], totalCost: 1 }));
    expect(text).toContain('    s0_say__hi__b__1["say-#quot;hi#quot;#lt;b#gt;#35;1"]:::action\n');
  });

  it("lists resources as comments and flags an infeasible plan", () => {
    const text = renderMermaid(
      scheduledVillagePlan({
        status: "infeasible",
        resourceUsage: [{ key: "usd", total: 12, max: 10, satisfied: false, level: "hard" }],
        explanation: { suggestion: "raise the usd budget" },
      }),
    );
    expect(text).toContain("    %% Resource usage\n    %%   usd: 12 / 10  [VIOLATED]\n");
    expect(text).toContain(
      '    infeasible{{"INFEASIBLE PLAN<br/>usd: 12 / 10  [VIOLATED]<br/>Suggestion: raise the usd budget"}}:::infeasible\n',
    );
    expect(text).toContain("    infeasible -.- s0_go_to_tree\n");
  });

  it("renders the empty plan", () => {
    expect(renderMermaid(Plan.empty())).toBe('flowchart TD\n    empty["(empty plan)"]\n');
  });
});
