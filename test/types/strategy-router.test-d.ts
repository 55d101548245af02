import { describe, expectTypeOf, it } from "vitest";
import { AStarStrategy, MCTSStrategy, type PlanningStrategy, StrategyRouter } from "../../src/index.js";

const strategies = { astar: new AStarStrategy(), mcts: new MCTSStrategy() };

describe("StrategyRouter<K>", () => {
  it("takes its names from the registered strategies", () => {
    const router = new StrategyRouter({ strategies, default: "mcts", onUnknown: "default" });
    expectTypeOf(router).toEqualTypeOf<StrategyRouter<"astar" | "mcts">>();
    expectTypeOf(router.lastChosen).toEqualTypeOf<"astar" | "mcts" | undefined>();
    expectTypeOf(router.defaultName).toEqualTypeOf<"astar" | "mcts">();
    expectTypeOf(router.strategies).toEqualTypeOf<ReadonlyMap<"astar" | "mcts", PlanningStrategy>>();
    expectTypeOf(router.choose).returns.toEqualTypeOf<"astar" | "mcts">();
  });

  it("rejects a default it does not register", () => {
    // @ts-expect-error "mtcs" is not one of the registered names
    new StrategyRouter({ strategies, default: "mtcs", onUnknown: "default" });
    new StrategyRouter<"astar" | "mcts">({
      // @ts-expect-error a declared name without its strategy
      strategies: { astar: new AStarStrategy() },
    });
  });

  it("types the hook's name and comparisons with lastChosen", () => {
    const router = new StrategyRouter({
      strategies,
      onStrategyChosen: (name) => expectTypeOf(name).toEqualTypeOf<"astar" | "mcts">(),
    });
    // @ts-expect-error "anytime" is never chosen by this router
    void (router.lastChosen === "anytime");
  });

  it("keeps plain string names when the map is typed by string", () => {
    const byName = new Map<string, PlanningStrategy>([["astar", new AStarStrategy()]]);
    const router = new StrategyRouter({ strategies: byName, default: "anything" });
    expectTypeOf(router.lastChosen).toEqualTypeOf<string | undefined>();
  });
});
