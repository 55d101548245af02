import { describe, expect, it } from "vitest";
import { ActionQos, createRng, DEFAULT_RETRY_POLICY, FIRE_ONCE, LangGoapError } from "../../src/core/index.js";

describe("createRng", () => {
  it("is deterministic per seed and differs across seeds", () => {
    const a = createRng(42);
    const b = createRng(42);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(createRng(43).next()).not.toBe(seqA[0]);
    expect(seqA[0]).toBe(0.6011037519201636);
    for (const v of seqA) expect(v >= 0 && v < 1).toBe(true);
  });

  it("continues a stream from its state and draws weighted indices", () => {
    const r = createRng(7);
    r.next();
    const copy = createRng(r.state());
    expect(copy.next()).toBe(r.next());
    const counts = [0, 0, 0];
    const w = createRng(1);
    for (let i = 0; i < 10_000; i++) counts[w.weightedIndex([1, 0, 3])]! += 1;
    expect(counts[1]).toBe(0);
    expect(Math.abs(counts[2]! / 10_000 - 0.75)).toBeLessThan(0.02);
    expect(() => w.weightedIndex([0, 0])).toThrow(LangGoapError);
    expect(() => createRng(Number.NaN)).toThrow("seed must be a finite number");
  });
});

describe("ActionQos", () => {
  it("backs off exponentially with a cap and no jitter", () => {
    const q = new ActionQos({ maxAttempts: 5, backoffInitialMs: 4, backoffMultiplier: 2, jitter: 0 });
    expect([1, 2, 3, 4].map((n) => q.computeBackoffMs(n))).toEqual([4, 8, 16, 32]);
    const capped = new ActionQos({ backoffInitialMs: 10, backoffMultiplier: 10, backoffMaxMs: 200, jitter: 0 });
    expect([1, 2, 3, 10].map((n) => capped.computeBackoffMs(n))).toEqual([10, 100, 200, 200]);
  });

  it("jitters within bounds, deterministically per seed", () => {
    const q = new ActionQos({ backoffInitialMs: 100, jitter: 0.25 });
    const rng = createRng(0);
    const draws = Array.from({ length: 100 }, () => q.computeBackoffMs(1, rng));
    for (const d of draws) expect(d >= 75 && d <= 125).toBe(true);
    const again = createRng(0);
    expect(Array.from({ length: 100 }, () => q.computeBackoffMs(1, again))).toEqual(draws);
  });

  it("retries only retryable errors, within the attempt budget", () => {
    const q = new ActionQos({ maxAttempts: 3 });
    const timeout = Object.assign(new Error("slow"), { name: "TimeoutError" });
    expect([1, 2, 3, 99].map((n) => q.shouldRetry(timeout, n))).toEqual([true, true, false, false]);
    expect(q.shouldRetry(new Error("bad"), 1)).toBe(false);
    expect(new ActionQos({ maxAttempts: 2, idempotent: true }).shouldRetry(new RangeError("x"), 1)).toBe(true);
    expect(new ActionQos({ maxAttempts: 2, retryableErrors: [RangeError] }).shouldRetry(new RangeError("x"), 1)).toBe(true);
    expect(new ActionQos({ maxAttempts: 2, retryableErrors: (e) => (e as Error).message === "x" }).shouldRetry(new Error("x"), 1)).toBe(
      true,
    );
    expect(FIRE_ONCE.maxAttempts).toBe(1);
    expect(DEFAULT_RETRY_POLICY.backoffInitialMs).toBe(10_000);
  });

  it.each([
    [{ maxAttempts: 0 }, "maxAttempts"],
    [{ backoffInitialMs: -1 }, "backoffInitialMs"],
    [{ backoffMultiplier: 0.5 }, "backoffMultiplier"],
    [{ backoffInitialMs: 100, backoffMaxMs: 50 }, "backoffMaxMs"],
    [{ jitter: 1.01 }, "jitter"],
  ])("rejects %o", (options, field) => {
    expect(() => new ActionQos(options)).toThrow(`ActionQos.${field}`);
  });
});
