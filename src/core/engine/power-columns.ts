/**
 * The two power transforms and their inverses, value by value and over whole columns
 * (docs/transforms.md#power-functions). Every power is written without cancellation,
 * ψ = expm1(c·L)/c and x = expm1(log1p(c·ψ)/c), so a lambda near 0 (or near 2 for
 * Yeo-Johnson's x < 0) loses nothing; the logs are double-doubles (double-double.ts) and
 * c·L's rounding is carried into exp, so a large exponent loses nothing either: each
 * value is within a few ulps of the exact transform at the given lambda. scikit-learn's
 * own switches to the log form (|λ| < eps, |λ - 2| <= eps; Box-Cox |λ| < 1e-19) are kept.
 * Where |c·L| <= 1 the plain logs are already that close, and are used instead (PLAIN_LIMIT).
 * NaN stays NaN.
 */
import { carried, log1pParts, logParts, twoProductError, twoSumError } from "./double-double.js";

const EPS = 2.220446049250313e-16;

/** Below this |c·L|, expm1(c·L)/c is L·(1 + u/2 + u²/6): the next term is under 2^-90. */
const SERIES_LIMIT = 2 ** -30;

/**
 * Up to this |c·L| (in the inverses, |log1p(c·y)/c| with 1 + c·y >= 1/2, c·y's rounding
 * carried), the plain expm1(c·L)/c from Math.log1p's L is within the 4 ulps the
 * double-double gives: L's and c·L's rounding grow by p/(1 - e^-p), at most 1.58 here, and
 * fdlibm's log1p and expm1 are within an ulp. Measured against mpmath on 4,500 random
 * points either side of it (test/engine/power-fast-path.test.ts): at most 2 ulps from the
 * exact value rounded, as with the double-double everywhere. Beyond it the double-double log, about three
 * times as slow, is used.
 */
const PLAIN_LIMIT = 1;
/** The inverses' fast path needs 1 + c·y at least this: c·y's rounding is not magnified. */
const PLAIN_BASE_FLOOR = -0.5;

/** expm1(c·(L + lo)) / c with c = cHi + cLo, as a double. */
function expm1Quotient(cHi: number, cLo: number, logHi: number, logLo: number): number {
  const p = cHi * logHi;
  if (Math.abs(p) < SERIES_LIMIT) {
    // no division by c, which would lose the digits of a subnormal c·L
    return logHi + (logLo + logHi * (p / 2) * (1 + p / 3));
  }
  const em1 = Math.expm1(p);
  const delta = twoProductError(cHi, logHi, p) + cHi * logLo + cLo * logHi;
  if (!Number.isFinite(em1)) {
    // e^p overflows but e^p/c may not: two halves, the division between them
    if (!Number.isFinite(p)) return em1 / cHi;
    const half = Math.exp(p / 2);
    return ((half / cHi) * half * (1 + delta)) / (1 + cLo / cHi);
  }
  const value = em1 + (em1 + 1) * delta;
  return cLo === 0 ? value / cHi : (value / cHi) * (1 - cLo / cHi);
}

/** log1p(c·y)/c for c = cHi + cLo, as hi + carried.lo (the inverses' exponent). */
function log1pQuotient(cHi: number, cLo: number, y: number): number {
  const a = cHi * y;
  if (Math.abs(a) < SERIES_LIMIT) {
    // y·(1 - a/2 + a²/3): no division by c, which would lose the digits of a subnormal c·y
    const correction = y * (-(a / 2) * (1 - (2 * a) / 3));
    const q = y + correction;
    carried.lo = correction - (q - y);
    return q;
  }
  if (a >= PLAIN_BASE_FLOOR) {
    const q = Math.log1p(a) / cHi;
    if (Math.abs(q) <= PLAIN_LIMIT) {
      // c·y's rounding and c's low part, to first order
      carried.lo = (twoProductError(cHi, y, a) / (1 + a) + cLo * (y / (1 + a) - q)) / cHi;
      return q;
    }
  }
  const log = log1pParts(a, twoProductError(cHi, y, a) + cLo * y);
  const logLo = carried.lo;
  const q = log / cHi;
  const p = q * cHi;
  const residual = log - p - twoProductError(q, cHi, p) + logLo - q * cLo;
  carried.lo = Number.isFinite(q) ? residual / cHi : 0;
  return q;
}

/** e^(q + qLo) - 1. */
function expm1Parts(q: number, qLo: number): number {
  const em1 = Math.expm1(q);
  return Number.isFinite(em1) ? em1 + (em1 + 1) * qLo : em1;
}

/** 2 - λ as hi + lo: the exponent of Yeo-Johnson's x < 0 branch, exactly. */
function twoMinus(lambda: number): { hi: number; lo: number } {
  const hi = 2 - lambda;
  return { hi, lo: twoSumError(2, -lambda, hi) };
}

/** expm1(c·L)/c for L = log1p(m), m >= 0, from the double-double log only where it matters. */
function log1pPower(cHi: number, cLo: number, m: number): number {
  const log = Math.log1p(m);
  const p = cHi * log;
  const size = Math.abs(p);
  if (size < SERIES_LIMIT) return expm1Quotient(cHi, cLo, log, 0);
  if (size <= PLAIN_LIMIT) return plainPower(cHi, cLo, p, log);
  const hi = log1pParts(m);
  return expm1Quotient(cHi, cLo, hi, carried.lo);
}

/** expm1(p + cLo·L)/(cHi + cLo) for p = fl(cHi·L) with |p| in the plain range. */
function plainPower(cHi: number, cLo: number, p: number, log: number): number {
  const em1 = Math.expm1(p);
  if (cLo === 0) return em1 / cHi;
  return ((em1 + (em1 + 1) * cLo * log) / cHi) * (1 - cLo / cHi);
}

/** Yeo-Johnson ψ(x, λ) of one value; `b` is twoMinus(λ). */
function yeoJohnson(x: number, lambda: number, b: { hi: number; lo: number }): number {
  if (x >= 0) return Math.abs(lambda) < EPS ? log1pParts(x) : log1pPower(lambda, 0, x);
  return Math.abs(lambda - 2) > EPS ? -log1pPower(b.hi, b.lo, -x) : -log1pParts(-x);
}

/** The inverse of ψ(·, λ) at one value; `b` is twoMinus(λ). */
function yeoJohnsonInverse(y: number, lambda: number, b: { hi: number; lo: number }): number {
  if (y >= 0) {
    if (Math.abs(lambda) < EPS) return Math.expm1(y);
    const q = log1pQuotient(lambda, 0, y);
    return expm1Parts(q, carried.lo);
  }
  if (!(Math.abs(lambda - 2) > EPS)) return -Math.expm1(-y);
  // log1p(-b·y)/b, from the same helper with c = -b
  const q = log1pQuotient(-b.hi, -b.lo, y);
  return -expm1Parts(-q, -carried.lo);
}

/** Yeo-Johnson ψ(x, λ) of a whole column. */
export function yeoJohnsonColumn(col: Float64Array, lambda: number, out: Float64Array): Float64Array {
  const b = twoMinus(lambda);
  for (let i = 0; i < col.length; i++) out[i] = yeoJohnson(col[i], lambda, b);
  return out;
}

/** The inverse of ψ(·, λ) over a whole column (scikit-learn's _yeo_johnson_inverse_transform). */
export function yeoJohnsonInverseColumn(col: Float64Array, lambda: number, out: Float64Array): Float64Array {
  const b = twoMinus(lambda);
  for (let i = 0; i < col.length; i++) out[i] = yeoJohnsonInverse(col[i], lambda, b);
  return out;
}

/** scipy.special.boxcox(x, λ) of a whole column: log x when |λ| < 1e-19, else expm1(λ·log x)/λ. */
export function boxCoxColumn(col: Float64Array, lambda: number, out: Float64Array): Float64Array {
  const logForm = Math.abs(lambda) < 1e-19;
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    const plain = Math.log(x);
    const size = Math.abs(lambda * plain);
    if (logForm) out[i] = logParts(x);
    else if (size < SERIES_LIMIT) out[i] = expm1Quotient(lambda, 0, plain, 0);
    else if (size <= PLAIN_LIMIT) out[i] = plainPower(lambda, 0, lambda * plain, plain);
    else out[i] = expm1Quotient(lambda, 0, logParts(x), carried.lo);
  }
  return out;
}

/** scipy.special.inv_boxcox(y, λ): exp(y) at λ = 0, else exp(log1p(λ·y)/λ). */
export function boxCoxInverseColumn(col: Float64Array, lambda: number, out: Float64Array): Float64Array {
  for (let i = 0; i < col.length; i++) {
    const y = col[i];
    if (lambda === 0) {
      out[i] = Math.exp(y);
    } else {
      const q = log1pQuotient(lambda, 0, y);
      out[i] = Math.exp(q) * (1 + carried.lo);
    }
  }
  return out;
}
