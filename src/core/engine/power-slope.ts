/**
 * The slope d/dλ of scikit-learn's two lambda objectives (power-functions.ts), computed so
 * that its root can be found to the precision of float64 (docs/transforms.md#precision-of-lambda).
 *
 * Both objectives have the form (m/2)·log var(ψ(λ)) - (λ - 1)·S over the m non-NaN values:
 * Box-Cox with ψ = (x^λ - 1)/λ and S = Σ log x (scipy's x^λ/λ differs by a constant, which
 * does not change the variance), Yeo-Johnson with its ψ and S = Σ sign(x)·log1p|x|. The slope
 * is m·cov(ψ, ∂ψ/∂λ)/var(ψ) - S. Near the minimum the objective's value is two large terms
 * cancelling, so its rounding noise hides the minimum over ~1e-7 of λ; the slope has no such
 * cancellation at its root. Every ψ is a branch c·ψ₀ with ψ₀ = expm1(c·L)/c: Box-Cox and
 * Yeo-Johnson's x >= 0 with c = λ and L = log x or log1p(x), Yeo-Johnson's x < 0 negated,
 * with c = 2 - λ and L = log1p(-x). In that form nothing is singular at λ = 0 (ψ₀ → L), so
 * the same code holds at λ near 0 and exactly 0. The rounding of c·L is carried by a
 * two-product into exp, sums are compensated (Neumaier), and ∂ψ₀/∂c = L²·g'(c·L) with
 * g(u) = expm1(u)/u is taken from its series where the closed form would cancel.
 *
 * Two more steps keep the slope exact on columns that are nearly constant (1e5 ± 1, or
 * 5.0 nineteen times and 5.000000001), where both of its terms are about m·L and their
 * difference is of the order of m·sd(L): the logs are taken as deviations from a
 * reference value computed from the values themselves (log1p((x - r)/(1 + r)), not as a
 * difference of two rounded logs), and the slope is evaluated in the form
 * m·cov(ψ, ∂ψ/∂λ - R·ψ)/var(ψ) - Σ(L - R), the same for any constant R, with R the
 * reference log of the first branch: there its terms cancel before any rounding.
 */

const SPLIT = 134217729; // 2^27 + 1, Dekker's splitting constant

/** Where |c·L| is below this, ψ₀ and its derivative come from their series. */
const SERIES_LIMIT = 0.5;
/**
 * Where |(v - r)/(s + r)| is at most this, d comes from log1p of that ratio (whose
 * numerator is exact), not from the difference of two rounded logs.
 */
const NEAR_REFERENCE = 1 / 64;
/** Terms up to u^15: the next ones are below 1e-17 of the sum for |u| < 0.5. */
const SERIES_TERMS = 16;

function neumaierSum(values: Float64Array): number {
  let sum = 0;
  let c = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const t = sum + v;
    c += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + c;
}

function splitHigh(a: number): number {
  const t = SPLIT * a;
  return t - (t - a);
}

/**
 * One branch of ψ: sign·ψ₀(c, L) over its values, with the logs kept as d = L - R
 * around a reference log R near their mean, because ψ₀(c, L) = ψ₀(c, R) + e^{cR}·expm1(c·d)/c:
 * far from λ = 0 the values of ψ share a large constant (1/|λ| when x^λ is small) and
 * differ in its last digits, and taking that constant out before the deviations are
 * formed is what keeps var(ψ) and the covariance accurate.
 */
interface Branch {
  center: number;
  deviations: Float64Array;
  deviationHi: Float64Array;
  sign: 1 | -1;
}

/**
 * The branch of the magnitudes `values` (> 0 for Box-Cox, >= 0 with `log1p`): R is the
 * log of r = e^{mean log} (minus 1 with log1p), and each d = log((s + v)/(s + r)) with
 * s = 0 or 1, as log1p((v - r)/(s + r)) where |v - r| is at most (s + r)/64 (the difference is then
 * exact), and as the difference of the rounded logs elsewhere.
 */
function branch(values: Float64Array, sign: 1 | -1, log1p: boolean): Branch {
  const n = values.length;
  const logs = new Float64Array(n);
  for (let i = 0; i < n; i++) logs[i] = log1p ? Math.log1p(values[i]) : Math.log(values[i]);
  const meanLog = n === 0 ? 0 : neumaierSum(logs) / n;
  const reference = log1p ? Math.expm1(meanLog) : Math.exp(meanLog);
  const base = log1p ? 1 + reference : reference;
  const center = log1p ? Math.log1p(reference) : Math.log(reference);
  const deviations = new Float64Array(n);
  const deviationHi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    const ratio = (v - reference) / base;
    // Farther from r, |d| > 1/65 and the rounded logs' ulps are small next to it.
    deviations[i] = Math.abs(ratio) <= NEAR_REFERENCE ? Math.log1p(ratio) : logs[i] - center;
  }
  // r is a double, so its log can sit many deviations away from the logs' mean (1e16 + 2i:
  // about 8 of them); centring the deviations removes that offset, which both terms of
  // the slope carry and would otherwise leave as rounding in their difference. It moves
  // all of the branch's logs by under an ulp of R, which leaves a lone branch's optimum
  // unchanged (the likelihood does not see a common shift of the logs).
  const offset = n === 0 ? 0 : neumaierSum(deviations) / n;
  for (let i = 0; i < n; i++) {
    deviations[i] -= offset;
    deviationHi[i] = splitHigh(deviations[i]);
  }
  return { center, deviations, deviationHi, sign };
}

/** The series of g(u) = expm1(u)/u and of g'(u): Σ u^k/(k+1)! and Σ (k+1)·u^k/(k+2)!. */
const G_SERIES = new Float64Array(SERIES_TERMS);
const DG_SERIES = new Float64Array(SERIES_TERMS);
{
  let factorial = 1; // (k+1)!
  for (let k = 0; k < SERIES_TERMS; k++) {
    factorial *= k + 1;
    G_SERIES[k] = 1 / factorial;
    DG_SERIES[k] = (k + 1) / (factorial * (k + 2));
  }
}

/** ψ₀(c, d) = expm1(c·d)/c, with c·d = p + err (err its rounding error). */
function psi0(c: number, d: number, p: number, err: number): number {
  if (Math.abs(p) < SERIES_LIMIT) {
    const u = p + err;
    let g = 0;
    for (let k = SERIES_TERMS - 1; k >= 0; k--) g = g * u + G_SERIES[k];
    return d * g;
  }
  return (Math.expm1(p) + Math.exp(p) * err) / c;
}

/** ∂ψ₀/∂c at (c, d), given ψ₀'s value there. */
function psi0Slope(c: number, d: number, p: number, err: number, value: number): number {
  if (Math.abs(p) < SERIES_LIMIT) {
    const u = p + err;
    let dg = 0;
    for (let k = SERIES_TERMS - 1; k >= 0; k--) dg = dg * u + DG_SERIES[k];
    return d * d * dg;
  }
  return (d * Math.exp(p) * (1 + err) - value) / c;
}

/**
 * Writes ψ - base into psi and ∂ψ/∂λ - R·ψ (R = `reference`, up to a constant) into q
 * from `offset` on, for the branch's exponent c, both in units of e^unit (the ratio of
 * covariance to variance does not see the unit, and without it the squared deviations
 * of a column like 1e16 + 2i underflow at λ = -10); returns the branch's constants
 * (ψ and ∂ψ/∂λ at its reference log).
 */
function fillBranch(
  b: Branch,
  c: number,
  base: { value: number; slope: number } | null,
  out: { psi: Float64Array; q: Float64Array; offset: number; reference: number; unit: number },
): { value: number; slope: number } {
  const { center, deviations, deviationHi, sign } = b;
  const centerValue = psi0(c, center, c * center, 0);
  const constant = { value: sign * centerValue, slope: psi0Slope(c, center, c * center, 0, centerValue) };
  const { psi, q, offset, reference, unit } = out;
  const unitScale = Math.exp(-unit);
  const shiftValue = base === null ? 0 : (constant.value - base.value) * unitScale;
  const shiftSlope = base === null ? 0 : (constant.slope - base.slope) * unitScale;
  // ∂ψ/∂λ - R·ψ = (center - R·sign)·e^{cR}h + e^{cR}·∂h/∂c + constants: the first factor
  // is exactly 0 on the branch whose center is R.
  const crossFactor = center - reference * sign;
  const constantQ = shiftSlope - reference * shiftValue;
  const scale = Math.exp(c * center - unit);
  const cHi = splitHigh(c);
  const cLo = c - cHi;
  for (let i = 0; i < deviations.length; i++) {
    const d = deviations[i];
    const p = c * d;
    const dHi = deviationHi[i];
    const dLo = d - dHi;
    // exact c·d = p + err (Dekker's two-product)
    const err = cHi * dHi - p + cHi * dLo + cLo * dHi + cLo * dLo;
    const h = psi0(c, d, p, err);
    // ψ₀(c, L) - ψ₀(c, R) = e^{cR}·h, and its c-derivative R·e^{cR}·h + e^{cR}·∂h/∂c;
    // d(2 - λ)/dλ = -1 cancels the negative branch's sign: both are +∂ψ₀/∂c
    const deviation = scale * h;
    psi[offset + i] = sign * deviation + shiftValue;
    q[offset + i] = crossFactor * deviation + scale * psi0Slope(c, d, p, err, h) + constantQ;
  }
  return constant;
}

/** Returns λ ↦ d/dλ of the objective described at the top, for the given branches. */
function objectiveSlope(positive: Branch, negative: Branch): (lambda: number) => number {
  const m = positive.deviations.length + negative.deviations.length;
  const first = positive.deviations.length > 0 ? positive : negative;
  const second = first === positive ? negative : null;
  const reference = first.sign * first.center;
  // Σ(L - R) over the signed logs L = sign·(center + d)
  const offsets = new Float64Array(m);
  first.deviations.forEach((d, i) => (offsets[i] = first.sign * d));
  second?.deviations.forEach((d, i) => (offsets[first.deviations.length + i] = -(second.center + d) - reference));
  const logOffsetSum = neumaierSum(offsets);
  const psi = new Float64Array(m);
  const q = new Float64Array(m);
  const work = new Float64Array(m);
  return (lambda) => {
    const firstC = first === positive ? lambda : 2 - lambda;
    const unit = firstC * first.center;
    const base = fillBranch(first, firstC, null, { psi, q, offset: 0, reference, unit });
    if (second !== null) {
      fillBranch(second, 2 - lambda, base, { psi, q, offset: first.deviations.length, reference, unit });
    }
    const psiMean = neumaierSum(psi) / m;
    const qMean = neumaierSum(q) / m;
    for (let i = 0; i < m; i++) work[i] = (psi[i] - psiMean) ** 2;
    const variance = neumaierSum(work);
    for (let i = 0; i < m; i++) work[i] = (psi[i] - psiMean) * (q[i] - qMean);
    const covariance = neumaierSum(work);
    return (m * covariance) / variance - logOffsetSum;
  };
}

/** The slope of the Box-Cox objective (scipy's boxcox_llf negated) for positive non-NaN `x`. */
export function boxCoxObjectiveSlope(x: Float64Array): (lambda: number) => number {
  return objectiveSlope(branch(x, 1, false), branch(new Float64Array(0), -1, false));
}

/** The slope of scikit-learn's Yeo-Johnson negative log-likelihood for non-NaN `x`. */
export function yeoJohnsonObjectiveSlope(x: Float64Array): (lambda: number) => number {
  let positives = 0;
  for (let i = 0; i < x.length; i++) if (x[i] >= 0) positives++;
  const positiveValues = new Float64Array(positives);
  const negativeMagnitudes = new Float64Array(x.length - positives);
  let p = 0;
  let q = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (v >= 0) positiveValues[p++] = v;
    else negativeMagnitudes[q++] = -v;
  }
  return objectiveSlope(branch(positiveValues, 1, true), branch(negativeMagnitudes, -1, true));
}
