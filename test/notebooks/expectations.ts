/**
 * What each executed notebook must show, beyond "no error": the things a reader checks
 * by eye (the job reached `succeeded`, the result has the expected shape, a plot is there,
 * the service's output and the local transform agree). Cells are found by their source,
 * so adding a markdown cell does not break these.
 */
import { expect } from "vitest";
import { PREPROCESSING_TYPES } from "../../src/core/contract/transform-types.js";
import { joinText, type Cell, type ExecutedNotebook } from "./jupyter.js";
import { chartLabels } from "../notebook/chart-labels.js";
import { chartMarks } from "../notebook/chart-marks.js";

export interface Executed {
  notebook: ExecutedNotebook;
  /** Text of each cell's outputs (stdout, text/plain and text/html), by cell index. */
  texts: string[];
  /** All of it in one string. */
  all: string;
  /** The SVG of each chart displayed, in order. */
  charts: string[];
}

/** HTML as the words a reader sees. */
function plain(html: string): string {
  return html
    .replace(/<\/tr>/g, "\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'").replace(/&quot;/g, '"')
    .replace(/[ \t]+/g, " ");
}

function cellWith(run: Executed, snippet: string): { cell: Cell; text: string } {
  const index = run.notebook.cells.findIndex((c) => c.cell_type === "code" && joinText(c.source).includes(snippet));
  if (index < 0) throw new Error(`no code cell contains ${JSON.stringify(snippet)}`);
  return { cell: run.notebook.cells[index]!, text: plain(run.texts[index] ?? "") };
}

/** The words of a chart: titles, headers and legend entries (axis numbers left out). */
function chartTitles(svg: string): string[] {
  return chartLabels(svg);
}

/** The notebook fits every transform of the contract's list, as this one. */
const TYPES = PREPROCESSING_TYPES;

export const EXPECTATIONS: Record<string, (run: Executed) => void> = {
  smoke: (run) => {
    const { notebook, texts, charts } = run;
    expect(texts[1]).toContain("in notebook: true");
    // The live status replaced its first state in place: one output, the final one.
    const live = notebook.cells[2]?.outputs ?? [];
    expect(live).toHaveLength(1);
    expect(texts[2]).toContain("succeeded");
    expect(texts[2]).toContain("fitting 2 columns");
    expect(texts[2]).not.toContain("elapsed");
    expect(texts[3]).toContain("3 rows × 1 columns");
    expect(charts).toHaveLength(1);
    expect(charts[0]).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(texts[4]).toContain('alt="Histograms of x: before and after"');
    expect(texts[4]).toMatch(/SvgChart\(\d+×\d+\)/);
    // Bars split by the colour column of the first data set, with a legend of its two classes.
    expect(chartMarks(charts[0]!)).toMatchObject({ histograms: 2, legendEntries: 2 });
    expect(chartTitles(charts[0]!)).toEqual(expect.arrayContaining(["kind", "a", "b"]));
    // The session's notice, as a line in the cell (never stderr, which fails the run).
    const notice = cellWith(run, "with-na.csv").text;
    expect(notice).toContain("MdpsWarning");
    expect(notice).toMatch(/with-na\.csv is not plain CSV .*uploading a normalised copy/s);
  },

  "01-quickstart": (run) => {
    expect(cellWith(run, "Session.local()").text).toContain("embedded reference service");
    expect(cellWith(run, "session.upload(").text).toContain("customers.csv");
    const live = cellWith(run, "await watch(job");
    expect(live.cell.outputs).toHaveLength(1);
    expect(live.text).toContain("StandardScaler");
    expect(live.text).toContain("succeeded");
    expect(live.text).toContain("100%");
    expect(cellWith(run, "job.dataframe()").text).toContain("600 rows × 8 columns");
    const result = cellWith(run, "job.result()").text;
    for (const attribute of ["mean_", "var_", "scale_"]) expect(result).toContain(attribute);
    // Standardised: std 1.00083 (n - 1 divisor) in every column, means ~1e-16.
    const check = cellWith(run, "describe(scaled").text;
    expect(check.match(/1\.00083/g)).toHaveLength(6);
    expect(run.charts).toHaveLength(1);
    expect(chartTitles(run.charts[0]!)).toEqual(
      expect.arrayContaining(["age", "income", "spend_score", "tenure_months", "visits_per_month", "balance", "before", "after", "StandardScaler"]),
    );
  },

  "02-eight-transforms": (run) => {
    const live = cellWith(run, "await watch(jobs.values()");
    const statuses = (live.cell.outputs ?? []).filter((o) => o.output_type === "display_data");
    expect(statuses).toHaveLength(8);
    for (const status of statuses) expect(plain(joinText(status.data?.["text/html"]))).toContain("succeeded");
    // Nothing below the statuses: watch resolves to nothing, not an array of undefined.
    expect((live.cell.outputs ?? []).filter((o) => o.output_type !== "display_data")).toEqual([]);
    expect(cellWith(run, "sideBySide").text).toContain("5 rows × 9 columns");
    const fitted = cellWith(run, "job.result()").text;
    for (const type of TYPES) expect(fitted).toContain(`Result of ${type}`);
    for (const attribute of ["max_abs_", "data_min_", "lambdas_", "quantiles_", "center_", "mean_"]) expect(fitted).toContain(attribute);
    expect(run.charts).toHaveLength(1);
    expect(chartTitles(run.charts[0]!)).toEqual(expect.arrayContaining(["original", ...TYPES, "income", "balance"]));
  },

  "03-train-test": (run) => {
    expect(cellWith(run, "await watch(job").text).toContain("succeeded");
    expect(cellWith(run, "transformer.transform(test)").text).toContain("200 rows × 6 columns");
    expect(cellWith(run, "maxDifference").text).toContain("largest difference between the service's output and the local transform: 0\n");
    // The test machines ran warmer: with the training fit, test temperature stays shifted.
    const means = cellWith(run, "train_mean").text;
    const temperature = /temperature\s+(-?[\d.e-]+)\s+(-?[\d.e-]+)/.exec(means);
    expect(temperature, means).not.toBeNull();
    expect(Math.abs(Number(temperature![1]))).toBeLessThan(1e-3);
    expect(Number(temperature![2])).toBeGreaterThan(0.2);
    expect(run.charts).toHaveLength(1);
    const svg = run.charts[0]!;
    expect(chartTitles(svg)).toEqual(expect.arrayContaining(["temperature", "vibration", "pressure", "rpm"]));
    expect(chartTitles(svg)).toEqual(expect.arrayContaining(["train", "test"])); // the overlay's legend
    const restored = cellWith(run, "transformer.inverseTransform(testScaled)").text;
    const roundTrip = /inverseTransform\(transform\(test\)\): ([\d.e+-]+)/.exec(restored);
    expect(roundTrip, restored).not.toBeNull();
    expect(Number(roundTrip![1])).toBeLessThan(1e-12);
    expect(restored).toContain("test, back in its original units");
  },

  "04-blobs": (run) => {
    expect(cellWith(run, "show(session.blobs());").text).toContain("3 blobs");
    expect(cellWith(run, "frame.update(").text).toMatch(/size \d+ -> \d+ bytes/);
    expect(cellWith(run, "ifMatch").text).toContain("PreconditionFailedError (412)");
    const encrypted = cellWith(run, "encrypt: true").text;
    expect(encrypted).toContain("🔒");
    expect(encrypted).toContain("the key prints as ***");
    const raw = cellWith(run, "blobs.download(secretBlob.id)").text;
    const stored = /stored: (\d+) bytes, starting ([0-9a-f]+)/.exec(raw);
    const decrypted = /decrypted: (\d+) bytes, starting "customer_id,/.exec(raw);
    expect(stored && decrypted, raw).toBeTruthy();
    expect(Number(stored![1])).toBeGreaterThan(Number(decrypted![1]));
    expect(Buffer.from(stored![2]!, "hex").toString()).not.toContain("customer");
    expect(cellWith(run, "withKey(generateEncryptionKey())").text).toContain("DecryptionError");
    expect(cellWith(run, 'type: "MinMaxScaler"').text).toContain("600 rows × 8 columns");
    const deleted = cellWith(run, "asJson.delete()").text;
    expect(deleted).toContain("3 blobs");
    expect(deleted).toContain("NotFoundError (404)");
  },

  "05-regional-service": (run) => {
    expect(cellWith(run, "resolveConfig()").text).toContain("MDPS_BASE_URL");
    expect(run.all.match(/skipped: no service configured/g)).toHaveLength(3);
  },

  "06-cancel": (run) => {
    expect(cellWith(run, "await job.cancel();").text).toContain("status: cancelled");
    // The live status of the wait shows the job cancelled (not failed), then the typed error.
    const waited = cellWith(run, "await job.wait();").text;
    expect(waited).toMatch(/PowerTransformer · job [0-9a-f]{8} cancelled/);
    expect(waited).not.toContain("failed");
    expect(waited).toMatch(
      /JobCancelledError \(job_cancelled\): Job [0-9a-f-]{36} was cancelled: cancelled by request\. It has no result; submit it again if you still need it\./,
    );
    const again = cellWith(run, "small.cancel()").text;
    expect(again).toContain("again: cancelled");
    expect(again).toMatch(
      /JobAlreadyEndedError \(409\): Job [0-9a-f-]{36} already ended as succeeded; only a queued or running job can be cancelled\./,
    );
  },

  "07-pipeline": (run) => {
    expect(cellWith(run, "readCsv(\"data/sensors_train.csv\")").text).toContain("train: 800 readings, test: 200");
    expect(cellWith(run, "show(pipeline)").text).toMatch(/mdps Pipeline.*PowerTransformer on vibration.*MinMaxScaler on vibration.*StandardScaler on temperature, pressure, rpm/s);
    // The chain's card replaced its first state in place: one output, every step succeeded.
    const live = cellWith(run, "await pipeline.fit(train");
    expect(live.cell.outputs).toHaveLength(1);
    expect(live.text).toContain("3 of 3 steps succeeded");
    expect(live.text.match(/succeeded/g)).toHaveLength(4);
    expect(live.text).not.toMatch(/pending|elapsed/);
    const fitted = cellWith(run, "show(fitted)").text;
    for (const attribute of ["mdps FittedPipeline", "lambdas_", "data_min_", "mean_"]) expect(fitted).toContain(attribute);
    expect(cellWith(run, "fitted.transform(test)").text).toContain("200 rows × 6 columns");
    const same = cellWith(run, "maxDifference").text;
    expect(same).toContain("jobs: 3, one per step");
    expect(same).toContain("largest difference between the chain's output and the local pipeline: 0\n");
    expect(run.charts).toHaveLength(1);
    expect(chartTitles(run.charts[0]!)).toEqual(expect.arrayContaining([...["temperature", "vibration", "pressure", "rpm"], "train", "test"]));
    expect(cellWith(run, "Pipeline.fromJSON(").text).toMatch(/\d+ bytes, 3 steps; the same test output after the round trip: true/);
    const restored = cellWith(run, "fitted.inverseTransform(testScaled)").text;
    expect(restored).toContain("invertible: true");
    const roundTrip = /inverseTransform\(transform\(test\)\): ([\d.e+-]+)/.exec(restored);
    expect(roundTrip, restored).not.toBeNull();
    expect(Number(roundTrip![1])).toBeLessThan(1e-12);
    // A failing middle step: its row says failed, the next never started, the error names the step.
    const failing = cellWith(run, "PipelineStepError)").text;
    expect(failing).toContain("1 of 3 steps succeeded");
    expect(failing).toMatch(/PowerTransformer\s+pressure\s+failed/);
    expect(failing).toMatch(/MinMaxScaler\s+pressure\s+pending/);
    expect(failing).toContain("PipelineStepError: step 2 of 3 (PowerTransformer) failed");
    expect(failing).toContain("strictly positive");
  },

  "08-scalers-with-outliers": (run) => {
    // The gallery's figure: 10 data sets (the input and nine transforms), each a full and a zoomed scatter.
    const figure = cellWith(run, "plotJoint(");
    expect(figure.cell.source.length, "the figure takes ten lines of code or fewer").toBeLessThanOrEqual(10);
    expect(figure.text).not.toMatch(/succeeded/); // the plot reads its jobs quietly: no status cards
    expect(run.charts.length).toBeGreaterThanOrEqual(1);
    const marks = chartMarks(run.charts[0]!);
    expect(marks.scatters).toBe(20);
    expect(marks.histograms).toBe(40); // two margins per scatter
    expect(marks.bars).toBe(40 * 40);
    expect(marks.legendEntries).toBe(2); // benign, malignant
    // 569 rows in each full panel; each zoom draws the rows inside p0-p99 of both columns, as its title says
    // (559 for most; 557 after Normalizer, whose rows move together).
    const labels = chartLabels(run.charts[0]!);
    const zoomed = labels.map((l) => /zoom on p0-p99 of both \((\d+) rows\)/.exec(l)).filter((m) => m !== null);
    expect(zoomed).toHaveLength(10);
    expect(Number(zoomed[0]![1])).toBe(559);
    expect(marks.points).toBe(10 * 569 + zoomed.reduce((n, m) => n + Number(m[1]), 0));
    const rows = [
      "breast-cancer.csv", "StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler", "PowerTransformer",
      "PowerTransformer (method=box-cox)", "QuantileTransformer (n_quantiles=569)",
      "QuantileTransformer (n_quantiles=569 output_distribution=normal)", "Normalizer",
    ];
    for (const name of rows) {
      expect(labels).toContain(name);
    }
    const ranges = cellWith(run, 'compareRanges([cancer, ...jobs]').text;
    expect(ranges).toMatch(/breast-cancer\.csv\s+6\.802\s+8\.51444\s+24\.53\s+177\.684\s+542\.2/);
    expect(ranges).toMatch(/MinMaxScaler\s+0\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+1\b/);
    const fitted = cellWith(run, "show(await job.result())").text;
    for (const attribute of ["mean_", "scale_", "center_"]) expect(fitted).toContain(attribute);
    expect(cellWith(run, "whatIf").text).toMatch(/RobustScaler \(quantile_range=1,99\)/);
  },

  "09-map-to-normal": (run) => {
    // The gallery's grid: six distributions, the input and three transforms, λ under each power transform's panel.
    const figure = cellWith(run, "plotDistributions(");
    expect(figure.cell.source.length, "the figure takes fifteen lines of code or fewer").toBeLessThanOrEqual(15);
    expect(figure.text).not.toMatch(/succeeded/); // the plot reads its jobs quietly
    expect(run.charts.length).toBeGreaterThanOrEqual(1);
    const marks = chartMarks(run.charts[0]!);
    expect(marks.histograms).toBe(24);
    expect(marks.bars).toBe(24 * 30);
    const labels = chartLabels(run.charts[0]!);
    for (const header of ["lognormal", "bimodal", "original", "After Box-Cox", "After quantile transform"]) {
      expect(labels.filter((l) => l === header), header).toHaveLength(1);
    }
    // scikit-learn 1.2.1's lambdas (notebooks/data/map_to_normal.py prints them), Box-Cox then Yeo-Johnson.
    const lambdas = labels.flatMap((l) => /^λ = (-?[\d.]+)/.exec(l)?.[1] ?? []).map(Number);
    expect(lambdas).toEqual([0.02, 0.3, 12.61, 4.62, 0.65, 0.48, -0.81, -0.11, 24.54, 4.66, 0.49, 0.48]);
  },

  // Deno's kernel only (deno-notebooks.test.ts): each value left as a cell's value renders as show() draws it.
  values: (run) => {
    // A snippet, or a whole cell's source when it is a bare name such as `job`.
    const value = (snippet: string) => {
      const whole = run.notebook.cells.findIndex((c) => joinText(c.source).trim() === snippet);
      const { cell, text } =
        whole >= 0 ? { cell: run.notebook.cells[whole]!, text: plain(run.texts[whole] ?? "") } : cellWith(run, snippet);
      const result = (cell.outputs ?? []).find((o) => o.output_type === "execute_result");
      expect(result?.data?.["text/html"], `${snippet}: no HTML value`).toBeDefined();
      return { text, plainText: joinText(result?.data?.["text/plain"]) };
    };
    const session = value("Session.local()");
    expect(session.text).toContain("embedded reference service");
    expect(session.plainText).toMatch(/^Session\(local http:\/\/127\.0\.0\.1:\d+, model [0-9a-f-]{36}\)$/);
    expect(value("session.upload(frame").text).toContain("xy");
    const live = cellWith(run, "await watch(job");
    expect(live.cell.outputs).toHaveLength(1);
    expect(live.text).toContain("succeeded");
    expect(live.text).toContain("100%");
    expect(live.text).not.toContain("elapsed");
    const job = value("job");
    expect(job.text).toContain("StandardScaler");
    expect(job.text).toContain("succeeded");
    expect(job.plainText).toMatch(/^Job\([0-9a-f-]{36}, succeeded\)$/);
    expect(value("job.result()").text).toContain("Result of StandardScaler");
    const fitted = value("result.fitted").text;
    for (const attribute of ["mean_", "var_", "scale_"]) expect(fitted).toContain(attribute);
    expect(cellWith(run, "job.dataframe()").text).toContain("6 rows × 2 columns");
    expect(value("session.check(").text).toContain("PowerTransformer");
    expect(run.charts).toHaveLength(1);
    expect(chartTitles(run.charts[0]!)).toEqual(expect.arrayContaining(["x", "y", "before", "after"]));
    expect(cellWith(run, "show({ plain").text).toContain("plain");
  },

  "05-regional-service+connected": (run) => {
    const config = cellWith(run, "resolveConfig()").text;
    expect(config).toContain("(from the environment)");
    expect(config).toContain("secret ***");
    expect(cellWith(run, "Session.connect()").text).toContain("health: healthy, region eu-test-1");
    const work = cellWith(run, "RobustScaler").text;
    expect(work).toContain("succeeded");
    expect(work).toContain("600 rows × 8 columns");
    expect(cellWith(run, "blob.delete()").text).toContain("deleted the 2 blobs");
    expect(run.all).not.toContain("skipped");
  },
};
