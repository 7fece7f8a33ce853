/**
 * A job's fitted state as a table: one row per feature, one column per scikit-learn
 * attribute that holds a number per feature (center_, scale_, lambdas_, ...). The split
 * into per-feature attributes and the rest is the notebook's (src/display/render/fitted.ts),
 * so the REPL and a notebook show the same state.
 */
import type { FittedStateJson } from "../../src/index.js";
import { fittedColumns } from "../../src/display/render/fitted.js";
import type { TableOutput } from "../commands/types.js";
import { formatCell } from "./cells.js";

export interface FittedTableOptions {
  readonly title: string;
  /** Show at most this many features (the footer says how many more). */
  readonly limit?: number | undefined;
  /** What the footer suggests for the rest (`/fitted j4`). */
  readonly more?: string | undefined;
  /** Attributes shown in a table of their own, left out of the footer (`quantiles_`). */
  readonly shownApart?: readonly string[] | undefined;
}

export function fittedTable(fitted: FittedStateJson, options: FittedTableOptions): TableOutput {
  const { features, perFeature } = fittedColumns(fitted);
  const shown = options.limit === undefined ? features : features.slice(0, options.limit);
  const rows = shown.map((feature, i) => [feature, ...perFeature.map((a) => cellOf(a.values[i]))]);
  const notes: string[] = [];
  if (shown.length < features.length) {
    notes.push(
      `first ${shown.length} of ${features.length} features${options.more ? `; ${options.more} shows all` : ""}`,
    );
  }
  notes.push(...fittedNotes(fitted, options.shownApart));
  if (perFeature.length === 0) notes.push(`${fitted.type} keeps no statistic per feature`);
  return {
    type: "table",
    title: options.title,
    columns: ["feature", ...perFeature.map((a) => a.name)],
    rows,
    numeric: [false, ...perFeature.map(() => true)],
    footer: notes.length > 0 ? notes.join("\n") : undefined,
  };
}

/** The parameters and the attributes that are not one number per feature, one line each. */
export function fittedNotes(fitted: FittedStateJson, shownApart: readonly string[] = []): string[] {
  const params = Object.entries(fitted.params)
    .map(([name, value]) => `${name}=${formatCell(value)}`)
    .join(" ");
  const other = fittedColumns(fitted).other.filter((o) => !shownApart.includes(o.name));
  return [...(params !== "" ? [`params ${params}`] : []), ...other.map((o) => `${o.name} ${o.text}`)];
}

/** A missing statistic (a column with no values) is NaN, as scikit-learn prints it. */
function cellOf(value: unknown): string {
  return value === null ? "NaN" : formatCell(value);
}
