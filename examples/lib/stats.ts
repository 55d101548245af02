/**
 * Welch's t-test with the Student-t distribution computed here (log-gamma
 * by Lanczos, the regularized incomplete beta by Lentz's continued
 * fraction), for comparing goal rates of two planners without a stats
 * dependency.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 7; about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let f = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    f *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return f;
}

/** The regularized incomplete beta function I_x(a, b), for x in [0, 1] and a, b > 0. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast only below the mean; use the symmetry above it.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** P(T <= t) for Student's t with `df` degrees of freedom (df > 0, not necessarily an integer). */
export function studentTCdf(t: number, df: number): number {
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

/** Result of {@link welchTTest}. */
export interface WelchResult {
  readonly meanA: number;
  readonly meanB: number;
  readonly t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  readonly df: number;
  readonly pValue: number;
}

function meanAndVariance(xs: readonly number[]): { mean: number; variance: number } {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1);
  return { mean, variance };
}

/**
 * Welch's unequal-variance t-test of mean(a) against mean(b). `greater`
 * is the one-sided test of "a is larger". Two samples without any
 * variance give t = ±Infinity (p 0 or 1) when their means differ.
 */
export function welchTTest(
  a: readonly number[],
  b: readonly number[],
  alternative: "greater" | "less" | "two-sided" = "greater",
): WelchResult {
  if (a.length < 2 || b.length < 2) throw new Error("welchTTest: each sample needs at least 2 values");
  const A = meanAndVariance(a);
  const B = meanAndVariance(b);
  const va = A.variance / a.length;
  const vb = B.variance / b.length;
  const diff = A.mean - B.mean;
  if (va + vb === 0) {
    const t = diff === 0 ? 0 : diff > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const pValue =
      alternative === "two-sided"
        ? diff === 0
          ? 1
          : 0
        : alternative === "greater"
          ? diff > 0
            ? 0
            : diff === 0
              ? 0.5
              : 1
          : diff < 0
            ? 0
            : diff === 0
              ? 0.5
              : 1;
    return { meanA: A.mean, meanB: B.mean, t, df: a.length + b.length - 2, pValue };
  }
  const t = diff / Math.sqrt(va + vb);
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const below = studentTCdf(t, df);
  const pValue = alternative === "greater" ? 1 - below : alternative === "less" ? below : 2 * Math.min(below, 1 - below);
  return { meanA: A.mean, meanB: B.mean, t, df, pValue };
}
