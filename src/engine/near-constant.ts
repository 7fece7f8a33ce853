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

/** Population standard deviation of L over the non-NaN values; NaN when there are none. */
export function logSpread(col: Float64Array, method: "yeo-johnson" | "box-cox"): number {
  const logs: number[] = [];
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    if (x !== x) continue;
    logs.push(method === "box-cox" ? Math.log(x) : Math.sign(x) * Math.log1p(Math.abs(x)));
  }
  if (logs.length === 0) return NaN;
  const mean = logs.reduce((s, l) => s + l, 0) / logs.length;
  return Math.sqrt(logs.reduce((s, l) => s + (l - mean) ** 2, 0) / logs.length);
}

/** The notice for column `column`, or null when its logs vary enough (or it has no value). */
export function nearConstantWarning(
  column: string,
  col: Float64Array,
  method: "yeo-johnson" | "box-cox",
  lambda: number,
): EngineWarning | null {
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
