import { describe, expect, it } from "vitest";
import { TypedEmitter, UtilityBrain, type UtilityChange } from "../../src/utility/index.js";

/** An action whose score is the blackboard value of `key` (one linear consideration). */
const direct = (name: string, key: string, extra: Record<string, unknown> = {}) => ({
  name,
  considerations: [{ inputKey: key, curve: {} }],
  ...extra,
});

function recordChanges(brain: UtilityBrain): string[] {
  const seen: string[] = [];
  brain.on("changed", (e: UtilityChange) => seen.push(`${e.previous?.name ?? "none"}->${e.current?.name ?? "none"}`));
  return seen;
}

describe("UtilityBrain evaluation", () => {
  it("decides on the first tick and keeps the highest scorer", () => {
    const brain = new UtilityBrain({ actions: [direct("eat", "hunger"), direct("sleep", "tiredness")] });
    const changes = recordChanges(brain);
    brain.update({ hunger: 0.8, tiredness: 0.3 });
    expect(brain.tick(0.016)?.name).toBe("eat");
    expect(brain.currentScore).toBeCloseTo(0.8, 12);
    expect(changes).toEqual(["none->eat"]);
  });

  it("breaks ties by declaration order and picks nothing when all score 0", () => {
    const brain = new UtilityBrain({ actions: [direct("a", "x"), direct("b", "x")], evaluationInterval: 0 });
    expect(brain.tick(0, { x: 0.5 })?.name).toBe("a");
    expect(brain.tick(0, { x: 0 })).toBeNull();
    expect(brain.lastEvaluation?.scores.map((s) => s.score)).toEqual([0, 0]);
  });

  it("re-evaluates only when the interval has passed", () => {
    const brain = new UtilityBrain({ actions: [direct("eat", "hunger"), direct("sleep", "tiredness")], evaluationInterval: 0.25 });
    brain.tick(0.1, { hunger: 0.8, tiredness: 0.3 });
    brain.update({ hunger: 0.1, tiredness: 0.9 });
    expect(brain.tick(0.1)?.name).toBe("eat");
    expect(brain.tick(0.1)?.name).toBe("eat");
    expect(brain.tick(0.1)?.name).toBe("sleep");
  });

  it("fires changed only when the best choice changes, with both ends", () => {
    const brain = new UtilityBrain({ actions: [direct("eat", "hunger"), direct("sleep", "tiredness")], evaluationInterval: 0 });
    const changes = recordChanges(brain);
    let evaluations = 0;
    brain.on("evaluated", () => evaluations++);
    for (const [hunger, tiredness] of [
      [0.9, 0.1],
      [0.8, 0.2],
      [0.2, 0.7],
      [0.1, 0.8],
      [0, 0],
    ]) {
      brain.tick(0.1, { hunger, tiredness });
    }
    expect(changes).toEqual(["none->eat", "eat->sleep", "sleep->none"]);
    expect(evaluations).toBe(5);
  });
});

describe("UtilityBrain cooldowns and momentum", () => {
  it("starts the cooldown of the action it leaves, which then scores 0 until it runs out", () => {
    const brain = new UtilityBrain({
      actions: [direct("attack", "aggression", { cooldown: 1 }), direct("defend", "fear")],
      evaluationInterval: 0,
    });
    brain.tick(0.1, { aggression: 0.9, fear: 0.2 });
    expect(brain.current?.name).toBe("attack");
    brain.tick(0.1, { aggression: 0.1, fear: 0.2 });
    expect(brain.current?.name).toBe("defend");
    expect(brain.cooldownRemaining("attack")).toBe(1);
    brain.tick(0.5, { aggression: 0.9 });
    expect(brain.current?.name).toBe("defend");
    expect(brain.cooldownRemaining("attack")).toBeCloseTo(0.5, 12);
    expect(brain.lastEvaluation?.scores[0]).toMatchObject({ score: 0, cooldownRemaining: 0.5 });
    brain.tick(0.5);
    expect(brain.cooldownRemaining("attack")).toBe(0);
    expect(brain.current?.name).toBe("attack");
  });

  it("damps flip-flopping between near-equal actions with momentum", () => {
    const inputs = [
      [0.5, 0.48],
      [0.49, 0.5],
      [0.5, 0.49],
      [0.48, 0.5],
    ];
    const run = (momentum: number) => {
      const brain = new UtilityBrain({ actions: [direct("a", "x"), direct("b", "y")], evaluationInterval: 0, momentum });
      const changes = recordChanges(brain);
      for (const [x, y] of inputs) brain.tick(0.1, { x, y });
      return changes;
    };
    expect(run(0)).toEqual(["none->a", "a->b", "b->a", "a->b"]);
    expect(run(0.1)).toEqual(["none->a"]);
  });
});

describe("UtilityBrain errors", () => {
  it("rejects duplicate names, unknown names and bad deltas", () => {
    expect(() => new UtilityBrain({ actions: [direct("a", "x"), direct("a", "y")] })).toThrow(/duplicate action name "a"/);
    const brain = new UtilityBrain({ actions: [direct("a", "x")] });
    expect(() => brain.startCooldown("b")).toThrow(/no action "b"; known: a/);
    expect(() => brain.tick(-1)).toThrow(/deltaSeconds must be a finite number >= 0, got -1/);
  });

  it("runs every listener even when one throws, then rethrows the first error", () => {
    const brain = new UtilityBrain({ actions: [direct("a", "x")], evaluationInterval: 0 });
    const heard: string[] = [];
    brain.on("changed", () => {
      throw new Error("listener bug");
    });
    brain.on("changed", (e) => heard.push(e.current?.name ?? "none"));
    expect(() => brain.tick(0, { x: 1 })).toThrow("listener bug");
    expect(heard).toEqual(["a"]);
    expect(brain.current?.name).toBe("a");
  });
});

describe("TypedEmitter", () => {
  class Bus extends TypedEmitter<{ ping: number }> {
    send(n: number) {
      this.emit("ping", n);
    }
  }

  it("supports on, once, off and unsubscribing during emit", () => {
    const bus = new Bus();
    const got: string[] = [];
    const stopA = bus.on("ping", (n) => {
      got.push(`a${n}`);
      stopA();
    });
    bus.on("ping", (n) => got.push(`b${n}`));
    bus.once("ping", (n) => got.push(`once${n}`));
    bus.send(1);
    bus.send(2);
    expect(got).toEqual(["a1", "b1", "once1", "b2"]);
    expect(bus.listenerCount("ping")).toBe(1);
  });
});

describe("UtilityBrain: missing blackboard keys", () => {
  it("is an error naming the key by default, and reads missingInput (the guide's 0.0) when the brain sets it", () => {
    const actions = [direct("eat", "hunger"), direct("sleep", "fatigue")];
    const strict = new UtilityBrain({ actions, evaluationInterval: 0, blackboard: { hunger: 0.4 } });
    expect(() => strict.tick(0)).toThrow(
      'consideration "fatigue": blackboard has no "fatigue"; set it or give the consideration a defaultValue',
    );
    const lenient = new UtilityBrain({ actions, evaluationInterval: 0, blackboard: { hunger: 0.4 }, missingInput: 0 });
    expect(lenient.tick(0)?.name).toBe("eat");
    const eager = new UtilityBrain({ actions, evaluationInterval: 0, blackboard: { hunger: 0.4 }, missingInput: 0.9 });
    expect(eager.tick(0)?.name).toBe("sleep");
    // A consideration's own defaultValue comes first; inherited members are never inputs.
    const own = new UtilityBrain({
      actions: [direct("eat", "hunger"), { name: "sleep", considerations: [{ inputKey: "constructor", curve: {}, defaultValue: 0.1 }] }],
      evaluationInterval: 0,
      blackboard: { hunger: 0.4 },
      missingInput: 0.9,
    });
    expect(own.tick(0)?.name).toBe("eat");
    expect(() => new UtilityBrain({ actions, missingInput: Number.NaN })).toThrow(
      "UtilityBrain: missingInput must be a finite number, got NaN",
    );
  });
});
