/**
 * What /compare and /rerun show: where one column's values lie after each transform
 * (compareRanges' min, p1, p50, p99, max), and two jobs' fitted statistics side by side.
 */
import type { FittedStateJson, Table } from "../../src/index.js";
import { tableFromDataFrame } from "../../src/internal/index.js";
import { rangesOf } from "../../src/display/notebook/compare-ranges.js";
import { fittedColumns } from "../../src/display/render/fitted.js";
import { ReplError } from "../errors.js";
import { formatCell, formatNumberCell } from "../format/cells.js";
import type { CommandContext, TableOutput } from "./types.js";

export interface DataSet {
  /** `customers`, or `j4 RobustScaler (quantile_range=10,90) on customers`. */
  readonly label: string;
  readonly table: Table;
  /** The job's feature columns, for a default column. */
  readonly features: readonly string[];
}

/** A frame by name, or a job's result (waited for; Ctrl+C stops waiting). */
export async function dataSet(ctx: CommandContext, name: string): Promise<DataSet> {
  const ws = ctx.workspace;
  if (ws.hasFrame(name)) return { label: name, table: ws.table(name), features: ws.frameInfo(name).features ?? [] };
  if (ws.jobs.find(name) === undefined) {
    const refs = ws.jobs.jobs.map((j) => j.ref);
    throw new ReplError(
      `No frame or job "${name}".`,
      `Frames: ${ws.frameNames().join(", ") || "none"}; jobs: ${refs.join(", ") || "none yet"}.`,
    );
  }
  const { job, handle } = ws.findJob(name);
  const df = await handle.dataframe({ signal: ctx.signal, progress: false }).catch((error: unknown) => {
    throw ws.waitStopped(error, job.ref, ctx);
  });
  return {
    label: `${job.ref} ${job.label}`,
    table: tableFromDataFrame(df),
    features: handle.fitted?.feature_names_in_ ?? ws.jobSource(job.ref)?.features ?? [],
  };
}

/** The column to compare: the one given, else the first feature of the first job. */
export function pickColumn(given: string | true | undefined, sets: readonly DataSet[], usage: string): string {
  if (typeof given === "string" && given !== "") return given;
  const first = sets.find((s) => s.features.length > 0)?.features[0];
  if (first === undefined) throw new ReplError("Which column?", `Name it with --column. Usage: ${usage}`);
  return first;
}

/** min, p1, p50, p99, max of `column` in each data set. */
export function rangesOutput(column: string, sets: readonly DataSet[]): TableOutput {
  for (const set of sets) {
    const found = set.table.columns.find((c) => c.name === column);
    if (found?.kind !== "number") {
      const numeric = set.table.columns.filter((c) => c.kind === "number").map((c) => c.name);
      throw new ReplError(
        `${set.label} has no numeric column "${column}".`,
        `Numeric columns: ${numeric.join(", ") || "none"}.`,
      );
    }
  }
  const sources: Record<string, Table> = {};
  for (const set of sets) sources[uniqueKey(set.label, sources)] = set.table;
  const ranges = rangesOf(column, sources);
  const fields = ["min", "p1", "p50", "p99", "max"] as const;
  return {
    type: "table",
    title: `${column} after each transform`,
    columns: ["data", ...fields, "missing"],
    rows: ranges.rows.map((r) => [r.label, ...fields.map((f) => formatNumberCell(r[f])), String(r.missing)]),
    numeric: [false, true, true, true, true, true, true],
  };
}

/** Two fitted states, attribute by attribute, one row per feature of either. */
export function fittedSideBySide(
  a: { readonly ref: string; readonly fitted: FittedStateJson },
  b: { readonly ref: string; readonly fitted: FittedStateJson },
): TableOutput {
  const left = fittedColumns(a.fitted);
  const right = fittedColumns(b.fitted);
  const names = [...new Set([...left.perFeature, ...right.perFeature].map((x) => x.name))];
  const features = [...new Set([...left.features, ...right.features])];
  const value = (side: typeof left, attribute: string, feature: string): string => {
    const i = side.features.indexOf(feature);
    const v = side.perFeature.find((x) => x.name === attribute)?.values[i];
    return i < 0 || v === undefined ? "" : v === null ? "NaN" : formatCell(v);
  };
  return {
    type: "table",
    title: `What ${a.ref} and ${b.ref} learnt`,
    columns: ["feature", ...names.flatMap((n) => [`${n} ${a.ref}`, `${n} ${b.ref}`])],
    rows: features.map((f) => [f, ...names.flatMap((n) => [value(left, n, f), value(right, n, f)])]),
    numeric: [false, ...names.flatMap(() => [true, true])],
  };
}

function uniqueKey(label: string, taken: Readonly<Record<string, unknown>>): string {
  let key = label;
  for (let n = 2; Object.hasOwn(taken, key); n++) key = `${label} #${n}`;
  return key;
}
