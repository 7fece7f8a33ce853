import { describe, expect, it } from "vitest";
import {
  download,
  finishedJob,
  getJson,
  parseCsvRows,
  pollStatuses,
  preprocessingRequest,
  SAMPLE_CSV,
  sendPreprocessing,
  token,
  uploadCsv,
  useForeignServices,
} from "./calls.js";

const start = useForeignServices();

describe("preprocessing jobs", () => {
  it("StandardScaler runs NotStarted -> Running -> Succeeded with population std, NaN kept, labels untouched", async () => {
    const service = await start({ jobDelayMs: 400 }); // Running for 280 ms: long enough for a poll to see it
    const accessToken = await token(service);
    const { jobId, statuses } = await finishedJob(service, accessToken, { feature_columns: ["a", "b"] });
    expect(statuses).toEqual(["NotStarted", "Running", "Succeeded"]);
    const record = (await (
      await getJson(`${service.url}/api/ml/preprocessing/job/${jobId}/get`, accessToken)
    ).json()) as object;
    expect(Object.keys(record).sort()).toEqual(["createdAt", "id", "status"]);
    const result = (await (
      await getJson(`${service.url}/api/ml/preprocessing/job/${jobId}/result`, accessToken)
    ).json()) as {
      outputBlobIds: string[];
    };
    expect(result).toEqual({ jobId, status: "Succeeded", outputBlobIds: [expect.any(String)] });
    const rows = parseCsvRows(await download(service, accessToken, result.outputBlobIds[0] ?? ""));
    expect(rows[0]).toEqual(["a", "label", "b"]);
    const a = rows.slice(1).map((row) => Number(row[0]));
    const sdA = Math.sqrt(1.25); // population std of 1..4
    a.forEach((value, i) => expect(value).toBeCloseTo((i + 1 - 2.5) / sdA, 12));
    expect(rows.map((row) => row[1])).toEqual(["label", "x", "y", "z", ""]);
    // b = 10, missing, 30, 40: mean 80/3, std over the three present values.
    const mean = 80 / 3;
    const sdB = Math.sqrt(((10 - mean) ** 2 + (30 - mean) ** 2 + (40 - mean) ** 2) / 3);
    expect(Number(rows[1]?.[2])).toBeCloseTo((10 - mean) / sdB, 12);
    expect(rows[2]?.[2]).toBe("");
    expect(Number(rows[4]?.[2])).toBeCloseTo((40 - mean) / sdB, 12);
  });

  it("StandardScaler leaves a constant column at scale 1; MinMaxScaler maps to 0..1", async () => {
    const service = await start();
    const accessToken = await token(service);
    const constant = await finishedJob(service, accessToken, { feature_columns: ["c"] }, "c\n5\n5\n5\n");
    const constantResult = (await (
      await getJson(`${service.url}/api/job/${constant.jobId}/result`, accessToken)
    ).json()) as {
      outputBlobIds: string[];
    };
    expect(await download(service, accessToken, constantResult.outputBlobIds[0] ?? "")).toBe("c\n0\n0\n0\n");
    const minMax = await finishedJob(service, accessToken, {
      preprocessing_type: "MinMaxScaler",
      feature_columns: ["a", "b"],
    });
    const result = (await (await getJson(`${service.url}/api/job/${minMax.jobId}/result`, accessToken)).json()) as {
      outputBlobIds: string[];
    };
    const rows = parseCsvRows(await download(service, accessToken, result.outputBlobIds[0] ?? ""));
    expect(rows.slice(1).map((row) => row[0])).toEqual(["0", String(1 / 3), String(2 / 3), "1"]);
    expect(rows.slice(1).map((row) => row[2])).toEqual(["0", "", String(20 / 30), "1"]);
  });

  it("other preprocessing types are accepted and fail the job with a message", async () => {
    const service = await start();
    const accessToken = await token(service);
    const { jobId, statuses } = await finishedJob(service, accessToken, { preprocessing_type: "RobustScaler" });
    expect(statuses.at(-1)).toBe("Failed");
    const result = await (await getJson(`${service.url}/api/ml/preprocessing/job/${jobId}/result`, accessToken)).json();
    expect(result).toEqual({
      jobId,
      status: "Failed",
      outputBlobIds: [],
      message: "Job failed: preprocessing type RobustScaler is not available in this region",
    });
    const logs = (await (
      await getJson(`${service.url}/api/ml/preprocessing/job/${jobId}/logs`, accessToken)
    ).json()) as {
      container: object;
      details: { level: string };
    }[];
    expect(logs.at(-1)?.details.level).toBe("Error");
    expect(Object.keys(logs[0]?.container ?? {}).sort()).toEqual(["hostname", "processId", "replicaName"]);
    const two = (await (
      await getJson(`${service.url}/api/job/${jobId}/logs?limit=2`, accessToken)
    ).json()) as unknown[];
    expect(two).toHaveLength(2);
    expect((await getJson(`${service.url}/api/job/${jobId}/logs?limit=0`, accessToken)).status).toBe(400);
  });

  it("refuses bad requests with 400 { message }: feature_columns, type, camelCase keys", async () => {
    const service = await start();
    const accessToken = await token(service);
    const blobId = await uploadCsv(service, accessToken, SAMPLE_CSV);
    const cases: [Record<string, unknown>, string][] = [
      [preprocessingRequest(service, blobId, { feature_columns: undefined }), "feature_columns is required"],
      [preprocessingRequest(service, blobId, { feature_columns: [] }), "feature_columns must be a non-empty array"],
      [
        preprocessingRequest(service, blobId, { preprocessing_type: "standard_scaler" }),
        "preprocessing_type 'standard_scaler' is not one of",
      ],
      [
        { modelId: service.modelId, inputBlobId: blobId, preprocessingType: "StandardScaler", featureColumns: ["a"] },
        "model_id is required",
      ],
      [preprocessingRequest(service, crypto.randomUUID()), "blob not found"],
      [
        preprocessingRequest(service, blobId, { output: [{ name: "o", record_type: "Csv", access_tier: "Warm" }] }),
        "access_tier 'Warm'",
      ],
    ];
    for (const [body, message] of cases) {
      const response = await sendPreprocessing(service, accessToken, body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(message);
    }
    expect(service.jobs()).toHaveLength(0);
  });

  it("the result is a 409 before the job ends; outputs take the requested names", async () => {
    const service = await start({ jobDelayMs: 300 });
    const accessToken = await token(service);
    const blobId = await uploadCsv(service, accessToken, SAMPLE_CSV);
    const output = [
      { name: "scaled.csv", record_type: "Csv", access_tier: "Cool" },
      { name: "copy.csv", record_type: "Csv", access_tier: "Hot" },
    ];
    const response = await sendPreprocessing(service, accessToken, preprocessingRequest(service, blobId, { output }));
    const { id } = (await response.json()) as { id: string };
    const early = await getJson(`${service.url}/api/ml/preprocessing/job/${id}/result`, accessToken);
    expect(early.status).toBe(409);
    await pollStatuses(service, accessToken, id);
    expect(service.jobs()[0]?.outputBlobIds).toHaveLength(2);
  });

  it("a job that outlives request_timeout_seconds is Canceled", async () => {
    const service = await start({ jobDelayMs: 1500 });
    const accessToken = await token(service);
    const { statuses } = await finishedJob(service, accessToken, { request_timeout_seconds: 1 });
    expect(statuses).toEqual(["NotStarted", "Running", "Canceled"]);
  });
});
