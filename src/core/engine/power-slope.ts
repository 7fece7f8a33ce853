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
 */
const SPLIT = 134217729; // 2^27 + 1, Dekker's splitting constant

/** Where |c·L| is below this, ψ₀ and its derivative come from their series. */
const SERIES_LIMIT = 0.5;
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
 * One branch of ψ: sign·ψ₀(c, L) over its values. The logs are kept as d = L - R around
 * their mean R, because ψ₀(c, L) = ψ₀(c, R) + e^{cR}·expm1(c·d)/c: far from λ = 0 the
 * values of ψ share a large constant (1/|λ| when x^λ is small) and differ in its last
 * digits, and taking that constant out before the deviations are formed is what keeps
 * var(ψ) and the covariance accurate.
 */
interface Branch {
  mean: number;
  deviations: Float64Array;
  deviationHi: Float64Array;
  sign: 1 | -1;
}

function branch(logs: Float64Array, sign: 1 | -1): Branch {
  const mean = logs.length === 0 ? 0 : neumaierSum(logs) / logs.length;
  const deviations = new Float64Array(logs.length);
  const deviationHi = new Float64Array(logs.length);
  for (let i = 0; i < logs.length; i++) {
    deviations[i] = logs[i] - mean;
    deviationHi[i] = splitHigh(deviations[i]);
  }
  return { mean, deviations, deviationHi, sign };
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
 * Writes ψ - base into psi and ∂ψ/∂λ - baseSlope into slope from `offset` on, for the
 * branch's exponent c; returns the branch's constants (ψ and ∂ψ/∂λ at its mean log).
 */
function fillBranch(
  b: Branch,
  c: number,
  base: { value: number; slope: number } | null,
  out: { psi: Float64Array; slope: Float64Array; offset: number },
): { value: number; slope: number } {
  const { mean, deviations, deviationHi, sign } = b;
  const centerValue = psi0(c, mean, c * mean, 0);
  const constant = { value: sign * centerValue, slope: psi0Slope(c, mean, c * mean, 0, centerValue) };
  const shiftValue = base === null ? 0 : constant.value - base.value;
  const shiftSlope = base === null ? 0 : constant.slope - base.slope;
  const { psi, slope, offset } = out;
  const scale = Math.exp(c * mean);
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
    // ψ₀(c, L) - ψ₀(c, R) = e^{cR}·h, and its c-derivative R·e^{cR}·h + e^{cR}·∂h/∂c
    const deviation = scale * h;
    psi[offset + i] = sign * deviation + shiftValue;
    // d(2 - λ)/dλ = -1 cancels the negative branch's sign: both are +∂ψ₀/∂c
    slope[offset + i] = mean * deviation + scale * psi0Slope(c, d, p, err, h) + shiftSlope;
  }
  return constant;
}

/** Returns λ ↦ d/dλ of the objective described at the top, for the given branches. */
function objectiveSlope(positive: Branch, negative: Branch, signedLogSum: number): (lambda: number) => number {
  const m = positive.deviations.length + negative.deviations.length;
  const psi = new Float64Array(m);
  const dPsi = new Float64Array(m);
  const work = new Float64Array(m);
  return (lambda) => {
    const first = positive.deviations.length > 0 ? positive : negative;
    const firstC = first === positive ? lambda : 2 - lambda;
    const base = fillBranch(first, firstC, null, { psi, slope: dPsi, offset: 0 });
    if (first === positive) {
      fillBranch(negative, 2 - lambda, base, { psi, slope: dPsi, offset: positive.deviations.length });
    }
    const psiMean = neumaierSum(psi) / m;
    const dPsiMean = neumaierSum(dPsi) / m;
    for (let i = 0; i < m; i++) work[i] = (psi[i] - psiMean) ** 2;
    const variance = neumaierSum(work);
    for (let i = 0; i < m; i++) work[i] = (psi[i] - psiMean) * (dPsi[i] - dPsiMean);
    const covariance = neumaierSum(work);
    return (m * covariance) / variance - signedLogSum;
  };
}

/** The slope of the Box-Cox objective (scipy's boxcox_llf negated) for positive non-NaN `x`. */
export function boxCoxObjectiveSlope(x: Float64Array): (lambda: number) => number {
  const logs = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) logs[i] = Math.log(x[i]);
  return objectiveSlope(branch(logs, 1), branch(new Float64Array(0), -1), neumaierSum(logs));
}

/** The slope of scikit-learn's Yeo-Johnson negative log-likelihood for non-NaN `x`. */
export function yeoJohnsonObjectiveSlope(x: Float64Array): (lambda: number) => number {
  let positives = 0;
  for (let i = 0; i < x.length; i++) if (x[i] >= 0) positives++;
  const positiveLogs = new Float64Array(positives);
  const negativeLogs = new Float64Array(x.length - positives);
  const signedLogs = new Float64Array(x.length);
  let p = 0;
  let q = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (v >= 0) signedLogs[i] = positiveLogs[p++] = Math.log1p(v);
    else signedLogs[i] = -(negativeLogs[q++] = Math.log1p(-v));
  }
  return objectiveSlope(branch(positiveLogs, 1), branch(negativeLogs, -1), neumaierSum(signedLogs));
}
