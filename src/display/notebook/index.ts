/**
 * mdps in notebooks (tslab or Deno's kernel): rich HTML for sessions, blobs, jobs, results
 * and DataFrames, a live job status, and before/after distribution plots. Nothing here
 * imports tslab; see kernel-display.ts for how the kernel's own display is found.
 */
export { findKernel, inNotebook, newKernelDisplay, outputsSent, setNotebookKernel } from "./kernel-display.js";
export type { NotebookDisplay, NotebookKernel } from "./kernel-display.js";
export {
  INSPECT_CUSTOM,
  JUPYTER_DISPLAY,
  displayRich,
  inspectRich,
  jupyterBundle,
  withJupyterDisplay,
} from "./rich-inspect.js";
export type { MimeBundle, RichOutput } from "./rich-inspect.js";
export { show, toHTML, toText, richOutput } from "./show.js";
export {
  blobHtml,
  blobListHtml,
  blobText,
  jobHtml,
  jobText,
  resultHtml,
  resultText,
  sessionHtml,
  sessionText,
} from "../render/records.js";
export type { SessionInfo } from "../render/records.js";
export { fittedHtml } from "../render/fitted.js";
export { dataFrameHtml, tableHtml, tableText } from "../render/table.js";
export type { DataFrameLike, TableHtmlOptions } from "../render/table.js";
export { LiveStatus, liveStatusHtml } from "./live-status.js";
export type { JobSnapshot, LiveStatusOptions, LogLine, ProgressMode } from "./live-status.js";
export { compareDistributions, comparisonSpec, distributionsSpec, plotDistributions } from "./compare-plot.js";
export type { CompareOptions } from "./compare-plot.js";
export { histogram } from "../render/histogram.js";
export type { Bin, ColumnSource, Histogram } from "../render/histogram.js";
export { SvgChart } from "./svg-chart.js";
export type { VegaLiteSpec } from "../render/vega-svg.js";
export { JobProgress, jobProgress, watch } from "./job-progress.js";
export type { LogFetcher, ProgressOptions, WatchableJob, WatchOptions, WatchWaitOptions } from "./job-progress.js";
export { plotComparison } from "./job-plot.js";
export { plotJoint } from "./joint-plot.js";
export type { PlotInput, PlottableBlob, PlottableJob } from "./joint-plot.js";
export { jointSpec } from "../render/joint-spec.js";
export type { JointOptions } from "../render/joint-spec.js";
export { renderVegaLite } from "./render-vega-lite.js";
export type { RenderOptions } from "./render-vega-lite.js";
export { compareRanges } from "./compare-ranges.js";
export type { RangeRow } from "./compare-ranges.js";
export type { ComparableJob, PlotComparisonOptions } from "./job-plot.js";
