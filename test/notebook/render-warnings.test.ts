import { describe, expect, it } from "vitest";
import type { JobResult, JobWarning } from "../../src/core/contract/index.js";
import { fitTransform } from "../../src/core/engine/index.js";
import { liveStatusHtml } from "../../src/display/notebook/live-status.js";
import { resultHtml } from "../../src/display/render/records.js";
import { logLinesHtml, WARNING_STYLE, warningsHtml } from "../../src/display/render/warnings.js";

const result = (warnings: JobWarning[]): JobResult => ({
  job_id: "00000000-0000-4000-8000-000000000001",
  status: "succeeded",
  rows: 3,
  columns: ["x"],
  outputs: [],
  fitted: fitTransform("StandardScaler", {}, { names: ["x"], columns: [Float64Array.of(1, 2, 3)] }).fitted,
  duration_ms: 5,
  warnings,
});

const warning = {
  code: "n_quantiles_capped",
  column: null,
  message:
    'n_quantiles 1000 is more than the 134 rows. scikit-learn 1.2.1 warns: "n_quantiles (1000) is greater than ..."',
};

describe("scikit-learn's warnings in notebooks", () => {
  it("the result card lists them in yellow, escaped", () => {
    const html = resultHtml(result([warning]));
    expect(html).toContain("scikit-learn would warn");
    expect(html).toContain(`<li style="${WARNING_STYLE};margin:2px 0">⚠ n_quantiles 1000 is more than the 134 rows.`);
    expect(html).toContain("&quot;n_quantiles (1000)");
  });

  it("says nothing when there are none", () => {
    expect(warningsHtml([])).toBe("");
    expect(warningsHtml(undefined)).toBe("");
    expect(resultHtml(result([]))).not.toContain("would warn");
  });

  it("the live job card shows warning log lines in yellow and the others muted", () => {
    const logs = [
      { level: "info", message: "read 134 rows" },
      { level: "warning", message: "n_quantiles_capped: <more> than the rows" },
    ];
    const html = liveStatusHtml({ status: "succeeded", progress: 1 }, logs, "Job", 10, true);
    expect(html).toContain(
      `<span style="${WARNING_STYLE}">[warning] n_quantiles_capped: &lt;more&gt; than the rows</span>`,
    );
    expect(html).toContain("read 134 rows\n");
    expect(logLinesHtml([])).toBe("");
  });
});
