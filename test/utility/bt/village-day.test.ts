import { describe, expect, it } from "vitest";
import { runVillageAgentDay } from "../../../examples/lib/village-day.js";
import { runVillageTreeDay } from "../../../examples/lib/village-tree.js";

describe("the village day: behaviour tree vs GoapAgent", () => {
  it("the tree (utility selector over plan branches) lives the same day as the GoapAgent, event for event", () => {
    const agent = runVillageAgentDay();
    const tree = runVillageTreeDay();
    expect(tree.timeline).toEqual(agent.timeline);
    expect(tree.facts).toEqual(agent.facts);
    expect(tree.world).toEqual(agent.world);
    // What that day is: the meal replanned when the tree moved, then rest, then wood.
    expect(agent.timeline.filter((l) => /goal:|plan|achieved|!!/.test(l))).toEqual([
      '  0.1s  x=  2.0  goal: {"is_hungry":false}',
      "  0.1s  x=  2.0  plan: go_to_tree -> chop_wood -> go_to_campfire -> cook_food -> eat_food (cost 8)",
      "  1.8s  x=  7.2  !! the tree is carried away to x=14",
      '  2.0s  x=  7.2  plan dropped: preconditions of "chop_wood" no longer hold: near_tree',
      "  2.0s  x=  7.2  plan: go_to_tree -> chop_wood -> go_to_campfire -> cook_food -> eat_food (cost 8)",
      ' 11.0s  x=  0.8  achieved {"is_hungry":false}',
      ' 11.1s  x=  0.8  goal: {"is_tired":false}',
      " 11.1s  x=  0.8  plan: go_to_shelter -> sleep (cost 2)",
      ' 15.5s  x= -5.2  achieved {"is_tired":false}',
      ' 15.6s  x= -5.2  goal: {"has_wood":true}',
      " 15.6s  x= -5.2  plan: go_to_tree -> chop_wood (cost 3)",
      ' 21.6s  x= 13.2  achieved {"has_wood":true}',
    ]);
    expect(tree.facts).toMatchObject({ is_hungry: false, is_tired: false, has_wood: true, near_tree: true });
  });

  it("the villager's tree has 20 nodes and its root's last decision is inspectable", () => {
    const { villager } = runVillageTreeDay();
    expect(villager.tree.nodes).toHaveLength(20);
    const last = villager.root.lastSelection;
    expect(last?.chosen).toBe("gather");
    expect(last?.scores.map((s) => [s.action.name, s.score])).toEqual([
      ["flee", 0],
      ["eat", 0],
      ["rest", 0],
      // The gather branch succeeds at once (its goal holds), so it is never "running" and gets no momentum.
      ["gather", 1],
    ]);
  });
});
