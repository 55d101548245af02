import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../../src/core/index.js";
import { BehaviourTree, type BtNode, type UtilityActionOptions, UtilitySelector } from "../../../src/utility/index.js";
import { always, scripted } from "./scripted.js";

/** A utility whose score is the blackboard value under `key` (one linear consideration: no compensation). */
const byKey = (name: string, key: string, extra: Partial<UtilityActionOptions> = {}): UtilityActionOptions => ({
  name,
  considerations: [{ inputKey: key, curve: { type: "linear" } }],
  ...extra,
});

function setup(
  children: { node: BtNode; utility: UtilityActionOptions }[],
  blackboard: Record<string, number>,
  momentum = 0,
  fallThrough = true,
) {
  const selector = new UtilitySelector({ children, momentum, fallThrough });
  const tree = new BehaviourTree({ root: selector, blackboard });
  return { selector, tree };
}

const scoresOf = (selector: UtilitySelector) => selector.lastSelection?.scores.map((s) => [s.action.name, Number(s.score.toFixed(3))]);

describe("UtilitySelector", () => {
  it("runs the child with the highest score, not the first, and exposes every score", () => {
    const log: string[] = [];
    const { selector, tree } = setup(
      [
        { node: always("eat", "running", log), utility: byKey("eat", "hunger") },
        { node: always("sleep", "running", log), utility: byKey("sleep", "fatigue") },
      ],
      { hunger: 0.3, fatigue: 0.7 },
    );
    expect(tree.tick(0.1)).toBe("running");
    expect(log).toEqual(["sleep enter", "sleep running"]);
    expect(selector.lastSelection).toMatchObject({ tick: 1, chosen: "sleep", bestScore: 0.7 });
    expect(scoresOf(selector)).toEqual([
      ["eat", 0.3],
      ["sleep", 0.7],
    ]);
    expect(selector.runningChild).toBe("sleep");
  });

  it("re-evaluates on every tick: when another child scores higher it takes over and the running one is aborted", () => {
    const log: string[] = [];
    const { selector, tree } = setup(
      [
        { node: always("eat", "running", log), utility: byKey("eat", "hunger") },
        { node: always("sleep", "running", log), utility: byKey("sleep", "fatigue") },
      ],
      { hunger: 0.3, fatigue: 0.7 },
    );
    tree.tick(0.1);
    tree.update({ hunger: 0.8 });
    tree.tick(0.1);
    expect(log).toEqual(["sleep enter", "sleep running", "sleep exit interrupted", "eat enter", "eat running"]);
    expect(selector.lastSelection).toMatchObject({ tick: 2, chosen: "eat" });
  });

  it("momentum: the running child keeps its place until another beats it by the margin", () => {
    const run = (momentum: number, steps: number[]) => {
      const { selector, tree } = setup(
        [
          { node: always("a", "running"), utility: byKey("a", "x") },
          { node: always("b", "running"), utility: byKey("b", "y") },
        ],
        { x: 0.5, y: 0.4 },
        momentum,
      );
      tree.tick(1);
      return steps.map((y) => {
        tree.update({ y });
        tree.tick(1);
        return `${selector.runningChild} ${scoresOf(selector)
          ?.map(([, s]) => s)
          .join("/")}`;
      });
    };
    // a runs with 0.5; with momentum 0.2 it counts 0.6 while running: b at 0.55 does not take over, at 0.65 it does
    // (the scores shown are those the decision was made on).
    expect(run(0.2, [0.55, 0.65])).toEqual(["a 0.6/0.55", "b 0.6/0.65"]);
    // Without momentum, 0.55 already wins.
    expect(run(0, [0.55])).toEqual(["b 0.5/0.55"]);
    // A utility's own momentum overrides the selector's.
    const { selector, tree } = setup(
      [
        { node: always("a", "running"), utility: byKey("a", "x", { momentum: 0.5 }) },
        { node: always("b", "running"), utility: byKey("b", "y") },
      ],
      { x: 0.5, y: 0.4 },
      0.2,
    );
    tree.tick(1);
    tree.update({ y: 0.7 });
    tree.tick(1);
    expect(selector.runningChild).toBe("a");
  });

  it("a finished child hands over: success ends the tick, and the next tick scores afresh", () => {
    const log: string[] = [];
    const { tree } = setup(
      [
        { node: scripted("a", ["running", "success"], log), utility: byKey("a", "x") },
        { node: always("b", "running", log), utility: byKey("b", "y") },
      ],
      { x: 0.9, y: 0.5 },
    );
    expect([tree.tick(1), tree.tick(1)]).toEqual(["running", "success"]);
    tree.update({ x: 0.1 });
    expect(tree.tick(1)).toBe("running");
    expect(log.filter((l) => l.endsWith("enter"))).toEqual(["a enter", "b enter"]);
  });

  it("falls through to the next best when the best fails, in the same tick; without fall-through it fails", () => {
    const children = (log: string[]) => [
      { node: always("a", "failure", log), utility: byKey("a", "x") },
      { node: always("b", "running", log), utility: byKey("b", "y") },
      { node: always("c", "running", log), utility: byKey("c", "z") },
    ];
    const log: string[] = [];
    const { selector, tree } = setup(children(log), { x: 0.9, y: 0.2, z: 0.5 });
    expect(tree.tick(1)).toBe("running");
    expect(log.filter((l) => !l.includes("enter") && !l.includes("exit"))).toEqual(["a failure", "c running"]);
    expect(selector.lastSelection?.chosen).toBe("c");
    const strict = setup(children([]), { x: 0.9, y: 0.2, z: 0.5 }, 0, false);
    expect(strict.tree.tick(1)).toBe("failure");
    expect(strict.selector.lastSelection?.chosen).toBeNull();
  });

  it("fails, aborting what ran, when no child scores above 0", () => {
    const log: string[] = [];
    const { selector, tree } = setup([{ node: always("a", "running", log), utility: byKey("a", "x") }], { x: 0.5 });
    tree.tick(1);
    tree.update({ x: 0 });
    expect(tree.tick(1)).toBe("failure");
    expect(log.at(-1)).toBe("a exit interrupted");
    expect(selector.lastSelection).toMatchObject({ best: null, bestScore: 0, chosen: null });
  });

  it("a child's cooldown (seconds of tree time) starts when it is left and scores it 0 until it ends", () => {
    const { selector, tree } = setup(
      [
        { node: always("a", "running"), utility: byKey("a", "x", { cooldown: 1 }) },
        { node: always("b", "running"), utility: byKey("b", "y") },
      ],
      { x: 0.6, y: 0.5 },
    );
    tree.tick(0.5); // a runs
    tree.update({ x: 0.4 });
    tree.tick(0.5); // b takes over at t = 1; a cools down until t = 2
    tree.update({ x: 0.9 });
    const seen = [];
    for (let i = 0; i < 3; i++) {
      tree.tick(0.5);
      const a = selector.lastSelection?.scores[0];
      seen.push([selector.runningChild, a?.score, a?.cooldownRemaining]);
    }
    expect(seen).toEqual([
      ["b", 0, 0.5],
      ["a", 0.9, 0],
      ["a", 0.9, 0],
    ]);
  });

  it("scores with the brain's classes: curves, weights and the compensation factor", () => {
    const { selector, tree } = setup(
      [
        {
          node: always("eat", "running"),
          utility: {
            name: "eat",
            weight: 1,
            considerations: [
              { inputKey: "hunger", curve: { type: "exponential", exponent: 5 } },
              { inputKey: "food_nearby", curve: { type: "step", xShift: 0.1 } },
            ],
          },
        },
      ],
      { hunger: 0.9, food_nearby: 0.5 },
    );
    tree.tick(1);
    // The UtilityAction docs' figure: 0.604 + (1 − 0.604)·0.5·0.604 = 0.724.
    expect(selector.lastSelection?.bestScore).toBeCloseTo(0.7235, 3);
  });

  it("a missing input is an error naming the key; bad options are refused", () => {
    const { tree } = setup([{ node: always("a", "running"), utility: byKey("a", "x") }], {});
    expect(() => tree.tick(1)).toThrow(/blackboard has no "x"/);
    expect(
      () =>
        new UtilitySelector({
          children: [
            { node: always("a", "running"), utility: byKey("same", "x") },
            { node: always("b", "running"), utility: byKey("same", "y") },
          ],
        }),
    ).toThrow(LangGoapError);
    expect(() => new UtilitySelector({ children: [{ node: always("a", "running"), utility: byKey("a", "x") }], momentum: -1 })).toThrow(
      /momentum must be a finite number >= 0/,
    );
  });
});
