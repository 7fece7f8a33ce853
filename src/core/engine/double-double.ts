/**
 * Logarithms to about 2^-100 relative, as a double `hi` plus a correction `lo` (a
 * double-double), and the two error-free steps they are built from. A power
 * exp(c·L) computed from a rounded L = log y is off by |c·L|·2^-53 relative, which is
 * hundreds of ulps when c·L is in the hundreds (docs/transforms.md#power-functions); with
 * L's correction carried into exp, the power is within a few ulps whatever the exponent.
 *
 * The functions return `hi` and leave `lo` in `carried.lo`, read before the next call:
 * the column loops call them per value, and a returned pair would allocate per value.
 */
export const carried = { lo: 0 };

const SPLIT = 134217729; // 2^27 + 1, Dekker's splitting constant
/** Below this magnitude a·SPLIT cannot overflow. */
const SPLIT_LIMIT = 2 ** 996;
/** fdlibm's ln 2 in two parts: LN2_HI has 32 trailing zero bits, so k·LN2_HI is exact. */
const LN2_HI = 6.9314718036912381649e-1;
const LN2_LO = 1.90821492927058770002e-10;
const SQRT2 = Math.SQRT2;
const TWO_54 = 2 ** 54;

const word = new Float64Array(1);
const bits = new Uint32Array(word.buffer);
/** Which Uint32 of the double holds its sign and exponent (1 on little-endian hosts). */
const HIGH = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 1 : 0;

/** The rounding error of a·b: a·b = fl(a·b) + twoProductError(a, b, fl(a·b)) exactly. */
export function twoProductError(a: number, b: number, product: number): number {
  if (!(Math.abs(a) < SPLIT_LIMIT && Math.abs(b) < SPLIT_LIMIT) || !Number.isFinite(product)) return 0;
  let t = SPLIT * a;
  const aHi = t - (t - a);
  const aLo = a - aHi;
  t = SPLIT * b;
  const bHi = t - (t - b);
  const bLo = b - bHi;
  return aHi * bHi - product + aHi * bLo + aLo * bHi + aLo * bLo;
}

/** The rounding error of a + b (Knuth's two-sum); 0 when the sum is not finite. */
export function twoSumError(a: number, b: number, sum: number): number {
  if (!Number.isFinite(sum)) return 0;
  const bv = sum - a;
  return a - (sum - bv) + (b - bv);
}

const [C3, C5, C7, C9, C11, C13, C15, C17, C19, C21, C23, C25, C27] = Array.from(
  { length: 13 },
  (_, k) => 1 / (2 * k + 3),
);

/**
 * 2·atanh(s) - 2s, over s² = z, for |s| <= 0.1716 (z <= 0.0295): 2s·(z/3 + z²/5 + ...).
 * Thirteen terms leave a truncation below 2^-100 of log m; this tail is about 1% of log m,
 * so its own rounding costs under 0.01 ulp of it.
 */
function atanhTail(s: number, z: number): number {
  const t =
    C3 +
    z *
      (C5 +
        z *
          (C7 +
            z *
              (C9 +
                z *
                  (C11 +
                    z * (C13 + z * (C15 + z * (C17 + z * (C19 + z * (C21 + z * (C23 + z * (C25 + z * C27)))))))))));
  return 2 * s * (t * z);
}

/**
 * log(x) for a finite x > 0, as hi + carried.lo. x = m·2^k with m in [√½, √2), and
 * log m = 2·atanh((m - 1)/(m + 1)), whose quotient is carried as a double-double.
 * Other x (0, negative, infinite, NaN) give Math.log(x) with lo = 0.
 */
export function logParts(x: number): number {
  if (!(x > 0 && x < Infinity)) {
    carried.lo = 0;
    return Math.log(x);
  }
  let k = 0;
  word[0] = x;
  if (bits[HIGH] < 0x00100000) {
    word[0] = x * TWO_54; // subnormal: scale into the normal range first
    k = -54;
  }
  k += (bits[HIGH] >>> 20) - 1023;
  bits[HIGH] = (bits[HIGH] & 0x000fffff) | 0x3ff00000;
  let m = word[0];
  if (m >= SQRT2) {
    m /= 2;
    k++;
  }
  // s = (m - 1)/(m + 1) as sHi + sLo: m - 1 is exact, m + 1 is carried as two parts.
  const num = m - 1;
  const den = m + 1;
  const denLo = twoSumError(m, 1, den);
  const sHi = num / den;
  const p = sHi * den;
  const sLo = (num - p - twoProductError(sHi, den, p) - sHi * denLo) / den;
  const logMHi = 2 * sHi;
  const logMLo = 2 * sLo + atanhTail(sHi, sHi * sHi);
  const whole = k * LN2_HI;
  const hi = whole + logMHi;
  const lo = twoSumError(whole, logMHi, hi) + logMLo + k * LN2_LO;
  const sum = hi + lo;
  carried.lo = lo - (sum - hi);
  return sum;
}

/** Below this |r|, log1p(r) is r - r²/2: the next term is under 2^-78 of r. */
const SMALL_RATIO = 2 ** -26;

/**
 * log(1 + x + xLo) for a correction xLo far below x, as hi + carried.lo: 1 + x is formed
 * as two parts y + yLo, and log(y + yLo) = log y + log1p(yLo/y), where yLo/y is not small
 * only when 1 + x cancels (x near -1). NaN below -1, -Infinity at -1 (x + xLo counted);
 * NaN, infinite and x < -1 give Math.log1p(x) with lo = 0.
 */
export function log1pParts(x: number, xLo = 0): number {
  if (!(x >= -1 && x < Infinity)) {
    carried.lo = 0;
    return Math.log1p(x);
  }
  const y = 1 + x;
  const yLo = twoSumError(1, x, y) + xLo;
  if (y === 1) {
    // |x| at most 2^-53: yLo is x + xLo, and log1p's next term -x²/2 is all that is left.
    carried.lo = -(yLo * yLo) / 2;
    return yLo;
  }
  if (y === 0) {
    // x = -1 exactly: the correction alone decides
    if (yLo > 0) return logParts(yLo);
    carried.lo = 0;
    return yLo === 0 ? -Infinity : NaN;
  }
  const hi = logParts(y);
  const r = yLo / y;
  const lo = carried.lo + (Math.abs(r) < SMALL_RATIO ? r - (r * r) / 2 : Math.log1p(r));
  const sum = hi + lo;
  carried.lo = lo - (sum - hi);
  return sum;
}
