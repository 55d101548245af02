import { describeValue, LangGoapError } from "./errors.js";

/** A cost: lower is better. */
export class SimpleScore {
  readonly kind = "simple" as const;
  constructor(readonly value: number) {
    if (typeof value !== "number" || Number.isNaN(value)) {
      throw new LangGoapError("INVALID_SCORE", `SimpleScore: value must be a number, got ${describeValue(value)}`);
    }
    Object.freeze(this);
  }
  isFeasible(): boolean {
    return true;
  }
  toString(): string {
    return `SimpleScore(${this.value})`;
  }
}

/**
 * Hard and soft levels: higher is better. `hard` collects constraint
 * violations as negative numbers, so a feasible plan has `hard >= 0`.
 */
export class HardSoftScore {
  readonly kind = "hard-soft" as const;
  constructor(
    readonly hard: number,
    readonly soft: number,
  ) {
    for (const [field, v] of [
      ["hard", hard],
      ["soft", soft],
    ] as const) {
      if (typeof v !== "number" || Number.isNaN(v)) {
        throw new LangGoapError("INVALID_SCORE", `HardSoftScore: ${field} must be a number, got ${describeValue(v)}`);
      }
    }
    Object.freeze(this);
  }
  /** Sum of both levels, for logs only. */
  get value(): number {
    return this.hard + this.soft;
  }
  isFeasible(): boolean {
    return this.hard >= 0;
  }
  toString(): string {
    return `HardSoftScore(hard=${this.hard}, soft=${this.soft})`;
  }
}

/** Several hard and soft levels, compared lexicographically: higher is better. */
export class BendableScore {
  readonly kind = "bendable" as const;
  readonly hardLevels: readonly number[];
  readonly softLevels: readonly number[];
  constructor(hardLevels: readonly number[], softLevels: readonly number[]) {
    for (const v of [...hardLevels, ...softLevels]) {
      if (typeof v !== "number" || Number.isNaN(v)) {
        throw new LangGoapError("INVALID_SCORE", `BendableScore: every level must be a number, got ${describeValue(v)}`);
      }
    }
    this.hardLevels = Object.freeze([...hardLevels]);
    this.softLevels = Object.freeze([...softLevels]);
    Object.freeze(this);
  }
  get value(): number {
    return [...this.hardLevels, ...this.softLevels].reduce((a, b) => a + b, 0);
  }
  isFeasible(): boolean {
    return this.hardLevels.every((h) => h >= 0);
  }
  toString(): string {
    return `BendableScore(hard=[${this.hardLevels.join(", ")}], soft=[${this.softLevels.join(", ")}])`;
  }
}

/** Any score. */
export type Score = SimpleScore | HardSoftScore | BendableScore;

/**
 * The one ordering of scores. Returns a negative number when `a` is better
 * than `b`, positive when worse, 0 when equal — so `plans.sort((x, y) =>
 * compareScores(x.score, y.score))` puts the best plan first for every score
 * kind (a SimpleScore is a cost, the others are "higher is better"; mixing
 * them up is the classic min/max mistake this function exists to prevent).
 * Comparing different kinds, or bendable scores of different shapes, throws.
 *
 * @example
 * ```ts
 * compareScores(new SimpleScore(3), new SimpleScore(5));            // < 0: cheaper is better
 * compareScores(new HardSoftScore(0, -2), new HardSoftScore(-1, 9)); // < 0: feasible first
 * ```
 */
export function compareScores(a: Score, b: Score): number {
  if (a.kind !== b.kind) {
    throw new LangGoapError("INVALID_SCORE", `cannot compare a ${a.kind} score with a ${b.kind} score (${a} vs ${b})`);
  }
  if (a.kind === "simple") return Math.sign(a.value - (b as SimpleScore).value);
  if (a.kind === "hard-soft") {
    const o = b as HardSoftScore;
    return a.hard !== o.hard ? Math.sign(o.hard - a.hard) : Math.sign(o.soft - a.soft);
  }
  const o = b as BendableScore;
  if (a.hardLevels.length !== o.hardLevels.length || a.softLevels.length !== o.softLevels.length) {
    throw new LangGoapError("INVALID_SCORE", `cannot compare bendable scores of different shapes (${a} vs ${o})`);
  }
  const mine = [...a.hardLevels, ...a.softLevels];
  const theirs = [...o.hardLevels, ...o.softLevels];
  for (let i = 0; i < mine.length; i++) {
    const d = (theirs[i] as number) - (mine[i] as number);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** True when `a` is strictly better than `b`. */
export function isBetterScore(a: Score, b: Score): boolean {
  return compareScores(a, b) < 0;
}

/** The best of a non-empty list of scores of one kind. */
export function bestScore<S extends Score>(scores: readonly S[]): S {
  if (scores.length === 0) throw new LangGoapError("INVALID_SCORE", "bestScore: no scores given");
  return scores.reduce((best, s) => (compareScores(s, best) < 0 ? s : best));
}

/** A score as JSON (what plan files and graph state keep). */
export type ScoreJson =
  | { readonly kind: "simple"; readonly value: number }
  | { readonly kind: "hard-soft"; readonly hard: number; readonly soft: number }
  | { readonly kind: "bendable"; readonly hardLevels: readonly number[]; readonly softLevels: readonly number[] };

/**
 * A score as plain JSON, for {@link scoreFromJson}.
 *
 * @example
 * ```ts
 * scoreToJson(new HardSoftScore(-1, 5)); // { kind: "hard-soft", hard: -1, soft: 5 }
 * ```
 */
export function scoreToJson(score: Score): ScoreJson {
  switch (score.kind) {
    case "simple":
      return { kind: "simple", value: score.value };
    case "hard-soft":
      return { kind: "hard-soft", hard: score.hard, soft: score.soft };
    default:
      return { kind: "bendable", hardLevels: [...score.hardLevels], softLevels: [...score.softLevels] };
  }
}

/** The score a {@link scoreToJson} value describes; `fallback` when there is none. Malformed data is a coded error. */
export function scoreFromJson(data: unknown, fallback?: Score): Score {
  if (data === undefined || data === null) {
    if (fallback) return fallback;
    throw new LangGoapError("INVALID_SCORE", "scoreFromJson: expected a score object, got nothing");
  }
  const d = data as Record<string, unknown>;
  const numbers = (value: unknown): value is number[] => Array.isArray(value) && value.every((v) => typeof v === "number");
  if (d.kind === "simple" && typeof d.value === "number") return new SimpleScore(d.value);
  if (d.kind === "hard-soft" && typeof d.hard === "number" && typeof d.soft === "number") return new HardSoftScore(d.hard, d.soft);
  if (d.kind === "bendable" && numbers(d.hardLevels) && numbers(d.softLevels)) return new BendableScore(d.hardLevels, d.softLevels);
  throw new LangGoapError(
    "INVALID_SCORE",
    `scoreFromJson: expected { kind: "simple" | "hard-soft" | "bendable", ... } with numbers, got ${describeValue(data)}`,
  );
}
