/**
 * PowerTransformer's notice for a column too close to constant for any lambda to mean
 * much (docs/transforms.md#near-constant-columns). Lambda shapes ψ through λ·(L - mean L),
 * with L = sign(x)·log1p|x| (Yeo-Johnson) or log x (Box-Cox): where the values' L barely
 * varies, every moderate lambda gives the same standardized output to within about
 * |λ|·sd(L), and the likelihood's optimum is decided by the values' last digits (it can
 * lie where the powers over- or underflow float64). scikit-learn says nothing here.
 */
import type { EngineWarning } from "./types.js";

/**
 * A column is too close to constant when sd(L) over its non-NaN values is below this
 * (constant columns included): λ anywhere in [-100, 100] then moves a standardized value
 * within 3 standard deviations by less than about 1e-5.
 */
export const NEAR_CONSTANT_LOG_SD = 1e-8;

/**
 * Population standard deviation of L over the non-NaN values; NaN when there are none.
 * Taken from deviations against the first value r, log1p((x - r)/(s + r)) with s = 1 or 0
 * where x is within a factor of two of s + r: the logs of 1e16 + 2i round to one or two
 * doubles, their deviations do not.
 */
export function logSpread(col: Float64Array, method: "yeo-johnson" | "box-cox"): number {
  const shift = method === "box-cox" ? 0 : 1;
  const signedLog = (x: number) => (method === "box-cox" ? Math.log(x) : Math.sign(x) * Math.log1p(Math.abs(x)));
  const deviations: number[] = [];
  let reference = NaN;
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    if (x !== x) continue;
    if (reference !== reference) reference = x;
    const ratio = (Math.abs(x) - Math.abs(reference)) / (shift + Math.abs(reference));
    const sameSide = x >= 0 === reference >= 0;
    deviations.push(
      sameSide && Math.abs(ratio) <= 0.5
        ? Math.sign(reference || 1) * Math.log1p(ratio)
        : signedLog(x) - signedLog(reference),
    );
  }
  if (deviations.length === 0) return NaN;
  const mean = deviations.reduce((s, d) => s + d, 0) / deviations.length;
  return Math.sqrt(deviations.reduce((s, d) => s + (d - mean) ** 2, 0) / deviations.length);
}

/** The notice for column `column`, or null when its logs vary enough (or it has no value). */
export function nearConstantWarning({
  column,
  col,
  method,
  lambda,
}: {
  column: string;
  col: Float64Array;
  method: "yeo-johnson" | "box-cox";
  lambda: number;
}): EngineWarning | null {
  const sd = logSpread(col, method);
  if (!(sd < NEAR_CONSTANT_LOG_SD)) return null;
  const log = method === "box-cox" ? "log(x)" : "sign(x)·log1p(|x|)";
  const spread = sd === 0 ? "is constant" : `varies by a standard deviation of ${sd.toPrecision(2)} in ${log}`;
  return {
    code: "near_constant",
    column,
    message:
      `Column "${column}" ${spread} (below ${NEAR_CONSTANT_LOG_SD}), too close to constant for its lambda (${lambda}) to mean much: ` +
      `any lambda in [-100, 100] gives the same standardized output to within about 1e-5, the likelihood's optimum is set by the values' last digits, ` +
      `and the output without standardize, or the inner scaler's, may show only rounding. Drop the column or leave it out of feature_columns; scikit-learn 1.2.1 gives no warning here`,
  };
}

/**
 * The notice for a column whose likelihood optimum (`unreachable`, from the refinement) lies
 * where its transform is no longer data (every power rounds to one double, or overflows),
 * so that `lambda` is the search's, as scikit-learn's would be, and no closer to the
 * optimum than scikit-learn's. A near-constant column gets near_constant instead (null).
 */
export function unreachableOptimumNotice({
  column,
  values,
  method,
  lambda,
  unreachable,
}: {
  column: string;
  values: Float64Array;
  method: "yeo-johnson" | "box-cox";
  lambda: number;
  unreachable: number;
}): EngineWarning | null {
  if (logSpread(values, method) < NEAR_CONSTANT_LOG_SD) return null;
  return {
    code: "lambda_optimum_unreachable",
    column,
    message:
      `Column "${column}": the likelihood's optimum for lambda (about ${unreachable.toPrecision(4)}) lies where this column's ${method} transform is not representable in float64 (its values would differ only by rounding, or overflow), ` +
      `so lambda is where scikit-learn's search stops (${lambda}), not the optimum. The values sit far from 0 compared with their spread: subtract a constant (such as the column's minimum) first, and the optimum comes within reach. scikit-learn 1.2.1 gives no warning here`,
  };
}
