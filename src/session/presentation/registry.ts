/**
 * The presentation port: how session values are shown, filled by display/ when the
 * package's entry is loaded (src/index.ts). Session code asks this registry and never
 * imports display/. Without a registration (session/ loaded on its own), values show
 * as their text, waits show no progress and the kernel's stop button is not heard.
 */
import type { BlobRecord, FittedStateJson, JobRecord, JobResult } from "../../core/contract/index.js";
import type { DoctorReport, WhoAmI } from "../../client/diagnostics.js";
import type { PreflightReport } from "../preflight/preflight.js";
import type {
  ColumnSource,
  ComparisonChart,
  ComparisonOptions,
  JobSnapshot,
  MimeBundle,
  PipelineStepView,
  ProgressMode,
  ProgressSink,
  RichOutput,
  SessionInfo,
} from "./views.js";

/** Each kind of value the session shows as HTML, with what its renderer reads. */
export interface HtmlViews {
  readonly session: SessionInfo;
  readonly blob: BlobRecord;
  readonly job: JobRecord;
  readonly preflight: PreflightReport;
  readonly whoami: WhoAmI;
  readonly doctor: DoctorReport;
  readonly portalLink: string;
  /** A pipeline not fitted yet: each step's transform, its columns described, its params. */
  readonly pipeline: ReadonlyArray<{ type: string; columns: string; params?: Readonly<Record<string, unknown>> }>;
  readonly fittedPipeline: ReadonlyArray<{
    type: string;
    columns: readonly string[];
    jobId: string | null;
    fitted: FittedStateJson;
  }>;
}

/** The reports that print as a table of their own (`console.log(await session.doctor())`). */
export interface TextViews {
  readonly whoami: WhoAmI;
  readonly doctor: DoctorReport;
}

/** The kernel's stop button as a signal, while one call runs. */
export interface KernelInterrupt {
  readonly signal: AbortSignal;
  release(): void;
}

/** One job wait, as its progress is shown. */
export interface JobFollowing<R extends JobSnapshot> {
  readonly progress: ProgressMode | ProgressSink | false | undefined;
  readonly title?: string | undefined;
  readonly fetchLogs: (
    limit: number,
  ) => Promise<ReadonlyArray<{ readonly timestamp?: string; readonly level?: string; readonly message: string }>>;
  /** The wait itself, telling each change of the record. */
  readonly wait: (onUpdate: (record: JobSnapshot) => void) => Promise<R>;
}

/** One pipeline run, as its live card is shown. */
export interface PipelineFollowing<T> {
  readonly progress: ProgressMode | false | undefined;
  readonly heading: string;
  readonly state: () => readonly PipelineStepView[];
  readonly subscribe: (listener: (steps: readonly PipelineStepView[]) => void) => () => void;
  readonly until: () => Promise<T>;
}

/** What `Job.compare()` reads from the job (the Session's Job is one). */
export interface ComparedJob {
  readonly id: string;
  readonly input?: { download(): Promise<ColumnSource> } | undefined;
  result(): Promise<{
    readonly fitted?: { readonly type: string; readonly feature_names_in_: readonly string[] } | undefined;
    readonly feature_columns?: readonly string[] | undefined;
  }>;
  dataframe(): Promise<ColumnSource>;
}

export interface Presentation {
  readonly html: { readonly [K in keyof HtmlViews]: (view: HtmlViews[K]) => string };
  readonly text: { readonly [K in keyof TextViews]: (view: TextViews[K]) => string };
  /** The body of `[Symbol.for("nodejs.util.inspect.custom")]`: the rich form to the cell, the text returned. */
  inspectRich(
    render: () => RichOutput,
    text: string,
    depth?: number,
    options?: { readonly depth?: number | null },
    shownText?: string,
  ): string;
  /** The body of `[Symbol.for("Jupyter.display")]`. */
  jupyterBundle(render: () => RichOutput, text: string): MimeBundle;
  /** A job result (and its fitted state) that renders as a notebook cell's value. */
  displayableResult(result: JobResult): JobResult;
  /** Shows a one-line notice in the running cell; false when there is none to show it in. */
  showNotice(message: string): boolean;
  /** Hears the kernel's stop button while a call runs; undefined outside a notebook kernel. */
  listenForKernelInterrupt(said: string): KernelInterrupt | undefined;
  followJob<R extends JobSnapshot>(following: JobFollowing<R>): Promise<R>;
  followPipeline<T>(following: PipelineFollowing<T>): Promise<T>;
  compareJob(job: ComparedJob, options: ComparisonOptions): Promise<ComparisonChart>;
}

function plainHtml(view: unknown): string {
  const text = JSON.stringify(view, null, 2);
  return `<pre>${text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</pre>`;
}

const plainText = (view: unknown): string => JSON.stringify(view, null, 2);

/** Text only: what session/ shows when display/ was never loaded. */
const plain: Presentation = {
  html: {
    session: plainHtml,
    blob: plainHtml,
    job: plainHtml,
    preflight: plainHtml,
    whoami: plainHtml,
    doctor: plainHtml,
    portalLink: plainHtml,
    pipeline: plainHtml,
    fittedPipeline: plainHtml,
  },
  text: { whoami: plainText, doctor: plainText },
  inspectRich: (_render, text) => text,
  jupyterBundle: (_render, text) => ({ "text/plain": text }),
  displayableResult: (result) => result,
  showNotice: () => false,
  listenForKernelInterrupt: () => undefined,
  followJob: (following) => following.wait(() => undefined),
  followPipeline: (following) => following.until(),
  compareJob: () =>
    Promise.reject(new Error('Job.compare() draws with mdps\'s display layer: import { Session } from "mdps".')),
};

let current: Presentation = plain;

/** The presentation in use. */
export function presentation(): Presentation {
  return current;
}

/** Sets how session values are shown (display/ does, once, as the package's entry loads). */
export function registerPresentation(shown: Presentation): void {
  current = shown;
}
