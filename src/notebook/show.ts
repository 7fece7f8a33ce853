/**
 * `show(x)`: the one call that renders anything mdps knows — DataFrames and Tables,
 * blob, job and result records, lists of blobs, fitted states, charts, and any object
 * with a `toHTML()` method (the Session's Blob and Job handles) — richly in a notebook
 * and as text elsewhere.
 */
import { inspect } from "node:util";
import type { BlobRecord, FittedStateJson, JobRecord, JobResult } from "../contract/index.js";
import { displayRich, type RichOutput } from "./rich-inspect.js";
import { fittedHtml } from "./render-fitted.js";
import {
  blobHtml,
  blobListHtml,
  blobText,
  jobHtml,
  jobText,
  resultHtml,
  resultText,
} from "./render-records.js";
import { dataFrameHtml, isDataFrameLike, isTable, tableHtml, tableText, type TableHtmlOptions } from "./render-table.js";
import { SvgChart } from "./svg-chart.js";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

export function isBlobRecord(value: unknown): value is BlobRecord {
  return isObject(value) && typeof value.id === "string" && typeof value.sha256 === "string" && typeof value.record_type === "string";
}

export function isJobRecord(value: unknown): value is JobRecord {
  return isObject(value) && typeof value.id === "string" && typeof value.job_type === "string" && typeof value.status === "string";
}

export function isJobResult(value: unknown): value is JobResult {
  return isObject(value) && typeof value.job_id === "string" && isObject(value.fitted) && Array.isArray(value.outputs);
}

function isFittedState(value: unknown): value is FittedStateJson {
  return isObject(value) && typeof value.type === "string" && Array.isArray(value.feature_names_in_);
}

function hasToHtml(value: unknown): value is { toHTML(): string } {
  return isObject(value) && typeof value.toHTML === "function";
}

/** The rich form of a value, or undefined when mdps does not know how to draw it. */
export function richOutput(value: unknown, options: TableHtmlOptions = {}): RichOutput | undefined {
  if (value instanceof SvgChart) return { svg: value.svg };
  if (hasToHtml(value)) return { html: value.toHTML() };
  if (isDataFrameLike(value)) return { html: dataFrameHtml(value, options) };
  if (isTable(value)) return { html: tableHtml(value, options) };
  if (Array.isArray(value) && value.length > 0 && value.every(isBlobRecord)) return { html: blobListHtml(value) };
  if (isJobResult(value)) return { html: resultHtml(value) };
  if (isBlobRecord(value)) return { html: blobHtml(value) };
  if (isJobRecord(value)) return { html: jobHtml(value) };
  if (isFittedState(value)) return { html: fittedHtml(value) };
  return undefined;
}

/** The HTML mdps would show for a value (SVG charts come back as their markup). */
export function toHTML(value: unknown, options: TableHtmlOptions = {}): string | undefined {
  const rich = richOutput(value, options);
  return rich?.html ?? rich?.svg;
}

/** The plain-text form `show` prints outside a notebook. */
export function toText(value: unknown, options: TableHtmlOptions = {}): string {
  if (value instanceof SvgChart) {
    const { width, height } = value.size;
    return `SvgChart(${width}×${height}): open it in a notebook, or chart.save("chart.svg")`;
  }
  if (isDataFrameLike(value) || isTable(value)) return tableText(value, options);
  if (Array.isArray(value) && value.length > 0 && value.every(isBlobRecord)) return value.map(blobText).join("\n");
  if (isJobResult(value)) return resultText(value);
  if (isBlobRecord(value)) return blobText(value);
  if (isJobRecord(value)) return jobText(value);
  return inspect(value, { depth: 4, colors: false });
}

/**
 * Shows a value: rich in a tslab notebook, as text on stdout elsewhere.
 *
 * @example
 * show(await job.dataframe(), { maxRows: 6 });
 */
export function show(value: unknown, options: TableHtmlOptions = {}): void {
  const rich = richOutput(value, options);
  if (rich && displayRich(rich)) return;
  process.stdout.write(`${toText(value, options)}\n`);
}
