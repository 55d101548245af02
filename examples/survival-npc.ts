/**
 * The survival NPC of the Godot utility-AI guide (section 5): a UtilityBrain
 * choosing between eat, sleep, fight, flee and gather with the curves of the
 * guide's table, over one simulated day. A boar attacks in the morning and a
 * wolf pack in the evening; the NPC gathers food, eats, fights, flees and
 * sleeps as its needs and the threats change.
 *
 * Run: npx tsx examples/survival-npc.ts
 */
import { type Blackboard, UtilityBrain, type UtilityChange } from "../src/utility/index.js";

// The guide's action configuration (section 5), as UtilityActions.
const brain = new UtilityBrain({
  evaluationInterval: 0.2, // game hours: this simulation's clock unit
  momentum: 0.2, // a little commitment to the running choice
  actions: [
    {
      name: "eat",
      weight: 1,
      considerations: [
        { inputKey: "hunger", curve: { type: "exponential", exponent: 6 } }, // spikes when hunger > 0.7
        { inputKey: "food_nearby", curve: { type: "step", xShift: 0.5 } }, // 0 if no food nearby
      ],
    },
    {
      name: "sleep",
      weight: 0.9,
      considerations: [
        { inputKey: "energy", curve: { type: "quadratic", exponent: 2, invert: true } },
        // won't sleep if danger: 2·(1 − threat) − 1, zero from threat 0.5 up
        { inputKey: "threat", curve: { type: "linear", invert: true, slope: 2, yShift: -1 } },
      ],
    },
    {
      name: "fight",
      weight: 1.1,
      considerations: [
        { inputKey: "threat", curve: { type: "logistic", exponent: 10, xShift: 0.5 } }, // triggers around 0.5 threat
        { inputKey: "health", curve: { type: "linear" } }, // more health = more willing to fight
      ],
    },
    {
      name: "flee",
      weight: 1.3,
      considerations: [
        { inputKey: "threat", curve: { type: "exponential", exponent: 5 } }, // extreme urgency at high threat
        { inputKey: "health", curve: { type: "quadratic", exponent: 2, invert: true } }, // low health = more likely to flee
      ],
    },
    {
      name: "gather",
      weight: 0.5,
      considerations: [
        { inputKey: "hunger", curve: { type: "linear", invert: true } }, // gather when not hungry
        { inputKey: "threat", curve: { type: "step", xShift: 0.9, invert: true } }, // won't gather if threatened
        { inputKey: "energy", curve: { type: "linear" } }, // need energy to gather
      ],
    },
  ],
});

/** An enemy: where it is, how hard it hits, how much it takes to drive off. */
interface Enemy {
  name: string;
  distance: number;
  approachSpeed: number;
  closest: number;
  damagePerHour: number;
  hitPoints: number;
  /** Has come within striking distance; an engaged enemy that loses the NPC gives up. */
  engaged: boolean;
}

// The world, in game hours. Needs drift, actions change the world.
const world = {
  hour: 6,
  health: 1,
  hunger: 0.35,
  energy: 0.95,
  foodStock: 0,
  mealProgress: 0,
  enemy: null as Enemy | null,
};
const events: { at: number; enemy: Enemy }[] = [
  { at: 9.5, enemy: { name: "boar", distance: 30, approachSpeed: 15, closest: 4, damagePerHour: 0.3, hitPoints: 1, engaged: false } },
  { at: 19, enemy: { name: "wolf pack", distance: 12, approachSpeed: 10, closest: 3, damagePerHour: 0.35, hitPoints: 3, engaged: false } },
];

const clamp01 = (x: number) => Math.min(Math.max(x, 0), 1);

/** The guide's normalised blackboard (section 5, _physics_process). */
function sense(): Blackboard {
  const enemyDistance = world.enemy?.distance ?? 100;
  const foodDistance = world.foodStock >= 1 ? 2 : 40; // a meal at camp, or the far berry bushes
  return {
    health: world.health,
    hunger: world.hunger,
    energy: world.energy,
    threat: 1 - clamp01(enemyDistance / 20),
    food_nearby: 1 - clamp01(foodDistance / 30),
  };
}

/** One step of the world under the brain's current choice. */
function simulate(choice: string | null, dt: number): void {
  world.hunger = clamp01(world.hunger + 0.05 * dt);
  world.energy = clamp01(world.energy - 0.03 * dt);
  const enemy = world.enemy;
  if (enemy) {
    enemy.distance = Math.max(enemy.closest, enemy.distance - enemy.approachSpeed * dt);
    if (enemy.distance < 6) {
      enemy.engaged = true;
      world.health = clamp01(world.health - enemy.damagePerHour * dt);
    }
  } else {
    world.health = clamp01(world.health + 0.03 * dt);
  }
  if (choice !== "eat") world.mealProgress = 0;
  switch (choice) {
    case "gather":
      world.foodStock += 0.5 * dt;
      world.energy = clamp01(world.energy - 0.02 * dt);
      break;
    case "eat":
      world.mealProgress += dt;
      if (world.mealProgress >= 0.5 - 1e-9) {
        world.hunger = clamp01(world.hunger - 0.6);
        world.foodStock -= 1;
        world.mealProgress = 0;
      }
      break;
    case "sleep":
      world.energy = clamp01(world.energy + 0.12 * dt);
      break;
    case "fight":
      world.energy = clamp01(world.energy - 0.05 * dt);
      if (enemy && enemy.distance < 6) enemy.hitPoints -= 0.8 * dt;
      break;
    case "flee":
      world.energy = clamp01(world.energy - 0.05 * dt);
      if (enemy) enemy.distance += (25 + enemy.approachSpeed) * dt;
      break;
  }
  // Driven off, or lost sight of the NPC after the chase began.
  if (enemy && (enemy.hitPoints <= 0 || (enemy.engaged && enemy.distance >= 10))) world.enemy = null;
}

const clock = (hour: number) => {
  const minutes = Math.round(hour * 60) % (24 * 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
};
const facts = (bb: Blackboard) =>
  (["health", "hunger", "energy", "threat", "food_nearby"] as const).map((k) => `${k} ${(bb[k] as number).toFixed(2)}`).join("  ");

interface Switch {
  hour: number;
  to: string;
  blackboard: Blackboard;
}
const switches: Switch[] = [];
const violations: string[] = [];
brain.on("changed", (change: UtilityChange) => {
  const to = change.current?.name ?? "idle";
  switches.push({ hour: world.hour, to, blackboard: { ...brain.blackboard } });
  const scores = change.scores.map((s) => `${s.action.name} ${s.score.toFixed(2)}`).join(", ");
  console.log(`${clock(world.hour)}  -> ${to.padEnd(6)}  ${facts(brain.blackboard)}   [${scores}]`);
});
brain.on("evaluated", ({ best }) => {
  const bb = brain.blackboard as Record<string, number>;
  if (best?.name === "sleep" && bb.threat >= 0.5) violations.push(`${clock(world.hour)}: slept with threat ${bb.threat.toFixed(2)}`);
  if (best?.name === "gather" && bb.threat > 0.1) violations.push(`${clock(world.hour)}: gathered with threat ${bb.threat.toFixed(2)}`);
  if (bb.threat >= 0.8 && bb.health <= 0.2 && best?.name !== "flee") {
    violations.push(`${clock(world.hour)}: did not flee at threat ${bb.threat.toFixed(2)}, health ${bb.health.toFixed(2)}`);
  }
});

console.log("A day in the life of the guide's survival NPC (utility brain, section 5 curves)\n");
const dt = 0.1;
for (let step = 0; step < 240; step++) {
  for (const event of events) {
    if (Math.abs(world.hour - event.at) < dt / 2) {
      world.enemy = { ...event.enemy };
      console.log(`${clock(world.hour)}  !! a ${event.enemy.name} appears ${event.enemy.distance} m away`);
    }
  }
  const choice = brain.tick(dt, sense());
  simulate(choice?.name ?? null, dt);
  world.hour += dt;
}

// The switches the guide's design promises.
const found = (label: string, test: (s: Switch) => boolean) => {
  const hit = switches.find(test);
  console.log(`${hit ? "ok  " : "FAIL"} ${label}${hit ? ` (at ${clock(hit.hour)})` : ""}`);
  return hit !== undefined;
};
const n = (s: Switch, key: string) => s.blackboard[key] as number;
console.log("\nChecks:");
const checks = [
  found("fights when threatened and healthy", (s) => s.to === "fight" && n(s, "threat") >= 0.3 && n(s, "health") >= 0.8),
  found("flees when threat is high and health low", (s) => s.to === "flee" && n(s, "threat") >= 0.7 && n(s, "health") <= 0.4),
  found("eats when hungry with food near", (s) => s.to === "eat" && n(s, "hunger") >= 0.65 && n(s, "food_nearby") >= 0.5),
  found("sleeps when tired and safe", (s) => s.to === "sleep" && n(s, "energy") <= 0.55 && n(s, "threat") === 0),
  found("gathers when fed, rested and safe", (s) => s.to === "gather" && n(s, "hunger") <= 0.4 && n(s, "threat") === 0),
];
for (const v of violations) console.log(`FAIL ${v}`);
if (violations.length === 0) console.log("ok   never slept or gathered under threat; always fled when cornered and weak");
if (checks.includes(false) || violations.length > 0) {
  console.error("\nThe survival NPC did not behave as the guide describes.");
  process.exitCode = 1;
}
