/**
 * PowerTransformer (docs/transforms.md#powertransformer): per column, lambda by scipy's
 * bracket + Brent on scikit-learn's objective over the non-NaN values, then the power
 * transform of every value, then (standardize) a fresh StandardScaler.
 */
import type { Params } from "../contract/params.js";
import { refineLambda } from "./lambda-refine.js";
import { boxCoxObjectiveSlope, yeoJohnsonObjectiveSlope } from "./power-slope.js";
import { BracketError, brentMinimize } from "./brent.js";
import { EngineError } from "./engine-error.js";
import { encodeArray, fittedColumns } from "./fitted-number.js";
import type { PowerTransformerFitted } from "./fitted-state.js";
import { boxCoxObjective, yeoJohnsonObjective } from "./power-functions.js";
import { boxCoxColumn, boxCoxInverseColumn, yeoJohnsonColumn, yeoJohnsonInverseColumn } from "./power-columns.js";
import { copyNonNaN } from "./percentile.js";
import { centerAndScaleColumns, scaleThenShiftColumns, type AffineSteps } from "./column-kernels.js";
import { columnMoments, isConstantFeature, scaleFromVariance } from "./standard-scaler.js";
import { PrivateKernels } from "./simd/wasm-kernels.js";
import type { EngineWarning, FeatureMatrix, ProgressListener } from "./types.js";
import { unreachableOptimumNotice } from "./near-constant.js";
import { mapColumns } from "./column-alloc.js";

type Method = Params<"PowerTransformer">["method"];

export function fitTransformPowerTransformer(
  params: Params<"PowerTransformer">,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
): { columns: Float64Array[]; fitted: PowerTransformerFitted; notices: EngineWarning[] } {
  const { columns, names } = features;
  const width = columns.length;
  const boxCox = params.method === "box-cox";
  const notices: EngineWarning[] = [];
  if (boxCox) checkPositive(columns, names);
  const scratch = new Float64Array(columns[0].length);
  // One WebAssembly memory for every column's objective, each used after the one before.
  const objectiveScratch = new PrivateKernels();
  const lambdas = new Float64Array(width);
  for (let c = 0; c < width; c++) {
    const m = copyNonNaN(columns[c], scratch);
    const values = scratch.slice(0, m);
    if (boxCox) checkBoxCoxColumn(values, names[c]);
    const objective = boxCox
      ? boxCoxObjective(values, objectiveScratch)
      : yeoJohnsonObjective(values, objectiveScratch);
    try {
      const searched = brentMinimize(objective, -2, 2);
      const { lambda, unreachable } = fitLambda(params.method, values, searched);
      lambdas[c] = lambda;
      if (unreachable !== null) {
        const notice = unreachableOptimumNotice({
          column: names[c],
          values,
          method: params.method,
          lambda,
          unreachable,
        });
        if (notice) notices.push(notice);
      }
    } catch (error) {
      if (!(error instanceof BracketError)) throw error;
      throw new EngineError(
        `The ${params.method} lambda search for column "${names[c]}" did not find a minimum (scipy's bracket gave up after 1000 steps): check the column's values, or choose another transform.`,
        { column: names[c] },
      );
    }
    onProgress?.((0.95 * (c + 1)) / width);
  }
  const transformed = mapColumns(columns, (col, c, out) => powerColumn(params.method, col, lambdas[c], out));
  const fitted: PowerTransformerFitted = {
    type: "PowerTransformer",
    params,
    feature_names_in_: [...names],
    n_features_in_: width,
    lambdas_: encodeArray(lambdas),
    mean_: null,
    scale_: null,
  };
  if (!params.standardize) return { columns: transformed, fitted, notices };
  checkFinite(transformed, names, lambdas, params.method);
  const mean = new Float64Array(width);
  const scale = new Float64Array(width);
  transformed.forEach((col, c) => {
    const m = columnMoments(col, true, width === 1);
    mean[c] = m.mean;
    scale[c] = scaleFromVariance(m.variance, m.mean, m.count);
  });
  fitted.mean_ = encodeArray(mean);
  fitted.scale_ = encodeArray(scale);
  // Standardise from the encoded state, exactly as applyPowerTransformer will.
  return { columns: standardize(fitted, transformed), fitted, notices };
}

export function applyPowerTransformer(
  fitted: PowerTransformerFitted,
  columns: readonly Float64Array[],
): Float64Array[] {
  const { method } = fitted.params;
  const names = fitted.feature_names_in_;
  const lambdas = fittedColumns(fitted.lambdas_, fitted.n_features_in_, "lambdas_");
  if (method === "box-cox") checkPositive(columns, names);
  const transformed = mapColumns(columns, (col, c, out) => powerColumn(method, col, lambdas[c], out));
  if (!fitted.params.standardize) return transformed;
  checkFinite(transformed, names, lambdas, method);
  return standardize(fitted, transformed);
}

/**
 * inverse_transform: the inner StandardScaler's inverse (`X *= scale_; X += mean_`) when
 * standardize, then each column's inverse power with its lambda.
 */
export function invertPowerTransformer(
  fitted: PowerTransformerFitted,
  columns: readonly Float64Array[],
): Float64Array[] {
  const width = fitted.n_features_in_;
  const lambdas = fittedColumns(fitted.lambdas_, width, "lambdas_");
  const powered = fitted.params.standardize ? scaleThenShiftColumns(columns, innerScaler(fitted)) : columns;
  const inverse = fitted.params.method === "box-cox" ? boxCoxInverseColumn : yeoJohnsonInverseColumn;
  return mapColumns(powered, (col, c, out) => inverse(col, lambdas[c], out));
}

/**
 * scikit-learn's search result refined to the root of the objective's slope
 * (docs/transforms.md#precision-of-lambda). A constant column has no optimum (its variance
 * is 0 or rounding noise): its lambda stays whatever the search ended on, as in scikit-learn;
 * so does one whose refined lambda would leave no data in the transform.
 */
function fitLambda(
  method: Method,
  values: Float64Array,
  found: number,
): { lambda: number; unreachable: number | null } {
  if (values.length === 0 || values.every((v) => v === values[0])) return { lambda: found, unreachable: null };
  const slope = method === "box-cox" ? boxCoxObjectiveSlope(values) : yeoJohnsonObjectiveSlope(values);
  const refined = refineLambda(slope, found);
  const near = Math.abs(refined - found) <= NEAR_SEARCH * Math.max(1, Math.abs(found));
  if (near || transformHolds(method, values, refined)) return { lambda: refined, unreachable: null };
  return { lambda: found, unreachable: refined };
}

/**
 * A refined lambda this close to the search's (relative above 1) is taken as it is: on
 * ordinary columns the refinement moves lambda by 1e-10 to 1e-4.
 */
const NEAR_SEARCH = 1e-3;

/**
 * Whether ψ(values, λ) is still data: finite, and not constant by the inner scaler's own
 * test. A column close to constant can have its exact optimum where every power underflows
 * to the same double (1e9 + N(0, 1): about -3e6) or overflows; a lambda whose transform is
 * rounding is no use however close to the optimum, and there the search's is kept.
 */
function transformHolds(method: Method, values: Float64Array, lambda: number): boolean {
  const psi = powerColumn(method, values, lambda, new Float64Array(values.length));
  if (!psi.every((v) => Number.isFinite(v))) return false;
  const m = columnMoments(psi, true, true);
  return !isConstantFeature(m.variance, m.mean, m.count);
}

function powerColumn(method: Method, col: Float64Array, lambda: number, out: Float64Array): Float64Array {
  return method === "box-cox" ? boxCoxColumn(col, lambda, out) : yeoJohnsonColumn(col, lambda, out);
}

function standardize(fitted: PowerTransformerFitted, transformed: Float64Array[]): Float64Array[] {
  return centerAndScaleColumns(transformed, innerScaler(fitted));
}

/** The inner StandardScaler's mean_ (as the center) and scale_, per column. */
function innerScaler(fitted: PowerTransformerFitted): AffineSteps {
  const width = fitted.n_features_in_;
  return { center: fittedColumns(fitted.mean_, width, "mean_"), scale: fittedColumns(fitted.scale_, width, "scale_") };
}

/** scikit-learn checks nanmin over all feature columns <= 0 before fitting or transforming. */
function checkPositive(columns: readonly Float64Array[], names: readonly string[]): void {
  for (let c = 0; c < columns.length; c++) {
    const col = columns[c];
    for (let i = 0; i < col.length; i++) {
      if (col[i] <= 0) {
        throw new EngineError(
          `Column "${names[c]}" has the value ${col[i]} at row ${i + 1}; the box-cox method needs strictly positive data: use method "yeo-johnson", or shift the column above 0.`,
          { column: names[c], row: i },
        );
      }
    }
  }
}

function checkBoxCoxColumn(values: Float64Array, name: string): void {
  if (values.length === 0) {
    throw new EngineError(
      `Column "${name}" has no values (every row is missing); box-cox cannot be fitted on it: drop the column from feature_columns.`,
      { column: name },
    );
  }
  const first = values[0];
  if (values.every((v) => v === first)) {
    throw new EngineError(
      `Column "${name}" is constant (every value is ${first}); box-cox cannot be fitted on a constant column (scipy: "Data must not be constant"): drop the column or use method "yeo-johnson".`,
      { column: name },
    );
  }
}

/** scikit-learn's inner StandardScaler rejects the infinities a too-large lambda produces. */
function checkFinite(
  transformed: readonly Float64Array[],
  names: readonly string[],
  lambdas: Float64Array,
  method: Method,
): void {
  transformed.forEach((col, c) => {
    for (let i = 0; i < col.length; i++) {
      const y = col[i];
      if (y - y !== 0 && y === y) {
        throw new EngineError(
          `The ${method} transform of column "${names[c]}" overflows to infinity at row ${i + 1} (lambda = ${lambdas[c]}), which scikit-learn rejects too, because the values are far from 0 compared with their spread (like 1e5 ± 1): subtract a constant from the column first, or set standardize to false.`,
          { column: names[c], row: i },
        );
      }
    }
  });
}
