/**
 * Box-Cox lambda to the precision of float64 (issue 18). Brent's search on the objective
 * (what scipy and scikit-learn run) cannot place the minimum closer than ~1e-7 relative
 * when the transformed values reach 1e19-1e30: the objective is (λ-1)·Σ log x minus
 * (n/2)·log var, two terms of ~1e4 cancelling to ~1e2, so its values are quantized at
 * ~4e-12 while over 1e-7 of λ around the flat minimum it changes by less; and exp(λ·log x)
 * rounds λ·log x (~60) to ~1e-14, a noise different at every λ. The slope below carries
 * that product's rounding error (Dekker's two-product) into exp(p)·(1 + err), sums with
 * compensation (Neumaier), and has no cancellation at its root, so bisection on it finds
 * lambda within ~1e-14 of the exact optimum (test/fixtures/boxcox-precision).
 */
const SPLIT = 134217729; // 2^27 + 1

function neumaierSum(values: Float64Array, n: number): number {
  let sum = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    const t = sum + v;
    c += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + c;
}

/**
 * d/dλ of the Box-Cox objective (power-functions.ts, boxCoxObjective): -Σ log x + (n/2)·(d/dλ log var(x^λ) - 2/λ), with
 * d/dλ var(x^λ) = (2/n)·Σ (z - z̄)(z·log x - mean(z·log x)), z = x^λ. Near the minimum the
 * objective is two terms of ~1e4 cancelling to ~1e2, so its values are quantized far
 * above its curvature over 1e-7 of λ; its slope has no such cancellation at the root.
 */
export function boxCoxObjectiveSlope(x: Float64Array): (lambda: number) => number {
  const n = x.length;
  const logs = new Float64Array(n);
  const logHi = new Float64Array(n);
  const logLo = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const l = Math.log(x[i]);
    logs[i] = l;
    const t = SPLIT * l;
    logHi[i] = t - (t - l);
    logLo[i] = l - logHi[i];
  }
  const logSum = neumaierSum(logs, n);
  const z = new Float64Array(n);
  const zl = new Float64Array(n);
  const work = new Float64Array(n);
  return (lambda) => {
    const t = SPLIT * lambda;
    const aHi = t - (t - lambda);
    const aLo = lambda - aHi;
    for (let i = 0; i < n; i++) {
      const p = lambda * logs[i];
      const err = aHi * logHi[i] - p + aHi * logLo[i] + aLo * logHi[i] + aLo * logLo[i];
      z[i] = Math.exp(p) * (1 + err);
      zl[i] = z[i] * logs[i];
    }
    const zMean = neumaierSum(z, n) / n;
    const zlMean = neumaierSum(zl, n) / n;
    for (let i = 0; i < n; i++) work[i] = (z[i] - zMean) ** 2;
    const variance = neumaierSum(work, n) / n;
    for (let i = 0; i < n; i++) work[i] = (z[i] - zMean) * (zl[i] - zlMean);
    const varianceSlope = (2 * neumaierSum(work, n)) / n;
    return -logSum + (n / 2) * (varianceSlope / variance - 2 / lambda);
  };
}

/**
 * Refines the lambda scikit-learn's search found (Brent on the fast objective) to the
 * root of the objective's slope, by bisection within 1e-5 (relative) of it. Where the
 * slope does not change sign there, or is not finite (overflow), lambda is returned as
 * it was: the refinement only ever moves lambda by less than scipy's own slack.
 */
export function polishBoxCoxLambda(x: Float64Array, lambda: number): number {
  if (lambda === 0 || !Number.isFinite(lambda)) return lambda;
  const slope = boxCoxObjectiveSlope(x);
  const width = 1e-5 * Math.abs(lambda);
  let lo = lambda - width;
  let hi = lambda + width;
  let slopeLo = slope(lo);
  const slopeHi = slope(hi);
  if (!Number.isFinite(slopeLo) || !Number.isFinite(slopeHi) || !(slopeLo < 0 && slopeHi > 0)) return lambda;
  for (let i = 0; i < 60 && hi - lo > 4e-16 * Math.abs(lambda); i++) {
    const mid = 0.5 * (lo + hi);
    const s = slope(mid);
    if (!Number.isFinite(s)) return lambda;
    if (s < 0) {
      lo = mid;
      slopeLo = s;
    } else hi = mid;
  }
  return 0.5 * (lo + hi);
}
