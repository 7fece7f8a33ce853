/**
 * scikit-learn's warnings reach the job result and the job's log (docs/contract.md#warnings):
 * QuantileTransformer with n_quantiles 1000 on 5 rows, a column with no value at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobRecord, jobRecord, jobResult, logDetails } from "../../src/core/contract/index.js";
import { Api, Harness, json, preprocessingBody, tokenFor } from "./service-harness.js";

const h = new Harness();
let api: Api;
let blobId: string;
const csv = "id,x,empty\nr1,1,\nr2,2,\nr3,3,\nr4,6,\nr5,9,\n";

beforeAll(async () => {
  const service = await h.inject();
  const app = h.app(service.dataDir);
  api = new Api(service, await tokenFor(service, app), app.modelId);
  blobId = json(blobRecord, await api.upload(csv, { Name: "w.csv", RecordType: "csv", AccessTier: "hot" })).id;
});
afterAll(() => h.cleanup());

async function run(extra: Record<string, unknown>) {
  const path = "/api/ml/preprocessing/job";
  const sent = json(jobRecord, await api.call("POST", `${path}/send`, preprocessingBody(api.modelId, blobId, extra)));
  const job = jobRecord.parse(await api.waitForJob(sent.id));
  expect(job.status).toBe("succeeded");
  const result = json(jobResult, await api.call("GET", `${path}/${job.id}/result`));
  const logs = json(logDetails, await api.call("GET", `${path}/${job.id}/logs`));
  const warningLines = logs.messages.filter((m) => m.level === "warning").map((m) => m.message);
  return { result, warningLines };
}

describe("scikit-learn's warnings in the job result and log", () => {
  it("reports n_quantiles capped to the row count, as scikit-learn warns", async () => {
    const { result, warningLines } = await run({
      preprocessing_type: "QuantileTransformer",
      preprocessing_params: { n_quantiles: 1000 },
      feature_columns: ["x"],
    });
    expect(result.warnings).toEqual([
      {
        code: "n_quantiles_capped",
        column: null,
        message: expect.stringContaining(
          '"n_quantiles (1000) is greater than the total number of samples (5). n_quantiles is set to n_samples."',
        ) as string,
      },
    ]);
    expect(warningLines).toEqual([`n_quantiles_capped: ${result.warnings?.[0]?.message}`]);
  });

  it("names a feature column that holds no value", async () => {
    const { result, warningLines } = await run({ feature_columns: ["x", "empty"] });
    expect(result.warnings).toMatchObject([{ code: "all_missing_column", column: "empty" }]);
    expect(result.warnings?.[0]?.message).toContain('"invalid value encountered in divide"');
    expect(warningLines).toHaveLength(1);
  });

  it("gives an empty list when scikit-learn would say nothing", async () => {
    const { result, warningLines } = await run({ feature_columns: ["x"] });
    expect(result.warnings).toEqual([]);
    expect(warningLines).toEqual([]);
  });
});
