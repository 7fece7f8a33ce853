/**
 * A pipeline's chain of jobs as one card: a row per step (transform, columns, status,
 * progress, job, time), replaced in place in a tslab notebook while the chain runs and
 * left in its final state in the saved notebook; plain lines in `text` mode. Built from
 * the job card's pieces (../render/html.ts), so a step's status reads as a job's does.
 */
import {
  BOX_STYLE,
  CELL_STYLE,
  HEAD_STYLE,
  MUTED_STYLE,
  TABLE_STYLE,
  escapeHtml,
  formatDuration,
  idHtml,
  progressText,
  statusHtml,
} from "../render/html.js";
import { newKernelDisplay, OUTPUT_WAIT_MS, outputsSent, settleWithin, type NotebookDisplay } from "./kernel-display.js";
import type { PipelineStepView, ProgressMode } from "../../session/presentation/views.js";
import type { PipelineFollowing } from "../../session/presentation/registry.js";

export type { PipelineStepView } from "../../session/presentation/views.js";

const LEFT = "text-align:left";
/** No cell wraps (a bar and its percentage stay on one line); only the error row does. */
const NOWRAP = "white-space:nowrap";
/**
 * A long column list is cut with an ellipsis (the whole list in its tooltip), so the card
 * keeps one line per step in a notebook about 1100 px wide.
 */
const COLUMNS_STYLE = "max-width:320px;overflow:hidden;text-overflow:ellipsis";
const COLUMNS_CELL = 2;

function row(step: PipelineStepView, index: number): string {
  const columns = step.columns.length > 0 ? step.columns.join(", ") : "every numeric column";
  const cells = [
    String(index + 1),
    escapeHtml(step.type),
    escapeHtml(columns),
    step.status === "pending" ? `<span style="${MUTED_STYLE}">pending</span>` : statusHtml(step.status),
    step.phase && step.phase !== step.status && step.status === "running" ? escapeHtml(step.phase) : "",
    step.status === "pending" ? "" : `<code>${progressText(step.progress, 10)}</code>`,
    step.jobId ? idHtml(step.jobId) : "",
    step.elapsedMs === undefined ? "" : formatDuration(step.elapsedMs),
  ];
  const tds = cells
    .map((c, k) => {
      const style = `${CELL_STYLE};${NOWRAP}${k > 0 && k < 6 ? `;${LEFT}` : ""}`;
      return k === COLUMNS_CELL
        ? `<td style="${style};${COLUMNS_STYLE}" title="${escapeHtml(columns)}">${c}</td>`
        : `<td style="${style}">${c}</td>`;
    })
    .join("");
  const error = step.error
    ? `<tr><td></td><td colspan="7" style="${CELL_STYLE};${LEFT};color:#dc2626"><b>${escapeHtml(step.error.title)}</b>: ${escapeHtml(step.error.detail)}</td></tr>`
    : "";
  return `<tr>${tds}</tr>${error}`;
}

const HEADER = ["step", "transform", "columns", "status", "phase", "progress", "job", "time"];

/** The card as HTML: a pure function of the steps. */
export function pipelineCardHtml(
  steps: readonly PipelineStepView[],
  heading: string,
  elapsedMs: number,
  final: boolean,
): string {
  const head = HEADER.map(
    (h, k) => `<th style="${HEAD_STYLE};${NOWRAP}${k > 0 && k < 6 ? `;${LEFT}` : ""}">${h}</th>`,
  ).join("");
  const done = steps.filter((s) => s.status === "succeeded").length;
  const summary = final
    ? `${done} of ${steps.length} steps succeeded in ${formatDuration(elapsedMs)}`
    : `${done} of ${steps.length} steps done · ${formatDuration(elapsedMs)} elapsed`;
  return (
    `<div style="${BOX_STYLE}"><div style="margin-bottom:2px"><b>${escapeHtml(heading)}</b> ` +
    `<span style="${MUTED_STYLE}">${summary}</span></div>` +
    `<table style="${TABLE_STYLE}"><thead><tr>${head}</tr></thead><tbody>${steps.map(row).join("")}</tbody></table></div>`
  );
}

/** One line per step: `2/3 StandardScaler(a, b) running fitting 50%`. */
export function pipelineCardText(steps: readonly PipelineStepView[]): string[] {
  return steps.map((s, i) => {
    const columns = s.columns.length > 0 ? s.columns.join(", ") : "every numeric column";
    const phase = s.phase && s.status === "running" && s.phase !== s.status ? ` ${s.phase}` : "";
    const percent = s.progress === undefined || s.status === "pending" ? "" : ` ${Math.round(s.progress * 100)}%`;
    const error = s.error ? ` - ${s.error.title}: ${s.error.detail}` : "";
    return `${i + 1}/${steps.length} ${s.type}(${columns}) ${s.status}${phase}${percent}${error}`;
  });
}

/** A fitted pipeline: one row per step with its job, then each step's fitted state. */
export function pipelineFittedHtml(
  steps: ReadonlyArray<{ type: string; columns: readonly string[]; jobId: string | null; fittedHtml: string }>,
): string {
  const sections = steps
    .map(
      (s, i) =>
        `<details style="margin-top:2px"><summary>${i + 1}. <b>${escapeHtml(s.type)}</b> on ${escapeHtml(s.columns.join(", "))}` +
        `${s.jobId ? ` <span style="${MUTED_STYLE}">job</span> ${idHtml(s.jobId)}` : ""}</summary>${s.fittedHtml}</details>`,
    )
    .join("");
  return `<div style="${BOX_STYLE}"><div style="margin-bottom:2px"><b>mdps FittedPipeline</b> <span style="${MUTED_STYLE}">${steps.length} step${steps.length === 1 ? "" : "s"}</span></div>${sections}</div>`;
}

export interface PipelineCardOptions {
  /** `auto` (default): the notebook inside tslab, nothing elsewhere. */
  readonly mode?: ProgressMode | undefined;
  /** A display handed in (`tslab.newDisplay()`); implies `notebook`. */
  readonly display?: NotebookDisplay | undefined;
  /** Where `text` mode writes. Default process.stderr. */
  readonly stream?: { write(chunk: string): unknown } | undefined;
  readonly heading?: string | undefined;
  readonly now?: (() => number) | undefined;
}

/** The live card of one chain; it never throws and never polls (the chain's runner feeds it). */
export class PipelineCard {
  readonly mode: "notebook" | "text" | "none";
  readonly #display: NotebookDisplay | undefined;
  readonly #stream: { write(chunk: string): unknown } | undefined;
  readonly #now: () => number;
  readonly #started: number;
  readonly #heading: string;
  #lastText: string[] = [];
  #finished = false;

  constructor(options: PipelineCardOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#started = this.#now();
    this.#heading = options.heading ?? "mdps pipeline";
    const mode = options.display ? "notebook" : (options.mode ?? "auto");
    const display = options.display ?? (mode === "auto" || mode === "notebook" ? newKernelDisplay() : undefined);
    this.#display = display;
    this.mode = display ? "notebook" : mode === "text" ? "text" : "none";
    this.#stream = this.mode === "text" ? (options.stream ?? process.stderr) : undefined;
  }

  update(steps: readonly PipelineStepView[]): void {
    if (!this.#finished) this.#render(steps, false);
  }

  /**
   * Shows the final state; resolves once it (and any notice given meanwhile) has left for
   * the notebook, so a fit that ends a cell is not reported finished before its card is.
   */
  async finish(steps: readonly PipelineStepView[]): Promise<void> {
    if (this.#finished) return;
    this.#render(steps, true);
    this.#finished = true;
    const own = this.#display?.settled?.();
    await Promise.all([own ? settleWithin(own, OUTPUT_WAIT_MS) : undefined, outputsSent()]);
  }

  #render(steps: readonly PipelineStepView[], final: boolean): void {
    try {
      if (this.#display) {
        this.#display.html(pipelineCardHtml(steps, this.#heading, this.#now() - this.#started, final));
      } else if (this.#stream) {
        // A line per step whose line changed (status, phase, tenth of progress): a log, not a flood.
        const lines = pipelineCardText(steps.map((s) => ({ ...s, progress: roundTenth(s.progress) })));
        lines.forEach((line, i) => {
          if (line !== this.#lastText[i] && steps[i]?.status !== "pending")
            this.#stream?.write(`[mdps] pipeline ${line}\n`);
        });
        this.#lastText = lines;
      }
    } catch {
      // A display that fails (kernel gone, stream closed) must never fail the chain.
    }
  }
}

function roundTenth(progress: number | undefined): number | undefined {
  return progress === undefined ? undefined : Math.floor(progress * 10) / 10;
}

/** `until()`, with the run's live card shown meanwhile (and left in its final state). */
export async function followPipeline<T>({
  progress,
  heading,
  state,
  subscribe,
  until,
}: PipelineFollowing<T>): Promise<T> {
  const card =
    progress === false || progress === "none" ? undefined : new PipelineCard({ mode: progress ?? "auto", heading });
  if (card === undefined || card.mode === "none") return until();
  card.update(state());
  const stop = subscribe((steps) => card.update(steps));
  try {
    return await until();
  } finally {
    stop();
    await card.finish(state());
  }
}
