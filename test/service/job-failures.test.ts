/** Jobs that fail at run time, and encrypted inputs and outputs, on a real service. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobRecord, logDetails } from "../../src/core/contract/index.js";
import {
  decryptBuffer,
  encryptBuffer,
  generateEncryptionKey,
  parseEncryptionKey,
} from "../../src/core/crypto/index.js";
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
const csv = "id,city,x,y\nr1,Leeds,1,10\nr2,York,2,20\nr3,Hull,3,\nr4,Bath,6,50\n";

beforeAll(async () => {
  const service = await h.inject();
  const app = h.app(service.dataDir);
  api = new Api(service, await tokenFor(service, app), app.modelId);
  blobId = json(blobRecord, await api.upload(csv, { Name: "cities.csv", RecordType: "csv", AccessTier: "hot" })).id;
});
afterAll(() => h.cleanup());

describe("run-time failures", () => {
  async function failedJob(body: Record<string, unknown>) {
    const sent = await api.call("POST", "/api/ml/preprocessing/job/send", body);
    expect(sent.status).toBe(200);
    const job = await api.waitForJob(json(referenceJob, sent).id);
    expect(job.status).toBe("failed");
    const result = await api.call("GET", `/api/job/${job.id}/result`);
    const problem = expectProblem(result, 409);
    expect(problem).toMatchObject({ job_id: job.id, job_status: "failed", error: job.error });
    const logs = json(logDetails, await api.call("GET", `/api/job/${job.id}/logs`));
    expect(logs.messages.some((m) => m.level === "error")).toBe(true);
    return job;
  }

  it("a missing feature column fails the job, naming the column", async () => {
    const job = await failedJob(preprocessingBody(api.modelId, blobId, { feature_columns: ["x", "z"] }));
    expect(job.error?.detail).toContain("z");
  });

  it("a non-numeric feature column fails the job, naming the column", async () => {
    const job = await failedJob(preprocessingBody(api.modelId, blobId, { feature_columns: ["city"] }));
    expect(job.error?.detail).toContain("city");
  });

  it("an unparseable input fails the job", async () => {
    const bad = json(
      blobRecord,
      await api.upload("[1, 2", { Name: "bad.json", RecordType: "json", AccessTier: "hot" }),
    ).id;
    const job = await failedJob(preprocessingBody(api.modelId, bad));
    expect(job.error?.title).toBeTruthy();
  });
});

describe("encryption", () => {
  it("keyed jobs sent at once all run with their keys (none found by a poll before its keys are held)", async () => {
    const key = generateEncryptionKey();
    const enc = json(blobRecord, await api.upload(encryptBuffer(parseEncryptionKey(key), Buffer.from(csv))));
    const body = preprocessingBody(api.modelId, enc.id, { input_encryption_key: key, feature_columns: ["x"] });
    const sent = await Promise.all(
      Array.from({ length: 24 }, () => api.call("POST", "/api/ml/preprocessing/job/send", body)),
    );
    const jobs = await Promise.all(sent.map((r) => api.waitForJob(json(referenceJob, r).id)));
    expect(jobs.map((j) => j.error?.title ?? j.status)).toEqual(jobs.map(() => "succeeded"));
  });

  it("decrypts the input and encrypts the output with keys it never shows", async () => {
    const inputKey = generateEncryptionKey();
    const outputKey = generateEncryptionKey();
    const enc = json(blobRecord, await api.upload(encryptBuffer(parseEncryptionKey(inputKey), Buffer.from(csv))));
    expect(enc.encrypted).toBe(true);
    const sent = await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(api.modelId, enc.id, {
        input_encryption_key: inputKey,
        feature_columns: ["x"],
        output: [{ name: "plain.csv" }, { name: "secret.csv", encryption_key: outputKey }],
      }),
    );
    expect(sent.status).toBe(200);
    const job = await api.waitForJob(json(referenceJob, sent).id);
    expect(job.status).toBe("succeeded");
    expect(job.request).toMatchObject({ input_encryption_key: "***", output: [{}, { encryption_key: "***" }] });
    expect(job.request).not.toHaveProperty(["output", 0, "encryption_key"]);
    const result = await api.call("GET", `/api/job/${job.id}/result`);
    const logs = await api.call("GET", `/api/job/${job.id}/logs`);
    for (const text of [
      JSON.stringify(sent.body),
      JSON.stringify(job),
      JSON.stringify(result.body),
      JSON.stringify(logs.body),
    ]) {
      expect(text).not.toContain(inputKey);
      expect(text).not.toContain(outputKey);
    }
    const outputs = outputsOf(result);
    const plain = outputs[0]!;
    const secret = outputs[1]!;
    expect(plain.encrypted).toBe(false);
    expect(secret.encrypted).toBe(true);
    const plainBytes = (await api.download(plain.id)).body;
    const decrypted = decryptBuffer(parseEncryptionKey(outputKey), (await api.download(secret.id)).body);
    expect(decrypted.toString()).toBe(plainBytes.toString());
  });

  it("a wrong key fails the job clearly", async () => {
    const enc = json(
      blobRecord,
      await api.upload(encryptBuffer(parseEncryptionKey(generateEncryptionKey()), Buffer.from(csv))),
    );
    const sent = await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(api.modelId, enc.id, { input_encryption_key: generateEncryptionKey() }),
    );
    const job = await api.waitForJob(json(referenceJob, sent).id);
    expect(job.status).toBe("failed");
    expect(job.error?.title).toBe("Decryption failed");
    expect(job.error?.detail).toContain("input_encryption_key");
  });

  it("an encrypted input without a key, or a key for a plain input, fails the job", async () => {
    const enc = json(
      blobRecord,
      await api.upload(encryptBuffer(parseEncryptionKey(generateEncryptionKey()), Buffer.from(csv))),
    );
    const noKey = await api.waitForJob(
      json(
        referenceJob,
        await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, enc.id)),
      ).id,
    );
    expect(noKey.error?.title).toBe("Input is encrypted");
    const extraKey = await api.waitForJob(
      json(
        referenceJob,
        await api.call(
          "POST",
          "/api/ml/preprocessing/job/send",
          preprocessingBody(api.modelId, blobId, { input_encryption_key: generateEncryptionKey() }),
        ),
      ).id,
    );
    expect(extraKey.error?.title).toBe("Input is not encrypted");
  });
});
