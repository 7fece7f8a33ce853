import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobRecord } from "../../src/core/contract/index.js";
import { Api, expectProblem, Harness, json, preprocessingBody, tokenFor } from "./service-harness.js";

const h = new Harness();
let api: Api;
let blobId: string;

beforeAll(async () => {
  const service = await h.inject();
  const app = h.app(service.dataDir);
  api = new Api(service, await tokenFor(service, app), app.modelId);
  blobId = json(blobRecord, await api.upload("x\n1\n2\n")).id;
});
afterAll(() => h.cleanup());

describe("request bodies named like Object.prototype members", () => {
  for (const key of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"]) {
    it(`a top-level unknown key '${key}' on job send is a 400 naming it`, async () => {
      const body = JSON.stringify(preprocessingBody(api.modelId, blobId)).replace(/^\{/, `{"${key}":1,`);
      const reply = await api.call("POST", "/api/ml/preprocessing/job/send", body);
      const problem = expectProblem(reply, 400);
      if (key !== "__proto__") expect(problem.errors).toEqual({ [key]: ["is not a known field; remove it"] });
    });
  }

  it("a generic job send with such a key in its payload is a 400 too", async () => {
    const payload = { ...preprocessingBody(api.modelId, blobId), toString: 1 };
    const reply = await api.call("POST", "/api/job/send", {
      job_id: crypto.randomUUID(),
      model_id: api.modelId,
      job_type: "preprocessing",
      payload,
    });
    const problem = expectProblem(reply, 400);
    expect(Object.keys(problem.errors as object)).toEqual(["payload.toString"]);
  });
});

describe("multipart without a boundary", () => {
  for (const [method, action] of [
    ["POST", "upload"],
    ["PUT", "update"],
  ] as const) {
    it(`${action}: 400 that says what the Content-Type lacks`, async () => {
      const path = action === "upload" ? api.blobPath(undefined, "upload") : api.blobPath(blobId, "update");
      const reply = await api.call(method, path, "--x\r\n", { "content-type": "multipart/form-data" });
      const problem = expectProblem(reply, 400);
      expect(problem.detail).toMatch(/boundary/i);
      // The server keeps serving.
      expect((await api.call("GET", "/api/shared/health")).status).toBe(200);
    });
  }
});

describe("multipart parts the form does not know", () => {
  it("a part named like an Object.prototype member is a 400 that says so, not a crash", async () => {
    const reply = await api.upload("x\n1\n", { Name: "a.csv", RecordType: "csv", AccessTier: "hot", constructor: "1" });
    const problem = expectProblem(reply, 400);
    expect(JSON.stringify(problem.errors)).toContain("named like a JavaScript object member");
  });

  it("more fields than the form allows before File: a prompt 413/400 answer, no temp file left", async () => {
    const fields: Record<string, string> = { Name: "a.csv", RecordType: "csv", AccessTier: "hot" };
    for (let i = 0; i < 100; i++) fields[`extra${i}`] = "v";
    // A server that waited for more would hang here until the test's timeout.
    const reply = await api.upload("x\n1\n", fields);
    expect([400, 413]).toContain(reply.status);
    expectProblem(reply, reply.status);
  });
});
