/**
 * Session, blob, job and result records as compact HTML. Each renderer reads only the
 * fields it names (never a whole object), so a secret or key held next to them can
 * never reach the output: request keys are dropped even though the service already
 * shows them as "***".
 */
import { homedir } from "node:os";
import type { BlobRecord, JobRecord, JobResult } from "../../core/contract/index.js";
import type { SessionInfo } from "../../session/presentation/views.js";
import { fittedHtml } from "./fitted.js";
import { warningsHtml } from "./warnings.js";
import {
  BOX_STYLE,
  MUTED_STYLE,
  definitionTable,
  escapeHtml,
  formatBytes,
  formatDuration,
  idHtml,
  progressText,
  shortId,
  statusHtml,
} from "./html.js";

export type { SessionInfo } from "../../session/presentation/views.js";

/** `/home/ana/.mdps/local` → `~/.mdps/local`: shorter, and no user name in a shared notebook. */
function tildePath(path: string): string {
  const home = homedir();
  return home && home !== "/" && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function box(title: string, body: string): string {
  return `<div style="${BOX_STYLE}"><div style="margin-bottom:2px"><b>${title}</b></div>${body}</div>`;
}

export function sessionHtml(info: SessionInfo): string {
  const rows: Array<[string, string]> = [["service", `<code>${escapeHtml(info.baseUrl)}</code>`]];
  if (info.region) rows.push(["region", escapeHtml(info.region)]);
  if (info.modelId) rows.push(["model", idHtml(info.modelId)]);
  if (info.clientId) rows.push(["client", `<code>${escapeHtml(info.clientId)}</code>`]);
  if (info.local)
    rows.push([
      "mode",
      `embedded reference service${info.dataDir ? ` · data in <code>${escapeHtml(tildePath(info.dataDir))}</code>` : ""}`,
    ]);
  if (info.scopes && info.scopes.length > 0)
    rows.push(["scopes", `<span style="${MUTED_STYLE}">${escapeHtml(info.scopes.join(" "))}</span>`]);
  return box("mdps Session", definitionTable(rows));
}

export function sessionText(info: SessionInfo): string {
  const where = info.local ? "local" : (info.region ?? "remote");
  return `Session(${where} ${info.baseUrl}${info.modelId ? ` model ${shortId(info.modelId)}` : ""})`;
}

function tagsHtml(tags: readonly string[]): string {
  return tags.map((t) => `<code style="background:#f3f4f6;padding:0 3px">${escapeHtml(t)}</code>`).join(" ");
}

export function blobHtml(blob: BlobRecord): string {
  const rows: Array<[string, string]> = [
    ["id", idHtml(blob.id)],
    [
      "format",
      [blob.record_type, blob.size_bytes === undefined ? undefined : formatBytes(blob.size_bytes), blob.access_tier]
        .filter((part) => part !== undefined)
        .map(escapeHtml)
        .join(" · ") || "not reported",
    ],
  ];
  if (blob.description) rows.push(["description", escapeHtml(blob.description)]);
  if (blob.tags.length > 0) rows.push(["tags", tagsHtml(blob.tags)]);
  rows.push(["encrypted", blob.encrypted ? "🔒 yes (AES-256-GCM, key held by you)" : "no"]);
  if (blob.sha256)
    rows.push(["sha256", `<code title="${escapeHtml(blob.sha256)}">${escapeHtml(blob.sha256.slice(0, 12))}…</code>`]);
  const updated = blob.updated_at ?? blob.created_at;
  if (updated) rows.push(["updated", escapeHtml(updated)]);
  return box(`Blob <code>${escapeHtml(blob.name ?? blob.id)}</code>`, definitionTable(rows));
}

export function blobText(blob: BlobRecord): string {
  const size = blob.size_bytes === undefined ? "" : ` ${formatBytes(blob.size_bytes)}`;
  return `Blob(${shortId(blob.id)} ${blob.name ?? "(no name)"} ${blob.record_type ?? "?"}${size}${blob.encrypted ? " encrypted" : ""})`;
}

/** A list of blobs as one table: what a person made, at a glance. */
export function blobListHtml(blobs: readonly BlobRecord[]): string {
  const head = ["id", "name", "format", "size", "tags", "encrypted", "updated"]
    .map((h) => `<th style="padding:2px 8px;text-align:left;border-bottom:1px solid #9ca3af">${h}</th>`)
    .join("");
  const cell = (html: string) =>
    `<td style="padding:2px 8px;text-align:left;border-bottom:1px solid #e5e7eb">${html}</td>`;
  const rows = blobs.map(
    (b) =>
      `<tr>${cell(idHtml(b.id))}${cell(escapeHtml(b.name ?? ""))}${cell(escapeHtml(b.record_type ?? ""))}` +
      `${cell(b.size_bytes === undefined ? "" : formatBytes(b.size_bytes))}${cell(tagsHtml(b.tags))}${cell(b.encrypted ? "🔒" : "")}${cell(escapeHtml(b.updated_at ?? b.created_at ?? ""))}</tr>`,
  );
  return box(
    `${blobs.length} blob${blobs.length === 1 ? "" : "s"}`,
    `<table style="border-collapse:collapse;font-size:12px"><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`,
  );
}

export interface RequestSummary {
  type?: string;
  params?: Record<string, unknown>;
  features?: string[];
  input?: string;
}

/** Picks the known, non-secret fields of a preprocessing request (or a job payload holding one). */
export function summarizeRequest(request: unknown): RequestSummary {
  if (typeof request !== "object" || request === null) return {};
  const r = request as Record<string, unknown>;
  if (typeof r.payload === "object" && r.payload !== null && !("preprocessing_type" in r)) {
    return summarizeRequest(r.payload);
  }
  const summary: RequestSummary = {};
  if (typeof r.preprocessing_type === "string") summary.type = r.preprocessing_type;
  if (typeof r.preprocessing_params === "object" && r.preprocessing_params !== null) {
    summary.params = r.preprocessing_params as Record<string, unknown>;
  }
  if (Array.isArray(r.feature_columns)) summary.features = r.feature_columns.map(String);
  if (typeof r.input_blob_id === "string") summary.input = r.input_blob_id;
  return summary;
}

function elapsedMs(
  job: Pick<JobRecord, "started_at" | "finished_at" | "created_at">,
  now = Date.now(),
): number | undefined {
  const from = job.started_at ?? job.created_at;
  if (!from) return undefined;
  const start = Date.parse(from);
  if (Number.isNaN(start)) return undefined;
  const end = job.finished_at ? Date.parse(job.finished_at) : now;
  return Number.isNaN(end) ? undefined : end - start;
}

export function jobHtml(job: JobRecord): string {
  const summary = summarizeRequest(job.request);
  const rows: Array<[string, string]> = [["id", idHtml(job.id)]];
  const what = escapeHtml(summary.type ?? job.job_type ?? "not reported");
  rows.push(["transform", what]);
  if (summary.params && Object.keys(summary.params).length > 0) {
    rows.push(["params", `<code>${escapeHtml(JSON.stringify(summary.params))}</code>`]);
  }
  if (summary.features)
    rows.push([
      "features",
      summary.features.length > 0 ? escapeHtml(summary.features.join(", ")) : "every numeric column",
    ]);
  if (summary.input) rows.push(["input", idHtml(summary.input)]);
  // No progress from the service: an indeterminate bar; no phase: none shown.
  const progress = `<code>${progressText(job.progress)}</code>`;
  rows.push(["status", `${statusHtml(job.status)}${job.phase ? ` · ${escapeHtml(job.phase)}` : ""}  ${progress}`]);
  const elapsed = elapsedMs(job);
  if (elapsed !== undefined) rows.push([job.finished_at ? "took" : "elapsed", formatDuration(elapsed)]);
  if (job.attempts !== undefined && job.attempts > 1) rows.push(["attempts", String(job.attempts)]);
  if (job.error) rows.push(["error", `<b>${escapeHtml(job.error.title)}</b>: ${escapeHtml(job.error.detail)}`]);
  return box("mdps Job", definitionTable(rows));
}

export function jobText(job: JobRecord): string {
  const summary = summarizeRequest(job.request);
  const percent = job.progress === undefined ? "" : ` ${Math.round(job.progress * 100)}%`;
  return `Job(${shortId(job.id)} ${summary.type ?? job.job_type ?? "job"} ${job.status}${job.phase && job.status === "running" ? ` ${job.phase}` : ""}${percent})`;
}

export function resultHtml(result: JobResult): string {
  const rows: Array<[string, string]> = [];
  if (result.job_id) rows.push(["job", idHtml(result.job_id)]);
  if (result.status) rows.push(["status", statusHtml(result.status)]);
  if (result.rows !== undefined && result.columns)
    rows.push(["shape", `${result.rows.toLocaleString("en-US")} rows × ${result.columns.length} columns`]);
  if (result.duration_ms !== undefined) rows.push(["took", formatDuration(result.duration_ms)]);
  for (const output of result.outputs ?? []) {
    const size = output.size_bytes === undefined ? "" : ` · ${formatBytes(output.size_bytes)}`;
    rows.push([
      "output",
      `<code>${escapeHtml(output.name ?? "")}</code> ${idHtml(output.id)} ${escapeHtml(output.record_type ?? "")}${size}${output.encrypted ? " 🔒" : ""}`,
    ]);
  }
  for (const id of result.output_blob_ids ?? []) rows.push(["output", idHtml(id)]);
  for (const url of result.download_urls ?? [])
    rows.push(["output", `<code>${escapeHtml(url.split("?")[0] ?? url)}</code>`]);
  if (!result.fitted) rows.push(["fitted", "the service returned no fitted state"]);
  const title = result.fitted ? `Result of ${escapeHtml(result.fitted.type)}` : "Job result";
  return box(
    title,
    definitionTable(rows) + warningsHtml(result.warnings) + (result.fitted ? fittedHtml(result.fitted) : ""),
  );
}

export function resultText(result: JobResult): string {
  const shape =
    result.rows !== undefined && result.columns ? ` ${result.rows} rows × ${result.columns.length} columns` : "";
  return `JobResult(${shortId(result.job_id ?? "")} ${result.status ?? ""} ${result.fitted?.type ?? "no fitted state"}${shape})`;
}
