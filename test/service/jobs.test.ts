import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { blobRecord, jobResult, logDetails } from "../../src/core/contract/index.js";
import {
  Api,
  expectProblem,
  Harness,
  json,
  outputsOf,
  preprocessingBody,
  referenceJob,
  tokenFor,
} from "./service-harness.js";

const h = new Harness();
let api: Api;
let blobId: string;
const rows = [
  ["id", "city", "x", "y"],
  ["r1", "Leeds", "1", "10"],
  ["r2", "York", "2", "20"],
  ["r3", "Hull", "3", ""],
  ["r4", "Bath", "6", "50"],
];
const csv = `${rows.map((r) => r.join(",")).join("\n")}\n`;

/** Population mean and standard deviation ignoring missing values, as StandardScaler fits. */
function stats(values: number[]) {
  const v = values.filter((x) => !Number.isNaN(x));
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const variance = v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length;
  return { mean, scale: Math.sqrt(variance) };
}

/** StandardScaler's fitted statistics, one per feature column. */
const scalerFitted = z.looseObject({ type: z.string(), mean_: z.array(z.number()), scale_: z.array(z.number()) });

function parseCsv(text: string): string[][] {
  return text
    .trim()
    .split("\n")
    .map((line) => line.split(","));
}

beforeAll(async () => {
  const service = await h.inject();
  const app = h.app(service.dataDir);
  api = new Api(service, await tokenFor(service, app), app.modelId);
  blobId = json(blobRecord, await api.upload(csv, { Name: "cities.csv", RecordType: "csv", AccessTier: "hot" })).id;
});
afterAll(() => h.cleanup());

describe("preprocessing workflow", () => {
  it("runs StandardScaler end to end: send, get, logs, result, output blob", async () => {
    const sent = await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(api.modelId, blobId, {
        feature_columns: ["x", "y"],
        output: [{ name: "scaled.csv", tags: ["scaled", "k=v"], access_tier: "cool" }],
      }),
    );
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      model_id: api.modelId,
      job_type: "preprocessing",
      status: "queued",
      attempts: 0,
      error: null,
      finished_at: null,
    });
    const job = await api.waitForJob(json(referenceJob, sent).id);
    expect(job).toMatchObject({ status: "succeeded", progress: 1, phase: "done", attempts: 1, error: null });
    expect(job.request).toMatchObject({
      preprocessing_type: "StandardScaler",
      preprocessing_params: { with_mean: true, with_std: true, copy: true },
      request_timeout_seconds: 3600,
    });
    const statuses = job.events.map((e) => e.status);
    expect(statuses[0]).toBe("queued");
    expect(statuses).toContain("running");
    expect(statuses.at(-1)).toBe("succeeded");
    expect(job.started_at !== null && job.finished_at !== null && job.started_at <= job.finished_at).toBe(true);

    // The preprocessing read endpoints see the same job.
    expect(json(referenceJob, await api.call("GET", `/api/ml/preprocessing/job/${job.id}/get`)).id).toBe(job.id);

    const logs = await api.call("GET", `/api/ml/preprocessing/job/${job.id}/logs`);
    expect(logs.status).toBe(200);
    expect(logs.body).toMatchObject({ job_id: job.id, status: "succeeded", truncated: false });
    const { messages } = json(logDetails, logs);
    expect(messages.length).toBeGreaterThanOrEqual(3);
    for (const m of messages) {
      expect(["debug", "info", "warning", "error"]).toContain(m.level);
      expect(m.container).toEqual({ hostname: hostname(), replicaName: "local-worker-1", processId: process.pid });
    }
    expect(messages.map((m) => m.message).join("\n")).toMatch(/4 rows/);

    const result = await api.call("GET", `/api/job/${job.id}/result`);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      job_id: job.id,
      status: "succeeded",
      rows: 4,
      columns: ["id", "city", "x", "y"],
      feature_columns: ["x", "y"],
    });
    const { duration_ms, fitted } = json(jobResult, result);
    expect(duration_ms).toBeGreaterThanOrEqual(0);
    const sx = stats([1, 2, 3, 6]);
    const sy = stats([10, 20, NaN, 50]);
    const scaler = scalerFitted.parse(fitted);
    expect(scaler.type).toBe("StandardScaler");
    expect(scaler.mean_[0]).toBeCloseTo(sx.mean, 12);
    expect(scaler.mean_[1]).toBeCloseTo(sy.mean, 12);
    expect(scaler.scale_[0]).toBeCloseTo(sx.scale, 12);
    expect(scaler.scale_[1]).toBeCloseTo(sy.scale, 12);

    const output = outputsOf(result)[0]!;
    expect(output).toMatchObject({
      model_id: api.modelId,
      name: "scaled.csv",
      record_type: "csv",
      access_tier: "cool",
      tags: ["scaled", "k=v"],
      encrypted: false,
    });
    const out = await api.download(output.id);
    expect(out.headers.get("etag")).toBe(`"${output.sha256}"`);
    const table = parseCsv(out.body.toString());
    expect(table[0]).toEqual(["id", "city", "x", "y"]);
    expect(table.slice(1).map((r) => r.slice(0, 2))).toEqual(rows.slice(1).map((r) => r.slice(0, 2)));
    expect(Number(table[1]?.[2])).toBeCloseTo((1 - sx.mean) / sx.scale, 12);
    expect(Number(table[4]?.[3])).toBeCloseTo((50 - sy.mean) / sy.scale, 12);
    expect(table[3]?.[3]).toBe("");
  });

  it("uses every numeric column when feature_columns is empty, and the newest `limit` events", async () => {
    const sent = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, blobId));
    const job = await api.waitForJob(json(referenceJob, sent).id);
    expect(job.status).toBe("succeeded");
    const result = await api.call("GET", `/api/ml/preprocessing/job/${job.id}/result`);
    expect(json(jobResult, result).fitted?.feature_names_in_).toEqual(["x", "y"]);
    const { events } = json(referenceJob, await api.call("GET", `/api/job/${job.id}/get?limit=1`));
    expect(events).toHaveLength(1);
    expect(events[0]?.status).toBe("succeeded");
    const logs = json(logDetails, await api.call("GET", `/api/job/${job.id}/logs?limit=1`));
    expect(logs.messages).toHaveLength(1);
    expect(logs.truncated).toBe(true);
    expect(logs.messages[0]?.message).toMatch(/succeeded/);
  });

  it("writes each output in its record type", async () => {
    const sent = await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(api.modelId, blobId, {
        feature_columns: ["x"],
        output: [{ name: "a.json", record_type: "JSON" }, { name: "b.csv" }],
      }),
    );
    const job = await api.waitForJob(json(referenceJob, sent).id);
    expect(job.status).toBe("succeeded");
    const outputs = outputsOf(await api.call("GET", `/api/job/${job.id}/result`));
    expect(outputs.map((o) => [o.record_type, o.content_type])).toEqual([
      ["json", "application/json"],
      ["csv", "text/csv"],
    ]);
    const records = JSON.parse((await api.download(outputs[0]!.id)).body.toString()) as Array<Record<string, unknown>>;
    expect(records).toHaveLength(4);
    // x was a feature (a number now); y was not, and passes through as the number it holds.
    expect(records[0]).toMatchObject({ id: "r1", city: "Leeds", y: 10 });
    expect(typeof records[0]?.x).toBe("number");
  });
});

describe("generic job send", () => {
  const envelope = (jobId: string, payload: Record<string, unknown>) => ({
    job_id: jobId,
    model_id: api.modelId,
    job_type: "preprocessing",
    payload,
  });

  it("is idempotent on job_id: the same body gives the same job, another body a 409", async () => {
    const jobId = randomUUID();
    const body = envelope(jobId, preprocessingBody(api.modelId, blobId, { feature_columns: ["x"] }));
    const first = await api.call("POST", "/api/job/send", body);
    expect(first.status).toBe(200);
    const firstJob = json(referenceJob, first);
    expect(firstJob.id).toBe(jobId);
    const reversed = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());
    const again = await api.call("POST", "/api/job/send", { ...reversed(body), payload: reversed(body.payload) });
    expect(again.status).toBe(200);
    const againJob = json(referenceJob, again);
    expect(againJob.id).toBe(jobId);
    expect(againJob.created_at).toBe(firstJob.created_at);
    const other = await api.call(
      "POST",
      "/api/job/send",
      envelope(jobId, preprocessingBody(api.modelId, blobId, { feature_columns: ["y"] })),
    );
    expect(expectProblem(other, 409).detail).toContain(jobId);
    expect((await api.waitForJob(jobId)).status).toBe("succeeded");
    expect(json(jobResult, await api.call("GET", `/api/ml/preprocessing/job/${jobId}/result`)).feature_columns).toEqual(
      ["x"],
    );
  });

  it("rejects an unknown job_type, listing the known ones", async () => {
    const r = await api.call("POST", "/api/job/send", {
      ...envelope(randomUUID(), preprocessingBody(api.modelId, blobId)),
      job_type: "training",
    });
    expect(expectProblem(r, 400).errors?.job_type?.[0]).toContain("preprocessing");
  });

  it("validates the payload with field paths under payload", async () => {
    const r = await api.call(
      "POST",
      "/api/job/send",
      envelope(randomUUID(), preprocessingBody(api.modelId, blobId, { preprocessing_type: "Scaler" })),
    );
    expect(expectProblem(r, 400).errors).toHaveProperty(["payload.preprocessing_type"]);
  });
});

describe("submit-time validation", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["unknown preprocessing_type", { preprocessing_type: "Whitener" }, "preprocessing_type"],
    ["bad param value", { preprocessing_params: { with_mean: "yes" } }, "preprocessing_params.with_mean"],
    ["unknown param", { preprocessing_params: { bogus: 1 } }, "preprocessing_params.bogus"],
    [
      "params of another type",
      { preprocessing_type: "MinMaxScaler", preprocessing_params: { feature_range: [1, 0] } },
      "preprocessing_params.feature_range",
    ],
    ["timeout 0", { request_timeout_seconds: 0 }, "request_timeout_seconds"],
    ["timeout too long", { request_timeout_seconds: 86_401 }, "request_timeout_seconds"],
    ["timeout not integer", { request_timeout_seconds: 1.5 }, "request_timeout_seconds"],
    ["no output", { output: [] }, "output"],
    ["output without name", { output: [{}] }, "output[0].name"],
    ["output record type", { output: [{ name: "o", record_type: "xml" }] }, "output[0].record_type"],
    ["output access tier", { output: [{ name: "o", access_tier: "frozen" }] }, "output[0].access_tier"],
    ["feature_columns not an array", { feature_columns: "x" }, "feature_columns"],
    ["input blob id not a uuid", { input_blob_id: "blob-1" }, "input_blob_id"],
    ["unknown field", { colour: "red" }, "colour"],
    ["malformed input key", { input_encryption_key: "c2hvcnQ=" }, "input_encryption_key"],
    ["malformed output key", { output: [{ name: "o", encryption_key: "not-a-key" }] }, "output[0].encryption_key"],
  ];

  it.each(cases)("%s is a 400 with errors", async (_name, over, field) => {
    const r = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, blobId, over));
    const problem = expectProblem(r, 400);
    expect(problem.errors).toHaveProperty([field]);
    expect(JSON.stringify(problem)).not.toContain("c2hvcnQ=");
    expect(JSON.stringify(problem)).not.toContain("not-a-key");
  });

  it("reports all missing fields of an empty body", async () => {
    const problem = expectProblem(await api.call("POST", "/api/ml/preprocessing/job/send", {}), 400);
    expect(Object.keys(problem.errors ?? {}).sort()).toEqual([
      "input_blob_id",
      "model_id",
      "output",
      "preprocessing_type",
    ]);
  });

  it("rejects a body that is not JSON", async () => {
    expectProblem(await api.call("POST", "/api/ml/preprocessing/job/send", "{not json"), 400);
    expectProblem(
      await api.call("POST", "/api/ml/preprocessing/job/send", "model_id=x", {
        "content-type": "application/x-www-form-urlencoded",
      }),
      415,
    );
    expectProblem(await api.call("POST", "/api/ml/preprocessing/job/send"), 400);
  });

  it("an unknown input blob is a 404", async () => {
    const missing = randomUUID();
    expect(
      expectProblem(
        await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, missing)),
        404,
      ).detail,
    ).toContain(missing);
  });

  it("limit outside 1..10000 and non-UUID job ids are 400s", async () => {
    const id = randomUUID();
    for (const limit of ["0", "10001", "ten", "1.5"]) {
      expect(expectProblem(await api.call("GET", `/api/job/${id}/get?limit=${limit}`), 400).errors).toHaveProperty(
        "limit",
      );
      expect(
        expectProblem(await api.call("GET", `/api/ml/preprocessing/job/${id}/logs?limit=${limit}`), 400).errors,
      ).toHaveProperty("limit");
    }
    expect(expectProblem(await api.call("GET", "/api/job/123/result"), 400).errors).toHaveProperty("id");
    expectProblem(await api.call("GET", `/api/job/${id}/result`), 404);
  });
});
