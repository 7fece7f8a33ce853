/**
 * `show(x)`: the one call that renders anything mdps knows — DataFrames and Tables,
 * blob, job and result records, lists of blobs, fitted states, charts, and any object
 * with a `toHTML()` method (the Session's Blob and Job handles) — richly in a notebook
 * and as text elsewhere.
 */
import { inspect } from "node:util";
// show() draws session values too (a Session, a Blob, a CheckReport): it brings their presentation.
import "../presentation.js";
import type { BlobRecord, FittedStateJson, JobRecord, JobResult } from "../../core/contract/index.js";
import { findKernel } from "./kernel-display.js";
import { displayRich, type RichOutput } from "./rich-inspect.js";
import { fittedHtml } from "../render/fitted.js";
import {
  blobHtml,
  blobListHtml,
  blobText,
  jobHtml,
  jobText,
  resultHtml,
  resultText,
  sessionHtml,
  type SessionInfo,
} from "../render/records.js";
import {
  dataFrameHtml,
  isDataFrameLike,
  isTable,
  tableHtml,
  tableText,
  type TableHtmlOptions,
} from "../render/table.js";
import { SvgChart } from "./svg-chart.js";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

export function isBlobRecord(value: unknown): value is BlobRecord {
  return (
    isObject(value) &&
    typeof value.id === "string" &&
    typeof value.sha256 === "string" &&
    typeof value.record_type === "string"
  );
}

export function isJobRecord(value: unknown): value is JobRecord {
  return (
    isObject(value) &&
    typeof value.id === "string" &&
    typeof value.job_type === "string" &&
    typeof value.status === "string"
  );
}

export function isJobResult(value: unknown): value is JobResult {
  return isObject(value) && typeof value.job_id === "string" && isObject(value.fitted) && Array.isArray(value.outputs);
}

function isFittedState(value: unknown): value is FittedStateJson {
  return isObject(value) && typeof value.type === "string" && Array.isArray(value.feature_names_in_);
}

/** A blob record, or a handle holding one in `.record` (the Session's Blob). */
function blobRecordOf(value: unknown): BlobRecord | undefined {
  if (isBlobRecord(value)) return value;
  return isObject(value) && isBlobRecord(value.record) ? value.record : undefined;
}

function blobList(value: unknown): BlobRecord[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const records = value.map(blobRecordOf);
  return records.every((r): r is BlobRecord => r !== undefined) ? records : undefined;
}

/** A Session-like handle: read field by field so nothing else (a client, a secret) is touched. */
function sessionInfoOf(value: unknown): SessionInfo | undefined {
  if (!isObject(value) || typeof value.baseUrl !== "string" || typeof value.modelId !== "string") return undefined;
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    baseUrl: value.baseUrl,
    modelId: value.modelId,
    region: text(value.region) ?? null,
    local: value.isLocal === true,
    dataDir: text(value.dataDir) ?? null,
  };
}

function hasToHtml(value: unknown): value is { toHTML(): string } {
  return isObject(value) && typeof value.toHTML === "function";
}

/** The rich form of a value, or undefined when mdps does not know how to draw it. */
export function richOutput(value: unknown, options: TableHtmlOptions = {}): RichOutput | undefined {
  if (value instanceof SvgChart) return { html: value.toHTML() };
  if (hasToHtml(value)) return { html: value.toHTML() };
  if (isDataFrameLike(value)) return { html: dataFrameHtml(value, options) };
  if (isTable(value)) return { html: tableHtml(value, options) };
  const blobs = blobList(value);
  if (blobs) return { html: blobListHtml(blobs) };
  if (isJobResult(value)) return { html: resultHtml(value) };
  const blob = blobRecordOf(value);
  if (blob) return { html: blobHtml(blob) };
  const job = isJobRecord(value) ? value : isObject(value) && isJobRecord(value.record) ? value.record : undefined;
  if (job) return { html: jobHtml(job) };
  const session = sessionInfoOf(value);
  if (session) return { html: sessionHtml(session) };
  if (isFittedState(value)) return { html: fittedHtml(value) };
  return undefined;
}

/** The HTML mdps would show for a value. */
export function toHTML(value: unknown, options: TableHtmlOptions = {}): string | undefined {
  return richOutput(value, options)?.html;
}

/** The plain-text form `show` prints outside a notebook. */
export function toText(value: unknown, options: TableHtmlOptions = {}): string {
  if (value instanceof SvgChart) {
    const { width, height } = value.size;
    return `SvgChart(${width}×${height}): open it in a notebook, or chart.save("chart.svg")`;
  }
  if (isDataFrameLike(value) || isTable(value)) return tableText(value, options);
  const blobs = blobList(value);
  if (blobs) return blobs.length > 0 ? blobs.map(blobText).join("\n") : "no blobs";
  if (isJobResult(value)) return resultText(value);
  if (isBlobRecord(value)) return blobText(value);
  if (isJobRecord(value)) return jobText(value);
  return inspect(value, { depth: 4, colors: false });
}

/**
 * Shows a value: rich in a notebook (tslab or Deno), as text on stdout elsewhere.
 *
 * @example
 * show(await job.dataframe(), { maxRows: 6 });
 */
export function show(value: unknown, options: TableHtmlOptions = {}): void {
  const rich = richOutput(value, options);
  if (rich && displayRich(rich)) return;
  const text = toText(value, options);
  const kernel = findKernel();
  if (kernel?.print) kernel.print(text);
  else process.stdout.write(`${text}\n`);
}
