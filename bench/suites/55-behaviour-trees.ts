/**
 * Behaviour-tree benchmark: 1,000 villagers, each driven by its own 20-node
 * tree (examples/lib/village-tree.ts: a utility selector over a flee branch
 * and three plan-executing branches), live one seeded day of 300 frames
 * with a shared plan cache: varied places, hunger, wood and fatigue, and a
 * wolf for one villager in five. Reports NPC ticks per second over the
 * whole day (planning frames included) and for the median frame, with the
 * day's outcome counted so runs can be compared.
 */

import { villageStartState } from "../../examples/lib/village.js";
import { createVillageWorld, senseVillage, VILLAGE_TICK } from "../../examples/lib/village-day.js";
import { buildVillagerTree, type VillagerTree } from "../../examples/lib/village-tree.js";
import { createRng } from "../../src/core/index.js";
import { PlanCache } from "../../src/utility/index.js";
import { emit, median } from "../emit.js";

const NPCS = 1000;
const FRAMES = 300;
const SEED = 55;

interface Npc {
  readonly world: ReturnType<typeof createVillageWorld>;
  readonly villager: VillagerTree;
  readonly wolf: { readonly from: number; readonly to: number } | null;
}

function villagers(count: number, cache: PlanCache): Npc[] {
  const rng = createRng(SEED);
  return Array.from({ length: count }, () => {
    const world = createVillageWorld();
    world.villager = rng.uniform(-3, 3);
    world.tree = rng.uniform(5, 15);
    world.campfire = rng.uniform(-2, 2);
    world.shelter = rng.uniform(-10, -4);
    world.tiredAt = rng.uniform(4, 16);
    const blackboard = { ...villageStartState(), is_hungry: rng.next() < 0.7, has_wood: rng.next() < 0.2 };
    const start = rng.uniform(1, 20);
    const wolf = rng.next() < 0.2 ? { from: start, to: start + rng.uniform(2, 6) } : null;
    return { world, villager: buildVillagerTree(world, { planCache: cache, blackboard }), wolf };
  });
}

/** One frame for every NPC: time moves, sensors fill the blackboard, the tree ticks. */
function frame(npcs: readonly Npc[]): void {
  for (const { world, villager, wolf } of npcs) {
    world.time += VILLAGE_TICK;
    const threat = wolf !== null && world.time >= wolf.from && world.time < wolf.to ? 1 : 0;
    villager.tree.update(senseVillage(world));
    villager.tree.blackboard.threat = threat;
    villager.tree.tick(VILLAGE_TICK);
  }
}

export default async function behaviourTreesBench(): Promise<void> {
  // Warm the JIT on a small crowd first.
  const warm = villagers(50, new PlanCache({ maxSize: 4096 }));
  for (let f = 0; f < FRAMES; f++) frame(warm);

  const cache = new PlanCache({ maxSize: 4096 });
  const npcs = villagers(NPCS, cache);
  const frameMs: number[] = [];
  for (let f = 0; f < FRAMES; f++) {
    const t0 = performance.now();
    frame(npcs);
    frameMs.push(performance.now() - t0);
  }
  const totalMs = frameMs.reduce((a, b) => a + b, 0);
  const sorted = [...frameMs].sort((a, b) => a - b);
  const outcome = { fed: 0, rested: 0, withWood: 0, withWolf: 0 };
  for (const { villager, wolf } of npcs) {
    const bb = villager.tree.blackboard;
    if (bb.is_hungry === false) outcome.fed++;
    if (bb.is_tired === false) outcome.rested++;
    if (bb.has_wood === true) outcome.withWood++;
    if (wolf) outcome.withWolf++;
  }
  emit({
    suite: "behaviour-trees",
    npcs: NPCS,
    nodesPerTree: npcs[0]?.villager.tree.nodes.length,
    frames: FRAMES,
    npcTicks: NPCS * FRAMES,
    ticksPerSec: Math.round((NPCS * FRAMES) / (totalMs / 1000)),
    medianFrameMs: Number(median(frameMs).toFixed(3)),
    p99FrameMs: Number((sorted[Math.floor(sorted.length * 0.99)] as number).toFixed(3)),
    maxFrameMs: Number((sorted.at(-1) as number).toFixed(3)),
    medianFrameTicksPerSec: Math.round(NPCS / (median(frameMs) / 1000)),
    planCache: { hits: cache.stats.hits, misses: cache.stats.misses },
    endOfDay: outcome,
  });
}
