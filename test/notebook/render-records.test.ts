import { describe, expect, it } from "vitest";
import type { BlobRecord, JobRecord, JobResult } from "../../src/core/contract/index.js";
import {
  blobHtml,
  blobListHtml,
  jobHtml,
  jobText,
  resultHtml,
  sessionHtml,
  sessionText,
} from "../../src/display/render/records.js";
import { fittedHtml } from "../../src/display/render/fitted.js";

const MODEL = "0b8f1a3e-5c2d-4e6f-8a9b-1c2d3e4f5a6b";
const BLOB = "7d1e2f3a-4b5c-4d6e-9f0a-1b2c3d4e5f60";
const JOB = "c4a5b6d7-e8f9-4a0b-8c1d-2e3f4a5b6c7d";
const KEY = "q3Zr9w1Yk2Xv8Tb7Ns6Md5Lc4Ka3Jz2Iy1Hx0Gw9Fv8="; // a key-shaped secret

const blob: BlobRecord = {
  id: BLOB,
  model_id: MODEL,
  name: "train.csv",
  description: "training rows",
  record_type: "csv",
  access_tier: "hot",
  tags: ["split=train", "demo"],
  content_type: "text/csv",
  size_bytes: 123_456,
  sha256: "ab".repeat(32),
  encrypted: true,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:01Z",
};

function job(overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id: JOB,
    model_id: MODEL,
    job_type: "preprocessing",
    status: "running",
    progress: 0.4,
    phase: "fitting",
    created_at: "2026-01-01T00:00:00.000Z",
    started_at: "2026-01-01T00:00:00.500Z",
    finished_at: null,
    attempts: 1,
    error: null,
    request: {
      model_id: MODEL,
      input_blob_id: BLOB,
      input_encryption_key: KEY,
      preprocessing_type: "StandardScaler",
      preprocessing_params: { with_mean: true },
      feature_columns: ["age", "income"],
      output: [{ name: "out", encryption_key: KEY }],
    },
    events: [],
    ...overrides,
  };
}

const fitted = {
  type: "StandardScaler" as const,
  params: { with_mean: true, with_std: true, copy: true },
  feature_names_in_: ["age", "income"],
  n_features_in_: 2,
  mean_: [41.5, 52000.123456789],
  scale_: [12.25, null],
  n_samples_seen_: 1000,
  quantiles_: [
    [1, 2],
    [3, 4],
    [5, 6],
  ],
};

describe("record renderers", () => {
  it("shows a session without anything secret-shaped", () => {
    const info = {
      baseUrl: "http://127.0.0.1:4100",
      modelId: MODEL,
      region: "local",
      clientId: "cli_abc",
      local: true,
      dataDir: "/tmp/d",
    };
    const html = sessionHtml(info);
    expect(html).toContain("http://127.0.0.1:4100");
    expect(html).toContain(">0b8f1a3e<");
    expect(html).toContain("cli_abc");
    expect(html).not.toMatch(/secret|token/i);
    expect(sessionText(info)).toBe("Session(local http://127.0.0.1:4100 model 0b8f1a3e)");
  });

  it("shows a blob with short id, size, tags and the lock", () => {
    const html = blobHtml(blob);
    expect(html).toContain("train.csv");
    expect(html).toContain(">7d1e2f3a<");
    expect(html).toContain(`title="${BLOB}"`);
    expect(html).toContain("121 KiB");
    expect(html).toContain("split=train");
    expect(html).toContain("🔒");
    expect(blobListHtml([blob, { ...blob, encrypted: false, name: "b" }])).toContain("2 blobs");
  });

  it("never shows request keys of a job, redacted or not", () => {
    for (const key of [KEY, "***"]) {
      const record = job({ request: { ...(job().request as object), input_encryption_key: key } });
      const html = jobHtml(record);
      expect(html).not.toContain(KEY);
      expect(html).not.toContain("***");
      expect(html).not.toContain("encryption");
      expect(jobText(record)).not.toContain(KEY);
    }
  });

  it("shows a running job's transform, phase and progress", () => {
    const html = jobHtml(job());
    expect(html).toContain("StandardScaler");
    expect(html).toContain("age, income");
    expect(html).toContain("fitting");
    expect(html).toContain("40%");
    expect(html).toContain("████████░░░░░░░░░░░░");
    expect(jobText(job())).toBe("Job(c4a5b6d7 StandardScaler running fitting 40%)");
  });

  it("shows a failed job's error and a job sent through the generic endpoint", () => {
    const failed = job({
      status: "failed",
      finished_at: "2026-01-01T00:00:02Z",
      error: { title: "Column not numeric", detail: "column <city> holds text" },
      request: {
        job_id: JOB,
        model_id: MODEL,
        job_type: "preprocessing",
        payload: { preprocessing_type: "Binarizer", input_encryption_key: KEY },
      },
    });
    const html = jobHtml(failed);
    expect(html).toContain("Column not numeric");
    expect(html).toContain("column &lt;city&gt; holds text");
    expect(html).toContain("Binarizer");
    expect(html).toContain("took");
    expect(html).toContain("1.5 s");
    expect(html).not.toContain(KEY);
  });

  it("shows a result with its outputs and fitted statistics", () => {
    const result: JobResult = {
      job_id: JOB,
      status: "succeeded",
      rows: 1000,
      columns: ["age", "income", "city"],
      outputs: [{ ...blob, name: "scaled" }],
      fitted,
      duration_ms: 420,
    };
    const html = resultHtml(result);
    expect(html).toContain("Result of StandardScaler");
    expect(html).toContain("1,000 rows × 3 columns");
    expect(html).toContain("420 ms");
    expect(html).toContain("scaled");
    expect(html).toContain("<code>mean_</code>");
    expect(html).toContain("52000.1");
  });

  it("lays out fitted state per feature and summarises the rest", () => {
    const html = fittedHtml(fitted);
    expect(html).toContain("<code>scale_</code>");
    expect(html).toContain(">NaN<"); // null in JSON = NaN in the engine
    expect(html).toContain("<code>quantiles_</code> [3 × 2] values");
    expect(html).toContain("<code>n_samples_seen_</code> 1000");
    const rows = html.match(/<tr>/g) ?? [];
    expect(rows).toHaveLength(3); // head + two features
  });
});
