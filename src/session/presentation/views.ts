/**
 * What session/ hands to its presentation: the shapes of the values display/ draws, and
 * the protocol symbols. They live here, below display/, so that session code names them
 * without knowing how they are drawn.
 */

/** Node's well-known symbol for custom inspection (no import of node:util needed). */
export const INSPECT_CUSTOM: unique symbol = Symbol.for("nodejs.util.inspect.custom");

/** Deno's symbol for a value's rich display (`Deno.jupyter.$display`), no Deno types needed. */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for("Jupyter.display");

/** What a value shows richly: HTML, or an SVG picture. */
export interface RichOutput {
  readonly html?: string;
  readonly svg?: string;
}

/** A Jupyter MIME bundle: what a `[Symbol.for("Jupyter.display")]()` method returns. */
export interface MimeBundle {
  readonly "text/plain": string;
  readonly "text/html"?: string;
  readonly "image/svg+xml"?: string;
}

/** How a wait shows its progress: `auto` is live in a notebook and nothing elsewhere. */
export type ProgressMode = "auto" | "notebook" | "text" | "none";

/** The part of a job record a live status reads. */
export interface JobSnapshot {
  readonly id?: string;
  readonly status: string;
  readonly phase?: string | null;
  readonly progress?: number;
  readonly error?: { readonly title: string; readonly detail: string } | null;
  readonly created_at?: string | null;
  readonly started_at?: string | null;
  readonly finished_at?: string | null;
  readonly request?: unknown;
}

/** One pipeline step as its live card shows it; `pending` until its job is sent. */
export interface PipelineStepView {
  readonly type: string;
  /** Empty: every numeric column. */
  readonly columns: readonly string[];
  readonly status: string;
  readonly phase?: string | null | undefined;
  readonly progress?: number | undefined;
  readonly jobId?: string | undefined;
  /** How long the step's job took, or has taken so far. */
  readonly elapsedMs?: number | undefined;
  readonly error?: { readonly title: string; readonly detail: string } | null | undefined;
}

/** What a Session shows about itself; deliberately has no place for a secret or token. */
export interface SessionInfo {
  readonly baseUrl: string;
  readonly modelId?: string | null;
  readonly region?: string | null;
  readonly clientId?: string | null;
  readonly local?: boolean;
  readonly dataDir?: string | null;
  readonly scopes?: readonly string[] | null;
}

/**
 * The public types that display/ owns and session's signatures name (`WaitOptions.progress`
 * takes a LiveStatus, `Job.compare()` gives an SvgChart). display/ adds them to this
 * interface by declaration merging, so users see display's classes exactly, while
 * session/ imports nothing of display/.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PresentedTypes {}

type Presented<K extends string, Fallback> = PresentedTypes extends { readonly [P in K]: infer T } ? T : Fallback;

/** A live status of the caller's own (display's LiveStatus). */
export type ProgressSink = Presented<"progressSink", never>;

/** The columns a plot reads from a job's input and output (display's ColumnSource). */
export type ColumnSource = Presented<"columnSource", unknown>;

/** What `Job.compare()` draws (display's SvgChart). */
export type ComparisonChart = Presented<"comparisonChart", { toHTML(): string; toString(): string }>;

/** The options of `Job.compare()` (display's PlotComparisonOptions). */
export type ComparisonOptions = Presented<"comparisonOptions", Record<string, unknown>>;
