import { afterEach, describe, expect, it, vi } from "vitest";
import { checkStateValuesAsync } from "../../src/core/json-value.js";
import { nextTurn, pauseIfTurnLong, TURN_SLICE_MS, turnStartedAt } from "../../src/core/turn-clock.js";
import { copyFactsInSlices } from "../../src/graph/copy-state.js";
import { Pace } from "../../src/planner/pace.js";

/** A clock the test moves by hand. */
function handClock(start = 1000): { set(ms: number): void } {
  let now = start;
  vi.spyOn(performance, "now").mockImplementation(() => now);
  return {
    set(ms: number) {
      now = ms;
    },
  };
}

/** Counts turns of the event loop: an immediate that queues itself again until stopped. */
function countTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop() {
      stopped = true;
    },
  };
}

const wideState = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i % 3]));

describe("the turn clock", () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    // Let the turn end, so the next test starts a turn of its own.
    await nextTurn();
  });

  it("reads one start per turn of the event loop, the first time it is asked", async () => {
    const clock = handClock(1000);
    await nextTurn();
    expect(turnStartedAt()).toBe(1000);
    clock.set(1030);
    expect(turnStartedAt()).toBe(1000);
    await Promise.resolve(); // a microtask is the same turn
    expect(turnStartedAt()).toBe(1000);
    await nextTurn();
    expect(turnStartedAt()).toBe(1030);
  });

  it("starts the turn a yield resumes at the resume, however late in it the clock is first asked", async () => {
    const clock = handClock(1000);
    await nextTurn();
    // Code that does not ask (LangGraph's run loop between two nodes) ran in this turn before a sliced step asks:
    // its time counts, so the step gives the event loop a turn at once. Before, the turn began at the first ask.
    clock.set(1000 + 3 * TURN_SLICE_MS);
    expect(turnStartedAt()).toBe(1000);
    const counter = countTurns();
    await pauseIfTurnLong();
    counter.stop();
    expect(counter.turns).toBe(1);
  });

  it("lets a due timer run before it resumes, from a turn a timer or an I/O callback began", async () => {
    // Two passes of the loop end the turn the last yield resumed; then a timer callback's turn (Node's timers
    // phase), as a caller's request handler or module top level runs in one.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    await new Promise((resolve) => setTimeout(resolve, 1));
    let fired = false;
    setTimeout(() => {
      fired = true;
    }, 0);
    // The timer is due (not a measurement: the loop's clock must have passed its 1 ms).
    const due = performance.now() + 2;
    while (performance.now() < due) {}
    await nextTurn();
    // Before, one immediate resumed in the same pass of the loop, before its next timers phase.
    expect(fired).toBe(true);
  });

  it("resumes after one pass of the loop from a turn it resumed itself", async () => {
    await nextTurn();
    const order: string[] = [];
    const yielded = nextTurn().then(() => order.push("resumed"));
    setImmediate(() => order.push("queued after"));
    await yielded;
    await nextTurn();
    expect(order).toEqual(["resumed", "queued after"]);
  });

  it("pauses only when the turn has run its share", async () => {
    const clock = handClock(1000);
    await nextTurn();
    turnStartedAt();
    const counter = countTurns();
    clock.set(1000 + TURN_SLICE_MS - 1);
    await pauseIfTurnLong();
    expect(counter.turns).toBe(0);
    clock.set(1000 + TURN_SLICE_MS);
    await pauseIfTurnLong();
    counter.stop();
    expect(counter.turns).toBe(1);
  });

  it("makes a sliced check count the work done before it in the same turn", async () => {
    const clock = handClock(1000);
    await nextTurn();
    turnStartedAt();
    // Earlier work in this turn used the whole slice: the check gives the event loop a turn before it finishes,
    // though no time passes while it runs. Before, its slice began at its call and it finished without one.
    clock.set(1000 + 3 * TURN_SLICE_MS);
    const counter = countTurns();
    await checkStateValuesAsync(wideState(2_000), "test");
    counter.stop();
    expect(counter.turns).toBeGreaterThanOrEqual(1);
  });

  it("starts a sliced planning call's first slice at the turn's start", async () => {
    const clock = handClock(1000);
    await nextTurn();
    turnStartedAt();
    clock.set(1000 + 2 * TURN_SLICE_MS);
    expect(new Pace(TURN_SLICE_MS, Number.POSITIVE_INFINITY, undefined).sliceOver()).toBe(true);
    // Synchronous planning never yields, whatever the turn did before.
    expect(new Pace(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, undefined).sliceOver()).toBe(false);
  });
});

describe("copyFactsInSlices", () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    await nextTurn();
  });

  it("copies a world's own facts into a new plain object", async () => {
    const world = { a: 1, b: "x", c: null, d: true, nested: { k: [1, 2] } };
    const copy = await copyFactsInSlices(world);
    expect(copy).toEqual(world);
    expect(copy).not.toBe(world);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.nested).toBe(world.nested);
  });

  it("gives the event loop a turn whenever the turn has run its share", async () => {
    // The clock moves 1 ms at each reading: a reading every 256 facts, so a turn every 5 readings or so.
    let now = 1000;
    vi.spyOn(performance, "now").mockImplementation(() => now++);
    await nextTurn();
    const counter = countTurns();
    const copy = await copyFactsInSlices(wideState(10_000));
    counter.stop();
    expect(Object.keys(copy)).toHaveLength(10_000);
    expect(counter.turns).toBeGreaterThanOrEqual(5);
  });
});
