/**
 * Robot navigation (after unified-planning's robot examples): a corridor, a
 * weighted grid, and a crate the robot only finds on the way.
 *
 * 1. Corridor: eight locations in a row; the plan walks them in order.
 * 2. Weighted grid: moving into mud (~) costs 3, into floor (.) 1; walls (#)
 *    are impassable. A* must return the cheapest route, which this script
 *    checks against its own Dijkstra search (and that the cheapest route is
 *    unique, so the comparison is exact).
 * 3. The same grid run by a GoapGraph, with a crate on the route. The move
 *    into the crate fails, the lidar sensor maps the crate before the next
 *    planning round, and the replanned route from where the robot stands is
 *    again the unique cheapest one.
 *
 * Run: npx tsx examples/robot-navigation.ts
 */
import { ActionSpec, type WorldState } from "../src/core/index.js";
import { FunctionalSensor, GoapGraph, successfulActionNames } from "../src/graph/index.js";
import { planDetailed } from "../src/planner/index.js";

const problems: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) problems.push(what);
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// --- 1. Corridor --------------------------------------------------------------------
const corridor = Array.from({ length: 8 }, (_, i) => `l${i + 1}`);
const corridorMoves = corridor.flatMap((from, i) =>
  [corridor[i - 1], corridor[i + 1]]
    .filter((to): to is string => to !== undefined)
    .map((to) => new ActionSpec({ name: `move_${from}_${to}`, preconditions: { robot_at: from }, effects: { robot_at: to }, cost: 1 })),
);
const walk = planDetailed({ robot_at: "l1" }, { robot_at: "l8" }, corridorMoves);
console.log("1. Corridor l1 … l8");
console.log(`   plan (cost ${walk.plan?.totalCost}, ${walk.stats.nodesExpanded} nodes expanded): ${walk.plan?.actionNames.join(" → ")}`);
check(walk.status === "found", `corridor: ${walk.status}`);
check(
  same(
    walk.plan?.actionNames,
    corridor.slice(0, -1).map((from, i) => `move_${from}_${corridor[i + 1]}`),
  ),
  "corridor: the plan should walk l1 → l2 → … → l8",
);
check(walk.plan?.totalCost === 7, `corridor: cost ${walk.plan?.totalCost}, expected 7`);

// --- 2. Weighted grid -------------------------------------------------------------------
const GRID = ["S..~..", ".#.~#.", "~#...~", ".~~#..", "#..#.~", "~..~.G"];
const ROWS = GRID.length;
const COLS = (GRID[0] as string).length;
const GOAL_CELL = `r${ROWS - 1}c${COLS - 1}`;
const at = (cell: string): [number, number] => cell.slice(1).split("c").map(Number) as [number, number];
const tile = (cell: string) => {
  const [r, c] = at(cell);
  return GRID[r]?.[c];
};
const passable = (cell: string) => tile(cell) !== undefined && tile(cell) !== "#";
const enterCost = (cell: string) => (tile(cell) === "~" ? 3 : 1);
const cells = GRID.flatMap((row, r) => [...row].map((_, c) => `r${r}c${c}`)).filter(passable);
const neighbours = (cell: string) => {
  const [r, c] = at(cell);
  return [`r${r - 1}c${c}`, `r${r + 1}c${c}`, `r${r}c${c - 1}`, `r${r}c${c + 1}`].filter((n) => cells.includes(n));
};

/** The reference: Dijkstra from `from`, counting cheapest routes so uniqueness can be checked. */
function cheapestRoute(from: string, blocked: ReadonlySet<string>) {
  const dist = new Map([[from, 0]]);
  const ways = new Map([[from, 1]]);
  const previous = new Map<string, string>();
  const settled = new Set<string>();
  for (;;) {
    const next = [...dist].filter(([cell]) => !settled.has(cell)).sort((a, b) => a[1] - b[1])[0];
    if (!next) break;
    const [cell, d] = next;
    settled.add(cell);
    for (const n of neighbours(cell).filter((x) => !blocked.has(x))) {
      const nd = d + enterCost(n);
      const old = dist.get(n) ?? Number.POSITIVE_INFINITY;
      if (nd < old) {
        dist.set(n, nd);
        ways.set(n, ways.get(cell) as number);
        previous.set(n, cell);
      } else if (nd === old) {
        ways.set(n, (ways.get(n) as number) + (ways.get(cell) as number));
      }
    }
  }
  const path = [GOAL_CELL];
  while (path[0] !== from) path.unshift(previous.get(path[0] as string) as string);
  return { cost: dist.get(GOAL_CELL) as number, routes: ways.get(GOAL_CELL) as number, path };
}

/** One action per move into a passable neighbour, costing the tile entered, allowed while that tile is not known to be blocked. */
function gridMoves(execute?: (to: string) => void): ActionSpec[] {
  return cells.flatMap((from) =>
    neighbours(from).map(
      (to) =>
        new ActionSpec({
          name: `move_${from}_${to}`,
          preconditions: { robot_at: from, [`blocked_${to}`]: false },
          effects: { robot_at: to },
          cost: enterCost(to),
          ...(execute ? { execute: () => execute(to) } : {}),
        }),
    ),
  );
}
const gridStart: WorldState = { robot_at: "r0c0", ...Object.fromEntries(cells.map((c) => [`blocked_${c}`, false])) };
const routeOf = (from: string, moves: readonly string[]) => [from, ...moves.map((m) => m.split("_")[2] as string)];

function drawGrid(route: readonly string[], crate?: string): string {
  return GRID.map((row, r) =>
    [...row]
      .map((ch, c) => {
        const cell = `r${r}c${c}`;
        if (cell === crate) return "X";
        if (ch === "S" || ch === "G") return ch;
        return route.includes(cell) ? "*" : ch;
      })
      .join(" "),
  )
    .map((line) => `   ${line}`)
    .join("\n");
}

const gridMovesPlanned = gridMoves();
const gridPlan = planDetailed(gridStart, { robot_at: GOAL_CELL }, gridMovesPlanned);
const reference = cheapestRoute("r0c0", new Set());
const plannedRoute = routeOf("r0c0", gridPlan.plan?.actionNames ?? []);
console.log(`\n2. Weighted grid (${gridMovesPlanned.length} move actions; . costs 1, ~ costs 3, # is a wall)`);
console.log(drawGrid(plannedRoute));
console.log(`   A*: cost ${gridPlan.plan?.totalCost}, ${gridPlan.stats.nodesExpanded} nodes expanded; Dijkstra: cost ${reference.cost}`);
check(reference.routes === 1, `grid: the cheapest route should be unique for an exact check, found ${reference.routes}`);
check(gridPlan.plan?.totalCost === reference.cost, `grid: A* cost ${gridPlan.plan?.totalCost}, Dijkstra ${reference.cost}`);
check(same(plannedRoute, reference.path), `grid: A* route ${plannedRoute.join(" ")} differs from ${reference.path.join(" ")}`);

// --- 3. A crate on the route, found while driving -------------------------------------------
const CRATE = "r2c4";
const bumps: string[] = [];
const drivenMoves = gridMoves((to) => {
  if (to === CRATE) {
    bumps.push(to);
    throw new Error(`bumper: crate at ${to}`);
  }
});
// The lidar sees the four neighbouring tiles; it runs before every planning round.
const lidar = new FunctionalSensor("lidar", (world) =>
  neighbours(String(world.robot_at)).includes(CRATE) ? { [`blocked_${CRATE}`]: true } : undefined,
);
const graph = new GoapGraph(drivenMoves, { sensors: [lidar], logger: { warn: (m) => console.log(`   ! ${m}`) } });
const run = await graph.invoke({ robot_at: GOAL_CELL }, gridStart);
const failedAt = run.executionHistory.find((r) => !r.success);
const bumpedFrom = String(failedAt?.stateBefore.robot_at);
const detour = cheapestRoute(bumpedFrom, new Set([CRATE]));
const driven = routeOf("r0c0", successfulActionNames(run));
const afterBump = driven.slice(driven.indexOf(bumpedFrom));
const drivenCost = driven.slice(1).reduce((sum, cell) => sum + enterCost(cell), 0);
console.log(`\n3. The same grid with a crate (X) at ${CRATE}, unknown to the plan`);
console.log(drawGrid(driven, CRATE));
console.log(`   ✗ ${failedAt?.actionName} — ${failedAt?.error}; replans: ${run.replanCount}`);
console.log(`   detour from ${bumpedFrom}: ${afterBump.join(" → ")} (cost ${detour.cost}); total driven cost ${drivenCost}`);
check(run.status === "goal_achieved", `drive: status ${run.status}`);
check(same(bumps, [CRATE]), `drive: the robot should bump into the crate exactly once, bumped ${bumps.length} times`);
check(bumpedFrom === "r2c3", `drive: the crate should be hit from r2c3, was hit from ${bumpedFrom}`);
check(run.replanCount === 1, `drive: replanned ${run.replanCount} times, expected once`);
check(run.worldState[`blocked_${CRATE}`] === true, "drive: the lidar should have mapped the crate");
check(detour.routes === 1, `drive: the cheapest detour should be unique, found ${detour.routes}`);
check(same(afterBump, detour.path), `drive: the detour ${afterBump.join(" ")} differs from Dijkstra's ${detour.path.join(" ")}`);
check(
  same(driven.slice(0, driven.indexOf(bumpedFrom) + 1), reference.path.slice(0, reference.path.indexOf(bumpedFrom) + 1)),
  "drive: the robot should follow the planned route until the crate",
);
check(drivenCost === 16, `drive: total cost ${drivenCost}, expected 5 before the crate + 11 for the detour`);

if (problems.length > 0) {
  console.error(`\nFAILED:\n- ${problems.join("\n- ")}`);
  process.exitCode = 1;
} else {
  console.log("\nOK: every route is the cheapest one, before and after the crate.");
}
