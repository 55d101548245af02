import { describe, expect, it } from "vitest";
import { createVillageActions, villageStartState } from "../../examples/lib/village.js";
import { LangGoapError } from "../../src/core/index.js";
import { planDetailed } from "../../src/planner/index.js";
import { renderSearchTree } from "../../src/viz/index.js";

function villageSearch(heuristic: "hmax" | "zero") {
  const result = planDetailed(villageStartState(), { is_hungry: false }, createVillageActions(), { recordExpansions: true, heuristic });
  if (!result.expansions || !result.plan) throw new Error("expected a recorded search");
  return { expansions: result.expansions, plan: result.plan };
}

describe("renderSearchTree", () => {
  it("draws one node per expansion with parent edges, in expansion order", () => {
    const { expansions } = villageSearch("zero");
    const dot = renderSearchTree(expansions);
    const nodes = dot.split("\n").filter((l) => /^ {4}n\d+ \[label=/.test(l));
    expect(nodes).toHaveLength(new Set(expansions.map((e) => e.nodeId)).size);
    expect(nodes[0]).toMatch(/^ {4}n\d+ \[label="#0 start\\ng=0 h=0"/);
    const edges = dot.split("\n").filter((l) => /^ {4}n\d+ -> n\d+/.test(l));
    expect(edges).toHaveLength(expansions.filter((e) => e.parentId !== null).length);
    expect(dot.startsWith("digraph SearchTree {\n")).toBe(true);
    expect(dot.endsWith("}\n")).toBe(true);
  });

  it("highlights the found plan's path into a goal node", () => {
    const { expansions, plan } = villageSearch("hmax");
    const dot = renderSearchTree(expansions, { plan });
    const bold = dot.split("\n").filter((l) => l.includes('color="#2d8a4e", penwidth=2]'));
    // start + 4 expanded plan states (the goal state is reached, never expanded), 4 path edges, the goal edge
    expect(bold.filter((l) => l.includes("[label="))).toHaveLength(5);
    expect(bold.filter((l) => l.includes("->"))).toHaveLength(5);
    expect(dot).toContain('    goal [label="goal via eat_food\\ng=8", shape=doubleoctagon');
    for (const name of plan.actionNames.slice(0, -1))
      expect(dot).toMatch(new RegExp(`label="#\\d+ ${name}\\\\n[^"]*", tooltip="[^"]*", fillcolor="#d4edda"`));
  });

  it("caps the drawing at maxNodes and says how many were left out", () => {
    const { expansions } = villageSearch("zero");
    expect(expansions.length).toBeGreaterThan(3);
    const dot = renderSearchTree(expansions, { maxNodes: 3 });
    expect(dot.split("\n").filter((l) => /^ {4}n\d+ \[label=/.test(l))).toHaveLength(3);
    expect(dot).toContain(`label="${expansions.length - 3} more expansion(s) not drawn (maxNodes=3)"`);
    expect(() => renderSearchTree(expansions, { maxNodes: 0 })).toThrow(LangGoapError);
  });

  it("prints states in labels on request and always in tooltips", () => {
    const { expansions } = villageSearch("hmax");
    const root = expansions[0];
    const withState = renderSearchTree([root!], { showState: true });
    expect(withState).toContain("\\nhas_axe=true\\n");
    expect(renderSearchTree([root!])).toMatch(/tooltip="[^"]*has_axe=true/);
  });
});
