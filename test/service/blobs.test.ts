import { createHash, randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../../src/core/crypto/index.js";
import { Api, expectProblem, Harness, json, referenceBlob, tokenFor, type ReferenceBlob } from "./service-harness.js";

const h = new Harness();
let api: Api;
let dataDir: string;
const csv = "name,x,y\na,1,2\nb,3,4\n";
const sha = (b: string | Uint8Array) => createHash("sha256").update(b).digest("hex");
/** Every file under the data dir's tmp/ (each service process has its own folder there). */
const tempFiles = async () =>
  (await readdir(join(dataDir, "tmp"), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => e.name);

const upload = async (bytes: string): Promise<ReferenceBlob> => json(referenceBlob, await api.upload(bytes));

beforeAll(async () => {
  const service = await h.inject({ maxBlobBytes: 64 * 1024 });
  dataDir = service.dataDir;
  const app = h.app(dataDir);
  api = new Api(service, await tokenFor(service, app), app.modelId);
});
afterAll(() => h.cleanup());

describe("blob upload", () => {
  it("stores the file and returns the blob record", async () => {
    const r = await api.upload(csv, {
      Tags: ["train", "source=crm"],
      AccessTier: "Cool",
      Name: "train.csv",
      RecordType: "CSV",
      Description: "d",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      model_id: api.modelId,
      name: "train.csv",
      description: "d",
      record_type: "csv",
      access_tier: "cool",
      tags: ["train", "source=crm"],
      content_type: "text/csv",
      size_bytes: Buffer.byteLength(csv),
      sha256: sha(csv),
      encrypted: false,
    });
    const record = json(referenceBlob, r);
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(record.created_at).toISOString()).toBe(record.created_at);
    expect(record.updated_at).toBe(record.created_at);
  });

  it("takes the parts in any order (File first)", async () => {
    const form = new FormData();
    form.append("File", new Blob(["a\n1\n"]), "x.json");
    form.append("RecordType", "json");
    form.append("Name", "first.json");
    form.append("AccessTier", "archive");
    const response = await api.fetch(`${api.url}${api.blobPath(undefined, "upload")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.token}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      name: "first.json",
      record_type: "json",
      access_tier: "archive",
      description: null,
      tags: [],
    });
  });

  it("recognises an encrypted upload", async () => {
    const bytes = encryptBuffer(parseEncryptionKey(generateEncryptionKey()), Buffer.from(csv));
    const r = await api.upload(bytes);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      encrypted: true,
      content_type: "application/octet-stream",
      size_bytes: bytes.length,
    });
  });

  it("rejects missing and bad parts with errors per field", async () => {
    const form = new FormData();
    form.append("Name", "");
    form.append("RecordType", "xml");
    form.append("AccessTier", "lukewarm");
    form.append("Colour", "blue");
    const response = await api.fetch(`${api.url}${api.blobPath(undefined, "upload")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.token}` },
      body: form,
    });
    const problem = expectProblem(
      { status: response.status, headers: response.headers, body: await response.json() },
      400,
    );
    expect(Object.keys(problem.errors ?? {}).sort()).toEqual(["AccessTier", "Colour", "File", "Name", "RecordType"]);
    expect(problem.errors?.RecordType?.[0]).toContain("csv, json, arrow");
    expect(problem.errors?.AccessTier?.[0]).toContain("hot, cool, cold, archive");
  });

  it("reports every missing required part", async () => {
    const form = new FormData();
    form.append("Description", "only this");
    const response = await api.fetch(`${api.url}${api.blobPath(undefined, "upload")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.token}` },
      body: form,
    });
    const problem = expectProblem(
      { status: response.status, headers: response.headers, body: await response.json() },
      400,
    );
    expect(Object.keys(problem.errors ?? {}).sort()).toEqual(["AccessTier", "File", "Name", "RecordType"]);
  });

  it("rejects a second File part", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ Name: "two", RecordType: "csv", AccessTier: "hot" })) form.append(k, v);
    form.append("File", new Blob(["a\n1\n"]), "one.csv");
    form.append("File", new Blob(["a\n2\n"]), "two.csv");
    const response = await api.fetch(`${api.url}${api.blobPath(undefined, "upload")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.token}` },
      body: form,
    });
    const problem = expectProblem(
      { status: response.status, headers: response.headers, body: await response.json() },
      400,
    );
    expect(problem.errors?.File?.[0]).toContain("once");
    expect(await tempFiles()).toEqual([]);
  });

  it("rejects a body that is not multipart with 415", async () => {
    expectProblem(await api.call("POST", api.blobPath(undefined, "upload"), { Name: "x" }), 415);
    expectProblem(
      await api.call("POST", api.blobPath(undefined, "upload"), "x", { "content-type": "text/plain" }),
      415,
    );
  });

  it("rejects a file over the size limit with 413 and keeps no bytes", async () => {
    const before = await readdir(join(dataDir, "blobs"));
    const r = await api.upload(Buffer.alloc(64 * 1024 + 1, 0x41));
    expect(expectProblem(r, 413).detail).toContain(String(64 * 1024));
    expect(await readdir(join(dataDir, "blobs"))).toEqual(before);
    expect(await tempFiles()).toEqual([]);
    expect((await api.upload(Buffer.alloc(64 * 1024, 0x41))).status).toBe(200);
  });

  it("rejects path ids that are not UUIDs with a 400 validation problem naming each one", async () => {
    const validation = (instance: string, fields: string[]) => ({
      type: "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.1",
      title: "One or more validation errors occurred.",
      status: 400,
      detail: `The request path has invalid fields: ${fields.join(", ")}. See 'errors' for what each needs.`,
      instance,
      errors: Object.fromEntries(fields.map((f) => [f, ["must be a lower-case UUID"]])),
    });
    const badBlob = `/api/model/${api.modelId}/shared/blob/not-a-uuid/download`;
    expect(expectProblem(await api.call("GET", badBlob), 400)).toEqual(validation(badBlob, ["blobId"]));
    const badModel = `/api/model/NOPE/shared/blob/${randomUUID()}/delete`;
    expect(expectProblem(await api.call("DELETE", badModel), 400)).toEqual(validation(badModel, ["modelId"]));
    const both = "/api/model/NOPE/shared/blob/also-bad/download";
    expect(expectProblem(await api.call("GET", both), 400)).toEqual(validation(both, ["modelId", "blobId"]));
  });

  it("resolves `..` before routing: the path left matches no route, a 404 problem", async () => {
    const p = expectProblem(await api.call("GET", "/api/model/../shared/blob/x/download"), 404);
    expect(p).toEqual({
      type: "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.5",
      title: "Not Found",
      status: 404,
      detail:
        "No endpoint GET /api/shared/blob/x/download. The model API lives under /api/model/{modelId}/shared/blob/..., /api/job/..., /api/ml/preprocessing/job/... and /api/shared/health.",
      instance: "/api/shared/blob/x/download",
    });
  });

  it("answers unknown routes with a 404 problem", async () => {
    expectProblem(await api.call("GET", "/api/model/x/shared/blobz"), 404);
    expectProblem(await api.call("POST", "/api/shared/health"), 404);
  });
});

describe("blob download", () => {
  let id: string;
  beforeAll(async () => {
    id = json(referenceBlob, await api.upload(csv, { Name: "data é.csv", RecordType: "csv", AccessTier: "hot" })).id;
  });

  it("streams the bytes with type, length, ETag and disposition", async () => {
    const r = await api.download(id);
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe(csv);
    expect(r.headers.get("content-type")).toBe("text/csv");
    expect(r.headers.get("content-length")).toBe(String(Buffer.byteLength(csv)));
    expect(r.headers.get("etag")).toBe(`"${sha(csv)}"`);
    expect(r.headers.get("content-disposition")).toBe(
      `attachment; filename="data _.csv"; filename*=UTF-8''data%20%C3%A9.csv`,
    );
    expect(r.headers.get("accept-ranges")).toBe("bytes");
  });

  it("honours Range requests", async () => {
    const first = await api.download(id, { range: "bytes=0-3" });
    expect(first.status).toBe(206);
    expect(first.body.toString()).toBe("name");
    expect(first.headers.get("content-range")).toBe(`bytes 0-3/${csv.length}`);
    const open = await api.download(id, { range: "bytes=9-" });
    expect(open.body.toString()).toBe(csv.slice(9));
    const suffix = await api.download(id, { range: "bytes=-4" });
    expect(suffix.body.toString()).toBe(csv.slice(-4));
    const whole = await api.download(id, { range: "lines=1-2" });
    expect(whole.status).toBe(200);
  });

  it("answers an unsatisfiable Range with 416", async () => {
    const r = await api.call("GET", api.blobPath(id, "download"), undefined, { range: `bytes=${csv.length}-` });
    expectProblem(r, 416);
    expect(r.headers.get("content-range")).toBe(`bytes */${csv.length}`);
  });

  it("answers If-None-Match with the current ETag with 304", async () => {
    const r = await api.download(id, { "if-none-match": `"${sha(csv)}"` });
    expect(r.status).toBe(304);
  });
});

describe("blob update and delete", () => {
  it("replaces content and metadata; If-Match guards against lost updates", async () => {
    const created = json(
      referenceBlob,
      await api.upload(csv, { Name: "v1.csv", RecordType: "csv", AccessTier: "hot", Tags: "v1" }),
    );
    const v2 = "name,x,y\nc,5,6\n";
    const updated = await api.upload(
      v2,
      { Name: "v2.csv", RecordType: "csv", AccessTier: "cold", Tags: ["v2"] },
      { blobId: created.id, headers: { "if-match": `"${created.sha256}"` } },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: created.id,
      name: "v2.csv",
      access_tier: "cold",
      tags: ["v2"],
      sha256: sha(v2),
      created_at: created.created_at,
    });
    expect(json(referenceBlob, updated).updated_at >= created.updated_at).toBe(true);
    expect((await api.download(created.id)).body.toString()).toBe(v2);

    const stale = await api.upload("x\n1\n", undefined, {
      blobId: created.id,
      headers: { "if-match": `"${created.sha256}"` },
    });
    expect(expectProblem(stale, 412).detail).toContain("ETag");
    expect((await api.download(created.id)).body.toString()).toBe(v2);
    // Only the current revision's bytes remain on disk.
    const files = (await readdir(join(dataDir, "blobs"))).filter((f) => f.startsWith(created.id));
    expect(files).toEqual([`${created.id}.2`]);

    const unconditional = await api.upload("x\n1\n", undefined, { blobId: created.id });
    expect(unconditional.status).toBe(200);
  });

  it("lets exactly one of two concurrent updates with the same If-Match win", async () => {
    const created = await upload(csv);
    const ifMatch = { "if-match": `"${created.sha256}"` };
    const [a, b] = await Promise.all([
      api.upload("name,x,y\na,1,1\n", undefined, { blobId: created.id, headers: ifMatch }),
      api.upload("name,x,y\nb,2,2\n", undefined, { blobId: created.id, headers: ifMatch }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const winner = json(referenceBlob, a.status === 200 ? a : b);
    expect(sha((await api.download(created.id)).body)).toBe(winner.sha256);
    expect((await readdir(join(dataDir, "blobs"))).filter((f) => f.startsWith(created.id))).toEqual([
      `${created.id}.2`,
    ]);
  });

  it("validates the update's parts like an upload", async () => {
    const { id } = await upload(csv);
    const r = await api.upload(csv, { Name: "x", RecordType: "xlsx", AccessTier: "hot" }, { blobId: id });
    expect(expectProblem(r, 400).errors).toHaveProperty("RecordType");
    expectProblem(await api.upload(csv, undefined, { blobId: randomUUID() }), 404);
  });

  it("deletes a blob and its bytes", async () => {
    const { id } = await upload(csv);
    const r = await api.call("DELETE", api.blobPath(id, "delete"));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id, deleted: true });
    expect((await readdir(join(dataDir, "blobs"))).some((f) => f.startsWith(id))).toBe(false);
    expectProblem(await api.call("GET", api.blobPath(id, "download")), 404);
    expectProblem(await api.call("DELETE", api.blobPath(id, "delete")), 404);
  });
});
