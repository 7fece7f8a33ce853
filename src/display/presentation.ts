/**
 * display/'s side of the presentation port (session/presentation/registry.ts): how
 * session values render in tslab, Deno and `inspect`, registered when this module loads.
 * The package's entry (src/index.ts) loads it, so `import { Session } from "mdps"` shows
 * everything richly; session/ itself never imports display/.
 */
import { registerPresentation } from "../session/presentation/registry.js";
import { doctorHtml, doctorText, whoamiHtml, whoamiText } from "./render/diagnostics.js";
import { fittedHtml } from "./render/fitted.js";
import { pipelineHtml, portalLinkHtml } from "./render/pipeline-and-link.js";
import { preflightHtml } from "./render/preflight.js";
import { blobHtml, jobHtml, sessionHtml } from "./render/records.js";
import { displayableResult } from "./notebook/displayable-result.js";
import { plotComparison, type PlotComparisonOptions } from "./notebook/job-plot.js";
import { followWithStatus, jobProgress } from "./notebook/job-progress.js";
import { listenForKernelInterrupt } from "./notebook/kernel-interrupt.js";
import type { LiveStatus } from "./notebook/live-status.js";
import { showNotice } from "./notebook/notice.js";
import { followPipeline, pipelineFittedHtml } from "./notebook/pipeline-card.js";
import { inspectRich, jupyterBundle } from "./notebook/rich-inspect.js";
import type { SvgChart } from "./notebook/svg-chart.js";
import type { ColumnSource as PlotColumns } from "./render/histogram.js";

declare module "../session/presentation/views.js" {
  interface PresentedTypes {
    readonly progressSink: LiveStatus;
    readonly comparisonChart: SvgChart;
    readonly comparisonOptions: PlotComparisonOptions;
    readonly columnSource: PlotColumns;
  }
}

registerPresentation({
  html: {
    session: sessionHtml,
    blob: blobHtml,
    job: jobHtml,
    preflight: preflightHtml,
    whoami: whoamiHtml,
    doctor: doctorHtml,
    portalLink: portalLinkHtml,
    pipeline: pipelineHtml,
    fittedPipeline: (steps) =>
      pipelineFittedHtml(steps.map(({ fitted, ...step }) => ({ ...step, fittedHtml: fittedHtml(fitted) }))),
  },
  text: { whoami: whoamiText, doctor: doctorText },
  inspectRich,
  jupyterBundle,
  displayableResult,
  showNotice,
  listenForKernelInterrupt,
  followJob: ({ progress, title, fetchLogs, wait }) =>
    followWithStatus(jobProgress({ progress, title }, fetchLogs), wait),
  followPipeline,
  compareJob: plotComparison,
});
