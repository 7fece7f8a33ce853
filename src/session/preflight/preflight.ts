/**
 * Checks before the upload, shared by the Session, the REPL and notebooks: the
 * transform and its params, the feature columns (exist, numeric), the transform's data
 * rules (box-cox: strictly positive; Binarizer, Normalizer: no missing values; no
 * infinities), and a per-column report (dtype, missing, constant, id-like, min/max)
 * with the warnings the job would produce. The service keeps its own checks; these
 * only make a mistake cost nothing: nothing is sent when one fails.
 *
 * Cost: one pass over each numeric column of the Table that is about to be encoded for
 * upload (the Table exists anyway), never a second read of a file.
 */
import { didYouMean } from "../../core/contract/nearest-name.js";
import { checkParams, type ParamProblem } from "../../core/contract/param-issues.js";
import { quantilesCapped } from "../../core/contract/quantile-rule.js";
import { PREPROCESSING_TYPES, allowsMissing, type PreprocessingType } from "../../core/contract/transform-types.js";
import type { Column, Table } from "../../core/formats/table.js";
import { exactNumbers } from "../../core/formats/column-description.js";
import { booleanFeature } from "../../core/formats/boolean-feature.js";
import { columnDtype } from "../../core/formats/column-dtype.js";
import { firstNonNumber, numericButForNaWords, numericTextMessage } from "./numeric-text.js";
import { PreflightError, type PreflightProblem } from "./preflight-error.js";

export { PreflightError, type PreflightProblem } from "./preflight-error.js";

/** What a job would be asked to do: the same names as `session.preprocess`. */
export interface PreflightOptions {
  /** The transform (a PreprocessingType; any string is checked); without it only the columns are described. */
  readonly type?: string | undefined;
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  /** Feature columns; absent or empty: every numeric column. */
  readonly columns?: readonly string[] | undefined;
}

export interface ColumnReport {
  readonly name: string;
  /** pandas' names: `int64` (whole numbers, none missing), `float64`, `object` (text), `bool`. */
  readonly dtype: string;
  readonly missing: number;
  /** One distinct value (missing values aside). */
  readonly constant: boolean;
  /**
   * A row id more than a feature: unique increasing whole numbers, none missing, that
   * are consecutive (1, 2, 3...) or in a column named like an id (`id`, `user_id`,
   * `index`, `row`). Sorted data such as ages 20, 30, 40 is not id-like.
   */
  readonly idLike: boolean;
  readonly min: number | null;
  readonly max: number | null;
  /** The job would transform it. */
  readonly feature: boolean;
  /** What the job would warn about, or refuse, for this column. */
  readonly notes: readonly string[];
}

export interface PreflightWarning {
  readonly code: string;
  readonly message: string;
  readonly column: string | null;
}

export interface PreflightReport {
  readonly rows: number;
  readonly type: PreprocessingType | undefined;
  readonly features: readonly string[];
  readonly columns: readonly ColumnReport[];
  /** The job would run, but say this (scikit-learn's warnings, an id-like column transformed). */
  readonly warnings: readonly PreflightWarning[];
  /** The job would fail (or is invalid): each one is also a reason `assertPreflight` throws. */
  readonly problems: readonly PreflightProblem[];
}

/** Column names that say "row id". */
const ID_NAME = /(^|[_\s.-])(id|idx|index|row|key)$|^unnamed: 0$/i;

interface NumberStats {
  missing: number;
  infinite: number;
  firstMissingRow: number;
  min: number;
  max: number;
  integral: boolean;
  increasing: boolean;
}

/** One pass: missing, infinities, min/max, whole numbers, strictly increasing. */
function numberStats(values: Float64Array): NumberStats {
  let missing = 0;
  let infinite = 0;
  let firstMissingRow = 0;
  let min = Infinity;
  let max = -Infinity;
  let integral = true;
  let increasing = true;
  let previous = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x !== x) {
      if (missing++ === 0) firstMissingRow = i + 1;
      increasing = false;
      continue;
    }
    if (x === Infinity || x === -Infinity) infinite++;
    if (x < min) min = x;
    if (x > max) max = x;
    if (integral && Math.floor(x) !== x) integral = false;
    if (x <= previous) increasing = false;
    previous = x;
  }
  return { missing, infinite, firstMissingRow, min, max, integral, increasing };
}

function otherReport(column: Exclude<Column, { kind: "number" }>): ColumnReport {
  let missing = 0;
  let first: string | boolean | undefined;
  let constant = true;
  for (const v of column.values) {
    if (v === null) {
      missing++;
      continue;
    }
    if (first === undefined) first = v;
    else if (v !== first) constant = false;
  }
  return {
    name: column.name,
    dtype: columnDtype(column),
    missing,
    constant: constant && first !== undefined,
    idLike: false,
    min: null,
    max: null,
    feature: false,
    notes: [],
  };
}

function quantileWarning(params: Readonly<Record<string, unknown>>, rows: number): PreflightWarning | undefined {
  const n = typeof params["n_quantiles"] === "number" ? params["n_quantiles"] : 1000;
  const capped = quantilesCapped(n, rows);
  // The job's warning, in scikit-learn 1.2.1's words.
  return capped && { code: capped.code, message: capped.sklearnText, column: null };
}

/**
 * Describes `table` as the job `options` describe would see it; never throws.
 *
 * @example
 * const report = preflight(table, { type: "PowerTransformer", params: { method: "box-cox" } });
 * if (report.problems.length > 0) console.log(report.problems);
 */
export function preflight(table: Table, options: PreflightOptions = {}): PreflightReport {
  const paramProblems: ParamProblem[] =
    options.type === undefined ? [] : checkParams(options.type, options.params ?? {});
  const type = PREPROCESSING_TYPES.find((t) => t === options.type);
  const report = checkColumns(table, { type, params: options.params ?? {}, columns: options.columns ?? [] });
  return { ...report, problems: [...paramProblems, ...report.problems] };
}

/** What `checkColumns` needs of a job whose transform and params are already checked (a preprocess plan). */
export interface CheckedJob {
  readonly type: PreprocessingType | undefined;
  readonly params: Readonly<Record<string, unknown>>;
  readonly columns: readonly string[];
}

/** `preflight` but for the params, which the caller has checked: the columns and the data. */
export function checkColumns(table: Table, options: CheckedJob): PreflightReport {
  const problems: PreflightProblem[] = [];
  const warnings: PreflightWarning[] = [];
  const { type } = options;

  const names = table.columns.map((c) => c.name);
  const numericNames = table.columns.filter((c) => c.kind === "number").map((c) => c.name);
  const given = options.columns;
  const chosen = new Set<string>();
  for (const name of given) {
    const column = table.columns.find((c) => c.name === name);
    if (chosen.has(name)) {
      problems.push({ field: "columns", message: `column "${name}" is listed twice`, column: name });
    } else if (column === undefined) {
      problems.push({
        field: "columns",
        message:
          `there is no column "${name}"${didYouMean(name, names)}; ` +
          `the numeric columns are ${numericNames.map((n) => `"${n}"`).join(", ") || "none"}`,
        column: name,
      });
    } else if (column.kind === "string") {
      // Name the value that makes it text, not a number beside it.
      const exact = exactNumbers(column);
      const culprit = firstNonNumber(column) ?? exact?.decider;
      const sample = culprit?.value ?? column.values.find((v) => v !== null);
      const such = sample === undefined ? "" : ` such as ${JSON.stringify(sample)}`;
      const where = culprit ? ` (data row ${culprit.row})` : "";
      const pandas = numericButForNaWords(column)
        ? `, a missing value to pandas: read the file with readCsv from "mdps/danfo"`
        : "";
      const holds = exact?.holds ?? "text";
      const cast = exact === undefined ? "" : `; ${exact.cast}`;
      problems.push({
        field: "columns",
        message:
          `column "${name}" is not numeric: it holds ${holds}` +
          `${such}${where}${pandas}${cast}; the numeric columns are ${numericNames.map((n) => `"${n}"`).join(", ") || "none"}`,
        column: name,
      });
    }
    chosen.add(name);
  }
  // A named boolean column is a feature of 1s and 0s, as scikit-learn takes it.
  const featureNames = table.columns.filter((c) => c.kind !== "string").map((c) => c.name);
  const features = given.length > 0 ? featureNames.filter((n) => chosen.has(n)) : numericNames;
  if (given.length === 0 && numericNames.length === 0) {
    problems.push({
      field: "columns",
      message:
        "the data has no numeric column to transform (a column is numeric when every value is a number or missing)",
      column: null,
    });
  }
  const featureSet = new Set(features);
  const missingOk = type === undefined ? undefined : allowsMissing(type);
  const boxCox = type === "PowerTransformer" && options.params["method"] === "box-cox";

  const columns = table.columns.map((column): ColumnReport => {
    if (column.kind === "string" || (column.kind === "boolean" && !featureSet.has(column.name))) {
      const report = otherReport(column);
      const found = numericButForNaWords(column);
      if (found === undefined) return report;
      const message = numericTextMessage(column.name, found, given.length === 0);
      warnings.push({ code: "numeric_text_column", message, column: column.name });
      return { ...report, notes: [`numbers but for ${found.words.map((w) => JSON.stringify(w)).join(", ")}`] };
    }
    const values = column.kind === "boolean" ? booleanFeature(column.values) : column.values;
    const s = numberStats(values);
    const count = values.length - s.missing;
    const feature = featureSet.has(column.name);
    const n = values.length;
    const idLike =
      s.missing === 0 && s.integral && s.increasing && n >= 3 && (s.max - s.min === n - 1 || ID_NAME.test(column.name));
    const notes: string[] = [];
    if (feature && idLike && given.length === 0) {
      const message =
        `column "${column.name}" looks like a row id (unique increasing whole numbers) and would be transformed, ` +
        `because no columns were given; pass columns to leave it out`;
      warnings.push({ code: "id_like_column_transformed", message, column: column.name });
      notes.push("id-like: would be transformed");
    }
    if (feature && type !== undefined) {
      if (s.infinite > 0) {
        const message = `column "${column.name}" holds ${s.infinite} infinite value${s.infinite === 1 ? "" : "s"}; scikit-learn refuses them (Input X contains infinity)`;
        problems.push({ field: "data", message, column: column.name });
        notes.push("infinite values: refused");
      }
      if (missingOk === false && s.missing > 0) {
        const message =
          `${type} refuses missing values, and column "${column.name}" has ${s.missing} ` +
          `(the first in data row ${s.firstMissingRow}); fill or drop them, or use a scaler that ignores them`;
        problems.push({ field: "data", message, column: column.name });
        notes.push("missing values: refused");
      }
      if (boxCox && count > 0 && s.min <= 0) {
        const message =
          `box-cox needs strictly positive data, and column "${column.name}" has minimum ${s.min}; ` +
          `use method yeo-johnson, or leave the column out`;
        problems.push({ field: "data", message, column: column.name });
        notes.push("not strictly positive: refused by box-cox");
      }
      if (s.missing > 0 && missingOk === true) notes.push("missing values stay missing");
      if (count > 0 && s.min === s.max) notes.push("constant");
    }
    return {
      name: column.name,
      dtype: columnDtype(column),
      missing: s.missing,
      constant: count > 0 && s.min === s.max,
      idLike,
      min: count > 0 ? s.min : null,
      max: count > 0 ? s.max : null,
      feature,
      notes,
    };
  });
  if (type === "QuantileTransformer" && features.length > 0) {
    const warning = quantileWarning(options.params, table.rowCount);
    if (warning) warnings.push(warning);
  }
  return { rows: table.rowCount, type, features, columns, warnings, problems };
}

/** Throws a PreflightError naming every problem of the report; returns it otherwise. */
export function assertPreflight(report: PreflightReport): PreflightReport {
  if (report.problems.length > 0) throw new PreflightError(report.problems);
  return report;
}

/** The report's table: its column titles and one row of text cells per column checked. */
export const PREFLIGHT_HEADER = ["column", "dtype", "missing", "constant", "id-like", "min", "max", "feature", "notes"];

export function preflightRows(report: PreflightReport): string[][] {
  return report.columns.map((c) => [
    c.name,
    c.dtype,
    String(c.missing),
    c.constant ? "yes" : "",
    c.idLike ? "yes" : "",
    c.min === null ? "" : String(c.min),
    c.max === null ? "" : String(c.max),
    c.feature ? "yes" : "",
    c.notes.join("; "),
  ]);
}

/** The report as a plain-text table (the REPL and `console.log`). */
export function formatPreflight(report: PreflightReport): string {
  const header = PREFLIGHT_HEADER;
  const rows = preflightRows(report);
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, k) => cell.padEnd(widths[k] as number))
      .join("  ")
      .trimEnd();
  const out = [`${report.rows} rows${report.type ? `, ${report.type}` : ""}`, line(header), ...rows.map(line)];
  for (const w of report.warnings) out.push(`warning: ${w.message}`);
  for (const p of report.problems) out.push(`problem: ${p.message}`);
  return out.join("\n");
}
