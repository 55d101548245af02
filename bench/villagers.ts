/**
 * The village crowd of the game-loop benchmarks (`50-agents`, `52-workers`):
 * villagers with seeded, varied needs, inventory and whereabouts (the
 * guide's section 10 domain, `examples/lib/village.ts`), so both suites
 * plan the very same states.
 */
import { createRng, type WorldState } from "../src/core/index.js";

/** The crowd's seed: the same villagers in every suite and run. */
export const VILLAGE_SEED = 50;

/** `count` villagers' states, drawn in order from one seeded stream; `id`, `x` and `y` are facts planning never reads. */
export function villagerStates(count: number, seed: number = VILLAGE_SEED): WorldState[] {
  const rng = createRng(seed);
  const chance = (p: number) => rng.next() < p;
  return Array.from({ length: count }, (_, id) => ({
    id,
    x: rng.uniform(0, 100),
    y: rng.uniform(0, 100),
    has_axe: chance(0.9),
    has_wood: chance(0.3),
    has_food: chance(0.2),
    near_tree: chance(0.3),
    near_campfire: chance(0.3),
    near_shelter: chance(0.3),
    is_hungry: chance(0.5),
    is_tired: chance(0.4),
  }));
}
