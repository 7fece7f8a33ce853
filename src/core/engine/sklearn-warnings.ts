/**
 * The warnings scikit-learn 1.2.1 gives on the same data and parameters, worked out
 * from the fitted state (and, for one case, the output) after a fit, and mdps's own
 * notices where scikit-learn says nothing (near-constant.ts): the engine stays pure and
 * returns them; the service logs them and puts them in the job result.
 * docs/warnings.md lists every case; test/fixtures/sklearn-warnings/ holds
 * scikit-learn's own text for each.
 */
import type { Params } from "../contract/params.js";
import { quantilesCapped } from "../contract/quantile-rule.js";
import type { PreprocessingType } from "../contract/transform-types.js";
import { decodeArray, type FittedNumber } from "./fitted-number.js";
import type { EngineFitted } from "./fitted-state.js";
import { nearConstantWarning } from "./near-constant.js";
import type { EngineWarning, FeatureMatrix } from "./types.js";

/** sqrt(Number.MAX_VALUE): a value whose square overflows float64. */
const SQUARE_LIMIT = 1.3407807929942596e154;
const EPS = 2.220446049250313e-16;

/** What scikit-learn 1.2.1 says (numpy's RuntimeWarnings) when a feature column holds no value at all. */
const ALL_MISSING_TEXT: Partial<Record<PreprocessingType, readonly string[]>> = {
  MaxAbsScaler: ["All-NaN slice encountered"],
  MinMaxScaler: ["All-NaN slice encountered"],
  PowerTransformer: ["Degrees of freedom <= 0 for slice", "invalid value encountered in divide"],
  QuantileTransformer: ["All-NaN slice encountered"],
  RobustScaler: ["All-NaN slice encountered"],
  StandardScaler: ["invalid value encountered in divide"],
};

/**
 * scikit-learn 1.2.1's warnings for a fit of `type` with `params` on `features` that
 * produced `fitted` and `output`, in scikit-learn's order: parameter warnings first,
 * then per column.
 *
 * @example
 * sklearnWarnings("QuantileTransformer", { ...params, n_quantiles: 1000 }, features134Rows, fitted, out)
 * // [{ code: "n_quantiles_capped", column: null, message: "n_quantiles (1000) is greater than ... (134) ..." }]
 */
export function sklearnWarnings(
  params: Params<PreprocessingType>,
  features: FeatureMatrix,
  fitted: EngineFitted,
  output: readonly Float64Array[],
): EngineWarning[] {
  const warnings: EngineWarning[] = [];
  const rows = features.columns[0].length;
  if (fitted.type === "QuantileTransformer") {
    const p = params as Params<"QuantileTransformer">;
    if (p.ignore_implicit_zeros) {
      warnings.push({
        code: "ignore_implicit_zeros",
        column: null,
        message: quoting(
          "ignore_implicit_zeros has no effect here: it applies only to sparse matrices, and mdps's data is dense",
          ["'ignore_implicit_zeros' takes effect only with sparse matrix. This parameter has no effect."],
        ),
      });
    }
    const capped = quantilesCapped(p.n_quantiles, rows);
    if (capped)
      warnings.push({ code: capped.code, column: null, message: quoting(capped.explanation, [capped.sklearnText]) });
  }
  const missingText = ALL_MISSING_TEXT[fitted.type];
  features.columns.forEach((col, c) => {
    const column = features.names[c];
    if (missingText && hasNoValue(col)) {
      if (computesStatistics(fitted)) {
        warnings.push({
          code: "all_missing_column",
          column,
          message: quoting(
            `Column "${column}" holds no value (every cell is missing), so its fitted statistics are NaN and its output stays missing: drop the column or fill it`,
            missingText,
          ),
        });
      }
      return;
    }
    const overflow = overflowText(fitted, c, output[c]);
    const nearConstant =
      fitted.type === "PowerTransformer"
        ? nearConstantWarning({ column, col, method: fitted.params.method, lambda: at(fitted.lambdas_, c) })
        : null;
    if (overflow) {
      warnings.push({
        code: "overflow",
        column,
        message: quoting(
          `Column "${column}" has values so large that a computation passed float64's range (about 1.8e308), so its output may hold infinities or NaN: rescale the column (divide it by a power of ten) first`,
          overflow,
        ),
      });
    }
    if (nearConstant) warnings.push(nearConstant);
  });
  return warnings;
}

function quoting(explanation: string, texts: readonly string[]): string {
  return `${explanation}. scikit-learn 1.2.1 warns: ${texts.map((t) => JSON.stringify(t)).join("; ")}`;
}

/** True when no cell is a number. Stops at the first value, so a usual column costs one read. */
function hasNoValue(col: Float64Array): boolean {
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    if (x === x) return false;
  }
  return true;
}

/** Whether scikit-learn computes per-column statistics (and so warns on an empty column). */
function computesStatistics(fitted: EngineFitted): boolean {
  switch (fitted.type) {
    case "RobustScaler":
      return fitted.params.with_centering || fitted.params.with_scaling;
    case "StandardScaler":
      return fitted.params.with_mean || fitted.params.with_std;
    default:
      return true;
  }
}

function at(values: readonly FittedNumber[] | null, c: number): number {
  const v = values?.[c];
  return v === undefined || v === null ? NaN : typeof v === "number" ? v : v === "Infinity" ? Infinity : -Infinity;
}

/** numpy's overflow RuntimeWarnings that scikit-learn lets through for column `c`, or null. */
function overflowText(fitted: EngineFitted, c: number, output: Float64Array | undefined): string[] | null {
  switch (fitted.type) {
    case "MinMaxScaler":
      return Number.isFinite(at(fitted.data_max_, c) - at(fitted.data_min_, c))
        ? null
        : ["overflow encountered in subtract"];
    case "StandardScaler": {
      const mean = at(fitted.mean_, c);
      if (fitted.mean_ === null) return null;
      // The column sum overflowed; the deviations from an infinite mean are then NaN.
      if (!Number.isFinite(mean)) return ["overflow encountered in reduce", "invalid value encountered in subtract"];
      if (fitted.var_ === null) return null;
      const count = fitted.n_samples_seen_[c];
      // The squared deviations, or _is_constant_feature's bound (n·mean·eps)², overflowed.
      const varOverflow = !Number.isFinite(at(fitted.var_, c));
      const boundOverflow = Math.abs(count * mean * EPS) > SQUARE_LIMIT;
      return varOverflow || boundOverflow ? ["overflow encountered in square"] : null;
    }
    case "QuantileTransformer": {
      const values = decodeArray(fitted.quantiles_[c]);
      if (values.every((x) => Number.isFinite(x))) return null;
      // numpy's interpolation takes the difference of neighbouring order statistics; times 0 it is NaN.
      return values.some((x) => x !== x)
        ? ["overflow encountered in subtract", "invalid value encountered in multiply"]
        : ["overflow encountered in subtract"];
    }
    case "PowerTransformer": {
      if (fitted.mean_ !== null) {
        return Number.isFinite(at(fitted.mean_, c)) && Number.isFinite(at(fitted.scale_, c))
          ? null
          : ["overflow encountered in power"];
      }
      // Values this large come from a power that overflowed for some lambda of the search;
      // squaring them for the variance overflows again.
      return output && powerOutputOverflows(output)
        ? ["overflow encountered in power", "overflow encountered in multiply"]
        : null;
    }
    default:
      return null;
  }
}

/** A transformed value that is infinite, or whose square (for the variance) is. */
function powerOutputOverflows(col: Float64Array): boolean {
  for (let i = 0; i < col.length; i++) {
    const y = col[i];
    if (Math.abs(y) > SQUARE_LIMIT) return true;
  }
  return false;
}
