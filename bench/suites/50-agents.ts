/**
 * Game-loop benchmark: 1,000 village agents (the guide's section 10 domain)
 * with varied, seeded world states each plan their goal through GoapAgent,
 * with the plan cache off, cold (emptied before every round, so each round
 * pays its own misses) and warm (steady state, as when agents replan frame
 * after frame). Reports agents planned per second. The `pool` rows plan
 * the same rounds through a `PlannerPool` (default size: cores − 1) with
 * `GoapAgent`'s `planner` option, each round awaited with `replanAsync`
 * (see 52-workers for 1, 2 and N workers and the main thread's share).
 */

import { loadavg } from "node:os";
import { createVillageActions, pickVillageGoal } from "../../examples/lib/village.js";
import { createRng, type WorldState } from "../../src/core/index.js";
import { GoapAgent, PlanCache } from "../../src/utility/index.js";
import { PlannerPool } from "../../src/workers/index.js";
import { emit, timeIt } from "../emit.js";

const AGENTS = 1000;
const SEED = 50;

/** A villager's state: random needs, inventory and whereabouts, plus facts planning never reads. */
function variedState(rng: ReturnType<typeof createRng>, id: number): WorldState {
  const chance = (p: number) => rng.next() < p;
  return {
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
  };
}

function villagers(cache: PlanCache | undefined, pool?: PlannerPool): GoapAgent[] {
  const rng = createRng(SEED);
  const actions = createVillageActions();
  return Array.from({ length: AGENTS }, (_, id) => {
    const state = variedState(rng, id);
    return new GoapAgent({
      actions,
      state,
      goal: pickVillageGoal(state),
      ...(cache ? { planCache: cache } : {}),
      ...(pool ? { planner: pool } : {}),
    });
  });
}

export default async function agentsBench(): Promise<void> {
  const distinctStates = new Set(villagers(undefined).map((a) => JSON.stringify({ ...a.state, id: undefined, x: undefined, y: undefined })))
    .size;
  const modes = [
    { cache: "off", shared: undefined as PlanCache | undefined, before: () => {} },
    { cache: "cold", shared: new PlanCache({ maxSize: 4096 }), before: (c?: PlanCache) => c?.clear() },
    { cache: "warm", shared: new PlanCache({ maxSize: 4096 }), before: () => {} },
  ];
  const pool = new PlannerPool();
  const pooledModes = [
    { cache: "off", shared: undefined as PlanCache | undefined, before: () => {}, pool },
    { cache: "cold", shared: new PlanCache({ maxSize: 4096 }), before: (c?: PlanCache) => c?.clear(), pool },
  ];
  for (const { cache, shared, before, pool: planner } of [...modes.map((m) => ({ ...m, pool: undefined })), ...pooledModes]) {
    const agents = villagers(shared, planner);
    const round = planner
      ? async () => {
          before(shared);
          await Promise.all(agents.map((agent) => agent.replanAsync()));
        }
      : () => {
          before(shared);
          for (const agent of agents) agent.replan();
        };
    await round();
    const { medianMs, runs } = await timeIt(round, { warmup: 2, minRuns: 5, minMs: 1500, maxRuns: 200 });
    // One more round, counted: what the agents ended up with and what the cache did.
    const hitsBefore = shared?.stats.hits ?? 0;
    const missesBefore = shared?.stats.misses ?? 0;
    await round();
    const outcome = { running: 0, achieved: 0, blocked: 0 };
    for (const agent of agents) {
      const status = agent.status;
      if (status === "running" || status === "achieved" || status === "blocked") outcome[status]++;
    }
    emit({
      suite: "agents",
      domain: "village",
      agents: AGENTS,
      distinctStates,
      cache,
      ...(planner ? { planner: "pool", workers: planner.size } : { planner: "in-thread" }),
      planned: outcome.running,
      alreadyAchieved: outcome.achieved,
      noPlan: outcome.blocked,
      msPerRound: Number(medianMs.toFixed(3)),
      agentsPerSec: Math.round(AGENTS / (medianMs / 1000)),
      ...(shared
        ? {
            hitsPerRound: cache === "cold" ? shared.stats.hits : shared.stats.hits - hitsBefore,
            missesPerRound: cache === "cold" ? shared.stats.misses : shared.stats.misses - missesBefore,
          }
        : {}),
      runs,
      load1: Number(loadavg()[0]?.toFixed(1)),
    });
  }
  await pool.close();
}
