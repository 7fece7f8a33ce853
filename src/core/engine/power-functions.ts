/**
 * The objectives scikit-learn minimises to pick lambda (docs/transforms.md#lambda-objective),
 * for the search that follows scipy's Brent step for step. Here pow(y, a) is exp(a·log y):
 * five times faster in V8 than pow, and log y is computed once per column, not once per
 * evaluation. Its rounding only moves where the search stops, which the refinement
 * (lambda-refine.ts) then corrects; the transform itself is power-columns.ts.
 */
import { DATA_START, evenLength, PrivateKernels } from "./simd/wasm-kernels.js";

const EPS = 2.220446049250313e-16;
const TINY = 2.2250738585072014e-308;

/**
 * scikit-learn's Yeo-Johnson negative log-likelihood for the non-NaN values `x`, with its
 * working copies in `scratch` (valid until the next objective made on the same scratch):
 * (m/2)·log var(ψ(x, λ)) - (λ-1)·Σ sign(x)·log1p|x|, +Infinity when the variance underflows.
 * The values are split by sign once, and the log of each power's base is taken once; each
 * evaluation is then two SIMD passes (simd/kernels.wat: exp bit for bit Math.exp's, and
 * the squared deviations), which halve PowerTransformer's time against the same loops in
 * JavaScript.
 */
export function yeoJohnsonObjective(x: Float64Array, scratch = new PrivateKernels()): (lambda: number) => number {
  const m = x.length;
  let positives = 0;
  for (let i = 0; i < m; i++) if (x[i] >= 0) positives++;
  const pos = new Float64Array(positives);
  const neg = new Float64Array(m - positives);
  let p = 0;
  let q = 0;
  let signedLogSum = 0;
  for (let i = 0; i < m; i++) {
    const v = x[i];
    if (v >= 0) pos[p++] = v;
    else neg[q++] = v;
    signedLogSum += Math.sign(v) * Math.log1p(Math.abs(v));
  }
  // In the kernels' memory: log(x+1) of the positives, log(1-x) of the negatives, then ψ.
  const { kernels, heap } = scratch.withRoom(2 * evenLength(m) * 8);
  const posLogs = DATA_START;
  const negLogs = posLogs + positives * 8;
  const psi = DATA_START + evenLength(m) * 8;
  const psiNeg = psi + positives * 8;
  for (let i = 0; i < positives; i++) heap[posLogs / 8 + i] = Math.log(pos[i] + 1);
  for (let i = 0; i < neg.length; i++) heap[negLogs / 8 + i] = Math.log(-neg[i] + 1);
  return (lambda) => {
    let sum = 0;
    if (Math.abs(lambda) < EPS) {
      for (let i = 0; i < positives; i++) sum += heap[psi / 8 + i] = Math.log1p(pos[i]);
    } else {
      sum += kernels.exp_affine_sum(posLogs, positives, lambda, 1, lambda, psi);
    }
    const b = 2 - lambda;
    if (Math.abs(lambda - 2) > EPS) {
      // -(e - 1) / b, written (e - 1) / -b: the same double
      sum += kernels.exp_affine_sum(negLogs, neg.length, b, 1, -b, psiNeg);
    } else {
      for (let i = 0; i < neg.length; i++) sum += heap[psiNeg / 8 + i] = -Math.log1p(-neg[i]);
    }
    const varPsi = kernels.squared_deviation_sum(psi, m, sum / m) / m;
    if (varPsi < TINY) return Infinity;
    return -((-m / 2) * Math.log(varPsi) + (lambda - 1) * signedLogSum);
  };
}

/**
 * scipy.stats.boxcox_llf negated, for positive non-NaN `x` (working copies in `scratch`, as above):
 * -[(λ-1)·Σ log x - (N/2)·log var(x^λ / λ)], with var(log x) at λ = 0.
 */
export function boxCoxObjective(x: Float64Array, scratch = new PrivateKernels()): (lambda: number) => number {
  const n = x.length;
  // In the kernels' memory: log x, then x^λ / λ.
  const { kernels, heap } = scratch.withRoom(2 * evenLength(n) * 8);
  const logs = DATA_START;
  const powered = DATA_START + evenLength(n) * 8;
  let logSum = 0;
  for (let i = 0; i < n; i++) logSum += heap[logs / 8 + i] = Math.log(x[i]);
  return (lambda) => {
    let varTransformed: number;
    if (lambda === 0) {
      varTransformed = kernels.squared_deviation_sum(logs, n, logSum / n) / n;
    } else {
      const sum = kernels.exp_affine_sum(logs, n, lambda, 0, lambda, powered);
      varTransformed = kernels.squared_deviation_sum(powered, n, sum / n) / n;
    }
    return -((lambda - 1) * logSum - (n / 2) * Math.log(varTransformed));
  };
}
