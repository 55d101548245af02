import { describe, expect, it } from "vitest";
import { SLICE_MAX_MS, SLICE_MIN_MS, SLICE_REGROW_MS, type SliceClock, SliceLength, SliceMeter } from "../../src/core/slice-length.js";
import { Pace } from "../../src/planner/pace.js";

/** A wall clock and a CPU clock the test moves by hand. */
function handClock(): SliceClock & { run(wallMs: number, cpuMs: number): void } {
  let wall = 1000;
  let cpu = 0;
  return {
    now: () => wall,
    cpuMs: () => cpu,
    run(wallMs, cpuMs) {
      wall += wallMs;
      cpu += cpuMs;
    },
  };
}

describe("the adapted slice length", () => {
  it("starts at the full length and keeps it while slices run on their core", () => {
    const length = new SliceLength();
    expect(length.ms).toBe(SLICE_MAX_MS);
    for (let i = 0; i < 10; i++) length.record(5, 4.9);
    expect(length.ms).toBe(SLICE_MAX_MS);
  });

  it("halves after each slice that waited for a core, down to the shortest", () => {
    const length = new SliceLength();
    length.record(9, 5); // 4 ms of 9 off the core
    expect(length.ms).toBe(SLICE_MAX_MS / 2);
    length.record(6.5, 2.5);
    expect(length.ms).toBe(SLICE_MAX_MS / 4);
    for (let i = 0; i < 5; i++) length.record(5.25, 1.25);
    expect(length.ms).toBe(SLICE_MIN_MS);
  });

  it("grows back by a step per undisturbed slice, up to the full length", () => {
    const length = new SliceLength();
    for (let i = 0; i < 5; i++) length.record(8, 1);
    expect(length.ms).toBe(SLICE_MIN_MS);
    length.record(1, 1);
    expect(length.ms).toBe(SLICE_MIN_MS + SLICE_REGROW_MS);
    for (let i = 0; i < 100; i++) length.record(2, 2);
    expect(length.ms).toBe(SLICE_MAX_MS);
  });

  it("takes a small loss (under 1 ms, or under a quarter of the slice) for noise", () => {
    const length = new SliceLength();
    length.record(5, 4.1); // 0.9 ms lost
    length.record(5, 3.8); // 1.2 ms lost, under a quarter of 5
    expect(length.ms).toBe(SLICE_MAX_MS);
  });

  it("learns nothing from a slice cut short by the end of its work, nor from an unreadable CPU clock", () => {
    const length = new SliceLength();
    length.record(8, 1);
    length.record(0.2, 0.2);
    length.record(5, Number.NaN);
    expect(length.ms).toBe(SLICE_MAX_MS / 2);
  });
});

describe("a pace on an adapted slice length", () => {
  it("ends its slices sooner once a slice waited for a core, and never later than its own slice length", () => {
    const clock = handClock();
    const length = new SliceLength();
    const pace = new Pace(4, Number.POSITIVE_INFINITY, undefined, new SliceMeter(length, clock));
    const start = clock.now();
    // The first slice ends by the turn's clock (performance.now), so only the following ones are checked here.
    const pausing = pace.pause();
    clock.run(10, 4); // the first slice: 6 ms of 10 off the core
    pausing.next();
    pausing.next();
    expect(length.ms).toBe(SLICE_MAX_MS / 2);
    expect(pace.sliceEnd).toBe(start + 10 + SLICE_MAX_MS / 2);

    const next = pace.pause();
    clock.run(3, 3); // undisturbed: grows back, but the pace's own 4 ms stay the cap
    next.next();
    next.next();
    expect(length.ms).toBe(SLICE_MAX_MS / 2 + SLICE_REGROW_MS);
    for (let i = 0; i < 20; i++) length.record(3, 3);
    const last = pace.pause();
    clock.run(3, 3);
    last.next();
    last.next();
    expect(pace.sliceEnd).toBe(clock.now() + 4);
  });

  it("never measures a pace that does not slice", () => {
    const clock = handClock();
    const length = new SliceLength();
    let reads = 0;
    const counting: SliceClock = {
      now: () => clock.now(),
      cpuMs: () => {
        reads++;
        return clock.cpuMs();
      },
    };
    const pace = new Pace(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, undefined, new SliceMeter(length, counting));
    expect(pace.sliceEnd).toBe(Number.POSITIVE_INFINITY);
    expect(reads).toBe(0);
  });
});
