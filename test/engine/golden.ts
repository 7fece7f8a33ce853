/**
 * Reads the golden fixtures that test/fixtures/sklearn/generate.py wrote with
 * scikit-learn 1.2.1, and compares engine output with them cell by cell.
 *
 * Tolerance per cell: |actual - expected| <= rel * |expected| + abs, NaN only where
 * scikit-learn has NaN, infinities exactly. `rel` is 1e-9 (the contract); `abs` is a tiny
 * floor (1e-12 by default) for cells whose expected value is rounding noise around 0,
 * such as x - mean on a constant column, where a relative test has nothing to hold on to.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fittedState, type FittedStateJson } from "../../src/core/contract/job.js";
import type { PreprocessingType } from "../../src/core/contract/transform-types.js";

export type JsonNumber = number | "NaN" | "Infinity" | "-Infinity";

export interface GoldenCase {
  name: string;
  type: PreprocessingType;
  params: Record<string, unknown>;
  input: { names: string[]; columns: JsonNumber[][] };
  output: JsonNumber[][];
  fitted: Record<string, unknown>;
  /** inverse_transform of a probe (the output stretched past its range), where scikit-learn has one. */
  inverse?: { input: JsonNumber[][]; output: JsonNumber[][] };
  notes?: { arbitrary_lambda_columns?: number[] };
}

export interface ErrorCase {
  name: string;
  type: PreprocessingType;
  kind: "params" | "data";
  params: Record<string, unknown>;
  sklearn_error: string;
  input?: { names: string[]; columns: JsonNumber[][] };
  column?: string | null;
}

export interface Tolerance {
  rel: number;
  abs: number;
}

export const EXACT_TO_1E9: Tolerance = { rel: 1e-9, abs: 1e-12 };

const fixtureDir = fileURLToPath(new URL("../fixtures/sklearn/", import.meta.url));

/** The cases of one fixture file; generate.py writes them in the shapes declared above. */
function readCases(file: string): unknown[] {
  return (JSON.parse(readFileSync(fixtureDir + file, "utf8")) as { sklearn: string; cases: unknown[] }).cases;
}

export function loadCases(type: PreprocessingType): GoldenCase[] {
  return readCases(`${type}.json`) as GoldenCase[];
}

export function loadErrorCases(): ErrorCase[] {
  return readCases("errors.json") as ErrorCase[];
}

/** A fitted state after JSON.stringify and JSON.parse, as a client sends it back. */
export function viaJson(fitted: object): FittedStateJson {
  return fittedState.parse(JSON.parse(JSON.stringify(fitted)));
}

export function decodeNumber(x: unknown): number {
  if (x === "NaN" || x === null) return NaN;
  if (x === "Infinity") return Infinity;
  if (x === "-Infinity") return -Infinity;
  if (typeof x !== "number") throw new Error(`not a fixture number: ${JSON.stringify(x)}`);
  return x;
}

export function decodeColumn(values: readonly unknown[]): Float64Array {
  return Float64Array.from(values, decodeNumber);
}

export function featuresOf(c: { input: { names: string[]; columns: JsonNumber[][] } }) {
  return { names: c.input.names, columns: c.input.columns.map(decodeColumn) };
}

/** Describes every cell outside the tolerance (at most `limit` of them); [] when all match. */
export function mismatches(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  tol: Tolerance,
  label: string,
  limit = 5,
): string[] {
  if (actual.length !== expected.length) return [`${label}: length ${actual.length}, expected ${expected.length}`];
  const out: string[] = [];
  for (let i = 0; i < expected.length && out.length < limit; i++) {
    const a = actual[i];
    const e = expected[i];
    if (!cellMatches(a, e, tol)) out.push(`${label}[${i}]: got ${a}, expected ${e} (diff ${Math.abs(a - e)})`);
  }
  return out;
}

export function cellMatches(a: number, e: number, tol: Tolerance): boolean {
  if (Number.isNaN(e)) return Number.isNaN(a);
  if (!Number.isFinite(e)) return a === e;
  return Math.abs(a - e) <= tol.rel * Math.abs(e) + tol.abs;
}

/** Compares one fitted attribute: arrays per column (nested for quantiles_), ints exactly. */
export function fittedMismatches(
  actual: unknown,
  expected: unknown,
  tol: Tolerance,
  label: string,
  skipColumns: readonly number[] = [],
): string[] {
  if (expected === null) return actual === null ? [] : [`${label}: expected null, got ${JSON.stringify(actual)}`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${label}: expected an array, got ${JSON.stringify(actual)}`];
    if (expected.length > 0 && Array.isArray(expected[0])) {
      return expected.flatMap((row, i) =>
        skipColumns.includes(i) ? [] : fittedMismatches(actual[i], row, tol, `${label}[${i}]`),
      );
    }
    if (actual.length !== expected.length) return [`${label}: length ${actual.length}, expected ${expected.length}`];
    const keep = (_: unknown, i: number) => !skipColumns.includes(i);
    return mismatches(actual.filter(keep).map(decodeNumber), expected.filter(keep).map(decodeNumber), tol, label);
  }
  return actual === expected ? [] : [`${label}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`];
}

/**
 * Runs fitTransform on a golden case and lists every output cell and fitted attribute
 * outside the tolerance. `skip` names attributes and feature columns not compared (the
 * callers say why).
 */
export function goldenProblems(
  c: GoldenCase,
  fitTransform: (
    type: PreprocessingType,
    params: Record<string, unknown>,
    features: ReturnType<typeof featuresOf>,
  ) => {
    columns: Float64Array[];
    fitted: object;
  },
  tol: Tolerance,
  skip: { fitted?: string[]; columns?: number[] } = {},
): string[] {
  const { columns, fitted } = fitTransform(c.type, c.params, featuresOf(c));
  const problems: string[] = [];
  if (columns.length !== c.output.length)
    problems.push(`${columns.length} output columns, expected ${c.output.length}`);
  c.output.forEach((expected, j) => {
    if (skip.columns?.includes(j)) return;
    problems.push(...mismatches(columns[j] ?? new Float64Array(), decodeColumn(expected), tol, `output[${j}]`));
  });
  const actual = fitted as Record<string, unknown>;
  for (const [key, value] of Object.entries(c.fitted)) {
    if (skip.fitted?.includes(key)) continue;
    problems.push(...fittedMismatches(actual[key], value, tol, key, skip.columns));
  }
  if (JSON.stringify(actual.feature_names_in_) !== JSON.stringify(c.input.names)) {
    problems.push(`feature_names_in_ ${JSON.stringify(actual.feature_names_in_)}`);
  }
  if (actual.n_features_in_ !== c.input.names.length) problems.push(`n_features_in_ ${String(actual.n_features_in_)}`);
  return problems;
}
