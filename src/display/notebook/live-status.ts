/**
 * The live status of a running job, shown where the user is looking: in a notebook
 * (tslab or Deno) one output replaced in place (state, phase, progress bar, elapsed time,
 * latest log lines) whose final state stays in the saved notebook; in a terminal plain
 * progress lines; or nothing. Whoever polls the job (Job.wait) feeds it snapshots;
 * it never polls, never throws, and never holds the process open.
 */
import { isTerminalStatus } from "../../core/contract/job-status.js";
import {
  BOX_STYLE,
  MUTED_STYLE,
  escapeHtml,
  formatDuration,
  progressText,
  shortId,
  statusHtml,
} from "../render/html.js";
import { newKernelDisplay, settleWithin, type NotebookDisplay } from "./kernel-display.js";
import { summarizeRequest } from "../render/records.js";
import { logLinesHtml } from "../render/warnings.js";
import type { JobSnapshot, ProgressMode } from "../../session/presentation/views.js";

export type { JobSnapshot, ProgressMode } from "../../session/presentation/views.js";

/** A log line; a JobExecutionLogMessage from the wire is one. */
export interface LogLine {
  readonly timestamp?: string;
  readonly level?: string;
  readonly message: string;
}

export interface LiveStatusOptions {
  /** Default `auto`. */
  mode?: ProgressMode;
  /** A display handed in by the notebook (`tslab.newDisplay()`); implies `notebook`. */
  display?: NotebookDisplay;
  /** Where `text` mode writes. Default process.stderr. */
  stream?: { write(chunk: string): unknown };
  /** Latest log lines shown in the notebook. Default 5; 0 asks for none. */
  logLines?: number;
  /** Heading, e.g. "StandardScaler on train.csv". Default: the transform of the request. */
  title?: string;
  /** Clock in ms, for tests. */
  now?: () => number;
}

export class LiveStatus {
  /** Where this status renders; `none` when nothing could be shown. */
  readonly mode: "notebook" | "text" | "none";
  /** How many log lines the poller should fetch with each update (0: do not fetch). */
  readonly logLines: number;
  private readonly display: NotebookDisplay | undefined;
  private readonly stream: { write(chunk: string): unknown } | undefined;
  private readonly now: () => number;
  private readonly started: number;
  private readonly title: string | undefined;
  private last: JobSnapshot | undefined;
  private logs: readonly LogLine[] = [];
  private lastTextKey = "";
  private finished = false;

  constructor(options: LiveStatusOptions = {}) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.title = options.title;
    const mode = options.display ? "notebook" : (options.mode ?? "auto");
    const display = options.display ?? (mode === "auto" || mode === "notebook" ? newKernelDisplay() : undefined);
    if (display) {
      this.mode = "notebook";
      this.display = display;
    } else if (mode === "text") {
      this.mode = "text";
      this.stream = options.stream ?? process.stderr;
    } else {
      this.mode = "none";
    }
    this.logLines = this.mode === "notebook" ? Math.max(0, options.logLines ?? 5) : 0;
  }

  /** Shows a new snapshot (and optionally the latest log lines). */
  update(snapshot: JobSnapshot, logs?: readonly LogLine[]): void {
    if (this.finished) return;
    this.last = snapshot;
    if (logs) this.logs = logs.slice(-Math.max(1, this.logLines));
    this.render(false);
  }

  /** Shows the final state; later updates are ignored. */
  finish(snapshot?: JobSnapshot, logs?: readonly LogLine[]): void {
    if (this.finished) return;
    if (snapshot) this.last = snapshot;
    if (logs) this.logs = logs.slice(-Math.max(1, this.logLines));
    this.render(true);
    this.finished = true;
  }

  /**
   * Resolves once the latest render has left for the notebook, or after `maxMs`: a wait
   * that ends a cell holds on for it, so the final state is not sent after the cell ended.
   * Never rejects, and its timer never holds the process open.
   */
  async settled(maxMs = 1000): Promise<void> {
    const pending = this.display?.settled?.();
    if (pending) await settleWithin(pending, maxMs);
  }

  /** The HTML of the latest state (what the notebook shows). */
  html(final = this.finished): string {
    return liveStatusHtml(this.last, this.logs, this.heading(), this.now() - this.started, final);
  }

  private heading(): string {
    const type = summarizeRequest(this.last?.request).type;
    const job = this.last?.id ? `job ${shortId(this.last.id)}` : "job";
    return this.title ? `${this.title} · ${job}` : type ? `${type} · ${job}` : job;
  }

  private render(final: boolean): void {
    try {
      if (this.mode === "notebook") this.display?.html(this.html(final));
      else if (this.mode === "text") this.writeLine(final);
    } catch {
      // A display that fails (kernel gone, stream closed) must never fail the job.
    }
  }

  private writeLine(final: boolean): void {
    const s = this.last;
    if (!s || !this.stream) return;
    const percent = Math.round((s.progress ?? 0) * 100);
    // One line per change of state or phase and per quarter of progress: a log, not a flood.
    const key = `${s.status}|${s.phase ?? ""}|${Math.floor(percent / 25)}`;
    if (!final && key === this.lastTextKey) return;
    if (final && key === this.lastTextKey && !isTerminalStatus(s.status)) return;
    this.lastTextKey = key;
    const phase = s.phase && s.phase !== s.status ? ` ${s.phase}` : "";
    const error = s.error ? ` - ${s.error.title}: ${s.error.detail}` : "";
    const elapsed = formatDuration(this.now() - this.started);
    this.stream.write(
      `[mdps] ${this.heading()} ${s.status}${phase} ${progressText(s.progress ?? (s.status === "succeeded" ? 1 : undefined), 10)} ${elapsed}${error}\n`,
    );
  }
}

const between = (from: string | null | undefined, to: string | null | undefined): number =>
  from && to ? Date.parse(to) - Date.parse(from) : Number.NaN;

/** "ran 120 ms after 4 ms in the queue", from the service's own clock; undefined when unknown. */
function serviceTimes(snapshot: JobSnapshot): string | undefined {
  const ran = between(snapshot.started_at, snapshot.finished_at);
  if (!Number.isFinite(ran)) return undefined;
  const queued = between(snapshot.created_at, snapshot.started_at);
  return `ran ${formatDuration(ran)}${Number.isFinite(queued) ? ` after ${formatDuration(queued)} in the queue` : ""}`;
}

/** The live status as HTML: a pure function of its inputs. */
export function liveStatusHtml(
  snapshot: JobSnapshot | undefined,
  logs: readonly LogLine[],
  heading: string,
  waitedMs: number,
  final: boolean,
): string {
  if (!snapshot) {
    return `<div style="${BOX_STYLE}"><b>${escapeHtml(heading)}</b> <span style="${MUTED_STYLE}">waiting for the first status…</span></div>`;
  }
  // A service that reports no progress gets an indeterminate bar until the job succeeds.
  const progress = snapshot.progress ?? (snapshot.status === "succeeded" ? 1 : undefined);
  const phase = snapshot.phase && snapshot.phase !== snapshot.status ? ` · ${escapeHtml(snapshot.phase)}` : "";
  const time = final
    ? (serviceTimes(snapshot) ?? `waited ${formatDuration(waitedMs)}`)
    : `${formatDuration(waitedMs)} elapsed`;
  const error = snapshot.error
    ? `<div style="color:#dc2626"><b>${escapeHtml(snapshot.error.title)}</b>: ${escapeHtml(snapshot.error.detail)}</div>`
    : "";
  // Warning lines (scikit-learn's warnings) in yellow, errors in red.
  const logHtml = logLinesHtml(logs);
  return (
    `<div style="${BOX_STYLE}"><b>${escapeHtml(heading)}</b> ${statusHtml(snapshot.status)}${phase}<br>` +
    `<code>${progressText(progress)}</code> ` +
    `<span style="${MUTED_STYLE}">${time}</span>${error}${logHtml}</div>`
  );
}
