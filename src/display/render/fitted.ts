/**
 * The fitted state of a transform (scikit-learn attribute names, one entry per feature)
 * as a table with one row per feature and one column per attribute. Attributes that are
 * not one number per feature (quantile grids, references) are summarised by their shape,
 * so the table stays readable whatever the transform.
 */
import type { FittedStateJson } from "../../core/contract/index.js";
import { CELL_STYLE, HEAD_STYLE, MUTED_STYLE, TABLE_STYLE, escapeHtml, formatNumber, formatValue } from "./html.js";

const DESCRIBED = new Set(["type", "params", "feature_names_in_", "n_features_in_"]);
/** Grids, never a number per feature, even when their length happens to equal the feature count. */
const GRIDS = new Set(["quantiles_", "references_"]);

interface FittedColumns {
  features: string[];
  perFeature: Array<{ name: string; values: ReadonlyArray<unknown> }>;
  other: Array<{ name: string; text: string }>;
}

function shapeOf(value: unknown): string {
  const dims: number[] = [];
  let v: unknown = value;
  while (Array.isArray(v)) {
    dims.push(v.length);
    v = v[0];
  }
  return `[${dims.join(" × ")}]`;
}

/** Splits the fitted state into per-feature columns and everything else. */
export function fittedColumns(fitted: FittedStateJson): FittedColumns {
  const features = fitted.feature_names_in_;
  const perFeature: FittedColumns["perFeature"] = [];
  const other: FittedColumns["other"] = [];
  for (const [name, value] of Object.entries(fitted)) {
    if (DESCRIBED.has(name)) continue;
    const isScalarArray =
      !GRIDS.has(name) &&
      Array.isArray(value) &&
      value.length === features.length &&
      value.every((x) => x === null || typeof x === "number" || typeof x === "string" || typeof x === "boolean");
    if (isScalarArray) perFeature.push({ name, values: value });
    else if (Array.isArray(value)) other.push({ name, text: `${shapeOf(value)} values` });
    else other.push({ name, text: formatValue(value) });
  }
  return { features, perFeature, other };
}

function fittedCell(value: unknown): string {
  if (value === null) return `<td style="${CELL_STYLE};${MUTED_STYLE}">NaN</td>`;
  const text = typeof value === "number" ? formatNumber(value) : formatValue(value);
  return `<td style="${CELL_STYLE}">${escapeHtml(text)}</td>`;
}

/** The fitted statistics of one job as an HTML table (feature × attribute). */
export function fittedHtml(fitted: FittedStateJson): string {
  const { features, perFeature, other } = fittedColumns(fitted);
  const head = perFeature.map((a) => `<th style="${HEAD_STYLE}"><code>${escapeHtml(a.name)}</code></th>`).join("");
  const rows = features
    .map(
      (feature, i) =>
        `<tr><th style="${CELL_STYLE};text-align:left">${escapeHtml(feature)}</th>` +
        `${perFeature.map((a) => fittedCell(a.values[i])).join("")}</tr>`,
    )
    .join("");
  const params =
    Object.keys(fitted.params).length > 0
      ? `<div style="${MUTED_STYLE}">params <code>${escapeHtml(JSON.stringify(fitted.params))}</code></div>`
      : "";
  const notes =
    other.length > 0
      ? `<div style="${MUTED_STYLE}">${other.map((o) => `<code>${escapeHtml(o.name)}</code> ${escapeHtml(o.text)}`).join(" · ")}</div>`
      : "";
  const table =
    perFeature.length > 0
      ? `<table style="${TABLE_STYLE};margin-top:4px"><thead><tr><th style="${HEAD_STYLE};text-align:left">feature</th>${head}</tr></thead><tbody>${rows}</tbody></table>`
      : `<div style="${MUTED_STYLE}">features: ${escapeHtml(features.join(", "))}</div>`;
  return `<div style="margin-top:6px"><div><b>fitted ${escapeHtml(fitted.type)}</b></div>${table}${params}${notes}</div>`;
}
