/**
 * The steps of a pipeline, checked before anything is uploaded: each step's transform
 * name and params (with "did you mean"), then, once the input is read, each step's
 * columns and data rules against what that step will see (../preflight/preflight.ts).
 *
 * What a later step sees is known only in part before the chain runs: its columns are
 * the input's (a job keeps every column, in order), a column no earlier step touched
 * holds the input's values, and a column an earlier step transformed keeps its missing
 * cells where they were (every transform keeps NaN as NaN) but its values are unknown.
 * So later steps are checked against a stand-in table with exactly that knowledge.
 */
import type { ParamsInput } from "../../core/contract/params.js";
import { checkParams, checkTransformName } from "../../core/contract/param-issues.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";
import type { Column, Table } from "../../core/formats/table.js";
import { PreflightError, type PreflightProblem } from "../preflight/preflight-error.js";
import { preflight, type PreflightWarning } from "../preflight/preflight.js";

/**
 * One step: a transform, its params (scikit-learn's, snake_case) and its feature
 * columns (default: every numeric column). The other columns pass through unchanged.
 */
export interface PipelineStep<T extends PreprocessingType = PreprocessingType> {
  readonly type: T;
  readonly params?: ParamsInput<T> | undefined;
  readonly columns?: readonly string[] | undefined;
}

/** Any step, with `params` typed per its own `type` (what `session.pipeline([...])` takes). */
export type AnyPipelineStep = { [T in PreprocessingType]: PipelineStep<T> }[PreprocessingType];

/** `a, b`, or `every numeric column`. */
export function describeColumns(columns: readonly string[] | undefined): string {
  return columns !== undefined && columns.length > 0 ? columns.join(", ") : "every numeric column";
}

/** `QuantileTransformer(c) n_quantiles=100`: the step as the REPL's /pipeline writes it. */
export function describeStep(step: {
  readonly type: string;
  readonly columns?: readonly string[] | undefined;
  readonly params?: Readonly<Record<string, unknown>> | undefined;
}): string {
  const params = Object.entries(step.params ?? {}).map(
    ([key, value]) =>
      ` ${key}=${Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : JSON.stringify(value)}`,
  );
  return `${step.type}(${describeColumns(step.columns)})${params.join("")}`;
}

/** The step's problems, each field prefixed `steps[i].` (i counts from 1, as the messages do). */
function prefixed(index: number, problems: readonly PreflightProblem[]): PreflightProblem[] {
  return problems.map((p) => ({
    ...p,
    field: `steps[${index + 1}].${p.field}`,
    message: `step ${index + 1}: ${p.message}`,
  }));
}

/** Throws a PreflightError naming every bad transform name or param of `steps`; nothing is read or sent. */
export function checkSteps(steps: readonly PipelineStep[]): void {
  const problems: PreflightProblem[] = [];
  const given: unknown = steps;
  if (!Array.isArray(given) || steps.length === 0) {
    throw new PreflightError([
      { field: "steps", message: 'a pipeline needs at least one step, e.g. [{ type: "StandardScaler" }]' },
    ]);
  }
  steps.forEach((step, i) => {
    const given: unknown = step.type;
    const typed = typeof given === "string" ? given : JSON.stringify(given);
    const type = checkTransformName(typed);
    if (typeof type !== "string") {
      problems.push(...prefixed(i, [type]));
      return;
    }
    problems.push(...prefixed(i, checkParams(type, step.params ?? {})));
    const columns: unknown = step.columns;
    if (columns !== undefined && !(Array.isArray(columns) && columns.every((c) => typeof c === "string"))) {
      problems.push(...prefixed(i, [{ field: "columns", message: "must be a list of column names" }]));
    } else if (Array.isArray(columns) && columns.length === 0) {
      // scikit-learn's ColumnTransformer reads [] as no columns; mdps would read it as all of them.
      problems.push(
        ...prefixed(i, [
          {
            field: "columns",
            message:
              "`columns` is empty: [] would select no column (as in scikit-learn's ColumnTransformer); " +
              "leave `columns` out to transform every numeric column, or name the columns",
          },
        ]),
      );
    }
  });
  if (problems.length > 0) throw new PreflightError(problems);
}

/**
 * Checks every step against the input `table` (columns exist and are numeric, the
 * transform's data rules on what can be known before the chain runs). Throws a
 * PreflightError naming the steps; returns the warnings the jobs would give.
 */
export function preflightSteps(table: Table, steps: readonly PipelineStep[]): PreflightWarning[] {
  const problems: PreflightProblem[] = [];
  const warnings: PreflightWarning[] = [];
  const touched = new Set<string>();
  steps.forEach((step, i) => {
    const seen = i === 0 ? table : standIn(table, touched);
    const report = preflight(seen, step);
    problems.push(...prefixed(i, report.problems));
    warnings.push(...report.warnings.map((w) => ({ ...w, message: `step ${i + 1} (${step.type}): ${w.message}` })));
    for (const name of report.features) touched.add(name);
  });
  if (problems.length > 0) throw new PreflightError(problems);
  return warnings;
}

/** The table with each column in `touched` replaced by 1s, its missing cells kept missing. */
function standIn(table: Table, touched: ReadonlySet<string>): Table {
  return {
    rowCount: table.rowCount,
    columns: table.columns.map((c): Column => {
      if (c.kind !== "number" || !touched.has(c.name)) return c;
      return { name: c.name, kind: "number", values: c.values.map((v) => (Number.isNaN(v) ? NaN : 1)) };
    }),
  };
}
