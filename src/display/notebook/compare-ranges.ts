/**
 * `compareRanges(frames, { column })`: where one column's values lie after each transform
 * (min, p1, p50, p99, max), as a table. It is the gallery's prose ("most values in
 * [-2, 4], outliers pull the scale to [-0.2, 0.2]") as numbers a student can check.
 */
import { labelledSources, type PlotInput } from "./joint-plot.js";
import { numericColumn, type ColumnSource } from "../render/histogram.js";
import { percentiles } from "../render/plot-data.js";
import { BOX_STYLE, CELL_STYLE, HEAD_STYLE, TABLE_STYLE, escapeHtml, formatNumber } from "../render/html.js";
import { DisplayedValue } from "./displayed-value.js";

export interface RangeRow {
  /** The data set: a job's transform and non-default parameters, a blob's name, or the key given. */
  readonly label: string;
  readonly min: number;
  readonly p1: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Values that were missing (NaN), not counted. */
  readonly missing: number;
}

const FIELDS = ["min", "p1", "p50", "p99", "max"] as const;

/** The rows, with an HTML table in notebooks and aligned text elsewhere. */
export class RangeTable extends DisplayedValue {
  constructor(
    readonly column: string,
    readonly rows: readonly RangeRow[],
  ) {
    super();
  }

  toHTML(): string {
    const head = ["", ...FIELDS].map((f) => `<th style="${HEAD_STYLE}">${f}</th>`).join("");
    const body = this.rows
      .map((r) => {
        const cells = FIELDS.map((f) => `<td style="${CELL_STYLE}">${formatNumber(r[f])}</td>`).join("");
        return `<tr><th style="${CELL_STYLE};text-align:left">${escapeHtml(r.label)}</th>${cells}</tr>`;
      })
      .join("");
    return `<div style="${BOX_STYLE}"><b>${escapeHtml(this.column)}</b> after each transform<table style="${TABLE_STYLE}"><tr>${head}</tr>${body}</table></div>`;
  }

  toString(): string {
    const grid = [["", ...FIELDS], ...this.rows.map((r) => [r.label, ...FIELDS.map((f) => formatNumber(r[f]))])];
    const widths = grid[0]!.map((_, c) => Math.max(...grid.map((row) => row[c]!.length)));
    return [
      `${this.column} after each transform`,
      ...grid.map((row) =>
        row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  "),
      ),
    ].join("\n");
  }

  protected override shownText(): string {
    return `RangeTable(${this.column}, ${this.rows.length} rows)`;
  }
}

/** One column's spread, for each data set. */
export function rangesOf(column: string, sources: Readonly<Record<string, ColumnSource>>): RangeTable {
  const rows = Object.entries(sources).map(([label, source]) => {
    const values = numericColumn(source, column);
    const [min, p1, p50, p99, max] = percentiles(values, [0, 1, 50, 99, 100]) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const missing = values.reduce((n, v) => n + (Number.isFinite(v) ? 0 : 1), 0);
    return { label, min, p1, p50, p99, max, missing };
  });
  return new RangeTable(column, rows);
}

/**
 * min, p1, p50, p99 and max of `column` in each data set (jobs, blobs or frames, as plotJoint takes them).
 *
 * @example
 * await compareRanges([blob, standard, robust], { column: "area_error" })
 */
export async function compareRanges(
  frames: Readonly<Record<string, PlotInput>> | readonly PlotInput[],
  options: { column: string },
): Promise<RangeTable> {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a notebook cell calls this untyped
  if (typeof options?.column !== "string") {
    throw new TypeError('compareRanges needs the column to compare: compareRanges(jobs, { column: "name" })');
  }
  return rangesOf(options.column, await labelledSources(frames));
}
