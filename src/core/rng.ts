import { LangGoapError } from "./errors.js";

/**
 * A seeded pseudo-random generator (mulberry32). Everything random in
 * langgoap takes one of these, so a seed reproduces a run exactly.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number;
  /** Uniform real in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** Index drawn with probability proportional to `weights` (non-negative, not all zero). */
  weightedIndex(weights: readonly number[]): number;
  /** A new generator seeded from this one, for independent streams. */
  fork(): Rng;
  /** The internal state; `createRng(rng.state())` continues the same stream. */
  state(): number;
}

/** One step of mulberry32; exposed for generators that must match it bit for bit. */
export function mulberry32Step(seed: number): { value: number; seed: number } {
  const next = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(next ^ (next >>> 15), 1 | next);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, seed: next };
}

/**
 * Creates a seeded generator.
 *
 * @example
 * ```ts
 * const rng = createRng(42);
 * rng.next();        // 0.6011037519201636, every time
 * rng.int(1, 6);     // a die roll
 * ```
 */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed)) {
    throw new LangGoapError("INVALID_OPTION", `createRng: seed must be a finite number, got ${seed}`, { seed });
  }
  let s = seed | 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    uniform: (lo, hi) => lo + next() * (hi - lo),
    pick: (items) => {
      if (items.length === 0) throw new LangGoapError("INVALID_OPTION", "rng.pick: cannot pick from an empty array");
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weightedIndex: (weights) => {
      let total = 0;
      for (const w of weights) {
        if (!(w >= 0) || !Number.isFinite(w)) {
          throw new LangGoapError("INVALID_OPTION", `rng.weightedIndex: weights must be finite and >= 0, got ${w}`);
        }
        total += w;
      }
      if (total <= 0) throw new LangGoapError("INVALID_OPTION", "rng.weightedIndex: weights must not all be zero");
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i] as number;
        if (r < 0) return i;
      }
      // Floating-point leftovers land on the last positive weight.
      for (let i = weights.length - 1; i >= 0; i--) if ((weights[i] as number) > 0) return i;
      return weights.length - 1;
    },
    fork: () => createRng(Math.floor(next() * 4294967296)),
    state: () => s,
  };
  return rng;
}

/** True for objects that look like an {@link Rng}. */
export function isRng(value: unknown): value is Rng {
  return typeof value === "object" && value !== null && typeof (value as Rng).next === "function";
}
