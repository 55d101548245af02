/**
 * A village of 200 utility-driven villagers watched live in the inspector:
 * each villager's brain weighs hunger and energy into a goal, its GoapAgent
 * plans and acts over game ticks, and the inspector's crowd view shows the
 * table of agents (goal, plan, action), utility charts per goal and
 * consideration, goal switches and plan failures. One villager's planning
 * call is shown in the search view.
 *
 *   npx tsx examples/inspector-crowd.ts          # 300 ticks, checks itself, exits
 *   npx tsx examples/inspector-crowd.ts --serve  # 10 ticks a second until Ctrl-C: open the printed address
 *
 * It checks its own outcome through the inspector's own HTTP endpoints (the
 * page, uPlot served from the package, the event stream) and exits non-zero
 * when anything is wrong.
 */
import { createInspector } from "../src/inspect/index.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "./lib/village.js";
import { createVillagerCrowd } from "./lib/villager-crowd.js";

const VILLAGERS = 200;
const TICKS = 300;
const serve = process.argv.includes("--serve");

function check(ok: boolean, what: string): void {
  if (!ok) {
    console.error(`FAILED: ${what}`);
    process.exitCode = 1;
  }
}

const inspector = createInspector({ title: "village crowd" });
const { url } = await inspector.listen({ port: serve ? 7300 : 0 });
console.log(`Inspector: ${url}#crowd`);

const crowd = createVillagerCrowd(VILLAGERS, { seed: 42, chopFailure: 0.15 });
for (const { agent, brain } of crowd.villagers) inspector.crowd.watch(agent, { brain });
inspector.search("villager-0: eat", villageStartState(), VILLAGE_GOALS.notHungry, createVillageActions());

const controller = new AbortController();
process.once("SIGINT", () => controller.abort());
for (let tick = 1; serve ? !controller.signal.aborted : tick <= TICKS; tick++) {
  crowd.tick(0.1);
  inspector.crowd.sample(tick / 10);
  // A frame's worth of time when a person watches; otherwise just let the server's sockets run.
  await new Promise((resolve) => (serve ? setTimeout(resolve, 100) : setImmediate(resolve)));
}

/** Reads the event stream until the crowd frame of the last sample arrives. */
async function lastCrowdFrame(): Promise<{
  sample: number;
  rows: unknown[][];
  totalSwitches: number;
  totalFailures: number;
  byGoal: Record<string, number>;
}> {
  const response = await fetch(`${url}events`);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the event stream ended before the crowd frame arrived");
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        if (!event.startsWith("data: ")) continue;
        const message = JSON.parse(event.slice(6)) as { key: string; data: never };
        if (message.key === "crowd") return message.data;
      }
    }
  } finally {
    await reader.cancel();
  }
}

const frame = await lastCrowdFrame();
const page = await (await fetch(url)).text();
const uplot = await fetch(`${url}uPlot.iife.min.js`);
const search = (inspector.snapshot()["search:villager-0: eat"] as { data: { status: string; plan: { actions: string[] } } }).data;
await inspector.close();

console.log(
  `${frame.rows.length} villagers after ${frame.sample} samples: ${frame.totalSwitches} goal switches, ${frame.totalFailures} plan failures; goals now ${JSON.stringify(frame.byGoal)}`,
);
console.log(`search view: ${search.status}, plan [${search.plan.actions.join(", ")}]`);
check(page.includes('<script src="./inspector.js"></script>') && page.includes("Crowd"), "the page is served");
check(uplot.status === 200 && (await uplot.text()).includes("uPlot"), "uPlot is served from the package (works offline)");
check(frame.rows.length === VILLAGERS, `the stream's crowd frame lists every villager (${frame.rows.length})`);
check(serve || frame.sample === TICKS, `the stream carries the last sample (${frame.sample})`);
check(Object.values(frame.byGoal).reduce((a, b) => a + b, 0) === VILLAGERS, "every villager has a goal");
check(frame.totalSwitches > VILLAGERS, "villagers switch goals as hunger and fatigue grow");
check(frame.totalFailures > 0, "failed chops show up as plan failures");
check(
  search.status === "found" && search.plan.actions.join(",") === "go_to_tree,chop_wood,go_to_campfire,cook_food,eat_food",
  "the search view shows the plan",
);
if (process.exitCode) process.exit(process.exitCode);
console.log("OK");
