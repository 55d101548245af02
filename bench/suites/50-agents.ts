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
import { GoapAgent, PlanCache } from "../../src/utility/index.js";
import { PlannerPool } from "../../src/workers/index.js";
import { emit, timeIt } from "../emit.js";
import { villagerStates } from "../villagers.js";

const AGENTS = 1000;

function villagers(cache: PlanCache | undefined, pool?: PlannerPool): GoapAgent[] {
  const actions = createVillageActions();
  return villagerStates(AGENTS).map(
    (state) =>
      new GoapAgent({
        actions,
        state,
        goal: pickVillageGoal(state),
        ...(cache ? { planCache: cache } : {}),
        ...(pool ? { planner: pool } : {}),
      }),
  );
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
