/**
 * The list endpoints (docs/contract.md#blob-metadata and #job-list): scopes,
 * paging with cursors, filters, errors, and another model's blobs and jobs invisible.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InjectedService } from "./service-harness.js";
import { Api, expectProblem, Harness, preprocessingBody, tokenFor, type AppCredentials } from "./service-harness.js";

const h = new Harness();
let service: InjectedService;
let app: AppCredentials;
let api: Api;
let other: Api;
afterAll(() => h.cleanup());

interface Page {
  items: Array<Record<string, unknown>>;
  next_cursor: string | null;
}

async function page(client: Api, path: string): Promise<Page> {
  const reply = await client.call("GET", path);
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as Page;
}

/** Every item of a list, following `next_cursor` with `limit` per page; the pages too. */
async function all(client: Api, path: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const p = await page(client, `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(p.items.length).toBeLessThanOrEqual(limit);
    ids.push(...p.items.map((i) => i.id as string));
    cursor = p.next_cursor;
    pages++;
  } while (cursor);
  return { ids, pages };
}

const blobIds: string[] = [];
let otherBlob: string;

beforeAll(async () => {
  service = await h.inject();
  app = h.app(service.dataDir);
  api = new Api(service, await tokenFor(service, app), app.modelId);
  const otherApp = h.app(service.dataDir);
  other = new Api(service, await tokenFor(service, otherApp), otherApp.modelId);
  for (let i = 0; i < 5; i++) {
    const tags = i % 2 === 0 ? ["even", `n=${i}`] : ["odd"];
    const reply = await api.upload(`a,b\n${i},1\n${i + 1},2\n`, {
      Name: i === 3 ? "three.csv" : `blob-${i}.csv`,
      RecordType: "csv",
      AccessTier: "hot",
      Tags: tags,
    });
    expect(reply.status).toBe(200);
    blobIds.push((reply.body as { id: string }).id);
  }
  otherBlob = (
    (await other.upload("a\n1\n", { Name: "three.csv", RecordType: "csv", AccessTier: "hot", Tags: "even" })).body as {
      id: string;
    }
  ).id;
});

describe("blob metadata", () => {
  it("returns one blob's record, and 404 for another model's blob", async () => {
    const id = blobIds[3]!;
    const reply = await api.call("GET", api.blobPath(id));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id,
      model_id: app.modelId,
      name: "three.csv",
      tags: ["odd"],
      record_type: "csv",
    });
    expectProblem(await api.call("GET", api.blobPath(otherBlob)), 404);
    // Another model's path is refused, whichever blob it names.
    expectProblem(await api.call("GET", api.blobPath(otherBlob, undefined, other.modelId)), 403);
  });

  it("lists the model's blobs newest first, default limit, no other model's", async () => {
    const p = await page(api, `/api/model/${app.modelId}/shared/blobs`);
    expect(p.items.map((i) => i.id)).toEqual([...blobIds].reverse());
    expect(p.next_cursor).toBeNull();
    expect(p.items[0]?.model_id).toBe(app.modelId);
    expect(typeof p.items[0]?.size_bytes).toBe("number");
    expect(typeof p.items[0]?.sha256).toBe("string");
    expect(p.items.map((i) => i.id)).not.toContain(otherBlob);
    const theirs = await page(other, `/api/model/${other.modelId}/shared/blobs`);
    expect(theirs.items.map((i) => i.id)).toEqual([otherBlob]);
    expectProblem(await api.call("GET", `/api/model/${other.modelId}/shared/blobs`), 403);
  });

  it("pages with cursors: every blob once, in order", async () => {
    for (const limit of [1, 2, 3, 5]) {
      const { ids, pages } = await all(api, `/api/model/${app.modelId}/shared/blobs`, limit);
      expect(ids).toEqual([...blobIds].reverse());
      expect(pages).toBe(Math.ceil(5 / limit));
    }
  });

  it("a blob added between pages does not shift the next page", async () => {
    const first = await page(api, `/api/model/${app.modelId}/shared/blobs?limit=2`);
    const added = (await api.upload("a\n9\n", { Name: "late.csv", RecordType: "csv", AccessTier: "hot" })).body as {
      id: string;
    };
    const second = await page(
      api,
      `/api/model/${app.modelId}/shared/blobs?limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`,
    );
    expect(second.items.map((i) => i.id)).toEqual([blobIds[2], blobIds[1]]);
    expect((await api.call("DELETE", api.blobPath(added.id, "delete"))).status).toBeLessThan(500);
  });

  it("filters by tag and by name, exactly", async () => {
    const base = `/api/model/${app.modelId}/shared/blobs`;
    expect((await page(api, `${base}?tag=even`)).items.map((i) => i.id)).toEqual([blobIds[4], blobIds[2], blobIds[0]]);
    expect((await page(api, `${base}?tag=${encodeURIComponent("n=2")}`)).items.map((i) => i.id)).toEqual([blobIds[2]]);
    expect((await page(api, `${base}?tag=eve`)).items).toEqual([]);
    expect((await page(api, `${base}?name=three.csv`)).items.map((i) => i.id)).toEqual([blobIds[3]]);
    expect((await page(api, `${base}?name=THREE.csv`)).items).toEqual([]);
    expect((await page(api, `${base}?name=three.csv&tag=even`)).items).toEqual([]);
    const { ids } = await all(api, `${base}?tag=even`, 1);
    expect(ids).toEqual([blobIds[4], blobIds[2], blobIds[0]]);
  });

  it("answers a bad limit or cursor with 400 and errors saying what is valid", async () => {
    const base = `/api/model/${app.modelId}/shared/blobs`;
    for (const limit of ["0", "1001", "abc", "1.5"]) {
      const p = expectProblem(await api.call("GET", `${base}?limit=${limit}`), 400);
      expect(p.errors?.limit?.join(" ")).toMatch(/1000|1 to/);
    }
    expect((await page(api, `${base}?limit=1000`)).items).toHaveLength(5);
    for (const cursor of ["nope", "%21%21", Buffer.from('{"a":1}').toString("base64url")]) {
      const p = expectProblem(await api.call("GET", `${base}?cursor=${cursor}`), 400);
      expect(p.errors?.cursor?.join(" ")).toContain("next_cursor");
    }
  });

  it("needs shared.blob.read", async () => {
    const limited = h.app(service.dataDir, ["shared.blob.upload", "shared.blob.download"], app.modelId);
    const client = new Api(service, await tokenFor(service, limited), app.modelId);
    expectProblem(await client.call("GET", `/api/model/${app.modelId}/shared/blobs`), 403);
    expectProblem(await client.call("GET", client.blobPath(blobIds[0])), 403);
    const reader = h.app(service.dataDir, ["shared.blob.read"], app.modelId);
    const readerApi = new Api(service, await tokenFor(service, reader), app.modelId);
    expect((await readerApi.call("GET", `/api/model/${app.modelId}/shared/blobs?limit=1`)).status).toBe(200);
    expect(
      (await new Api(service, undefined, app.modelId).call("GET", `/api/model/${app.modelId}/shared/blobs`)).status,
    ).toBe(401);
  });
});

describe("job list", () => {
  const jobIds: string[] = [];
  let otherJob: string;
  beforeAll(async () => {
    for (let i = 0; i < 4; i++) {
      const reply = await api.call(
        "POST",
        "/api/ml/preprocessing/job/send",
        preprocessingBody(app.modelId, blobIds[i]!),
      );
      expect(reply.status).toBeLessThan(300);
      jobIds.push((reply.body as { id: string }).id);
    }
    otherJob = (
      (await other.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(other.modelId, otherBlob)))
        .body as { id: string }
    ).id;
    for (const id of jobIds) await api.waitForJob(id);
    await other.waitForJob(otherJob);
  });

  it("lists the model's jobs newest first without events, on both paths", async () => {
    for (const prefix of ["/api/job", "/api/ml/preprocessing/job"]) {
      const p = await page(api, `${prefix}/list`);
      expect(p.items.map((i) => i.id)).toEqual([...jobIds].reverse());
      expect(p.next_cursor).toBeNull();
      for (const item of p.items) {
        expect(item).not.toHaveProperty("events");
        expect(item).toMatchObject({ model_id: app.modelId, status: "succeeded" });
        expect(typeof item.job_type).toBe("string");
      }
    }
    expect((await page(other, "/api/job/list")).items.map((i) => i.id)).toEqual([otherJob]);
  });

  it("pages with cursors and filters by status", async () => {
    for (const limit of [1, 3]) {
      const { ids, pages } = await all(api, "/api/job/list", limit);
      expect(ids).toEqual([...jobIds].reverse());
      expect(pages).toBe(Math.ceil(4 / limit));
    }
    expect((await all(api, "/api/ml/preprocessing/job/list?status=succeeded", 2)).ids).toEqual([...jobIds].reverse());
    expect((await page(api, "/api/job/list?status=queued")).items).toEqual([]);
  });

  it("answers a bad status, limit or cursor with 400 naming the valid values", async () => {
    const status = expectProblem(await api.call("GET", "/api/job/list?status=done"), 400);
    expect(status.errors?.status?.join(" ")).toContain("queued, running, succeeded, failed, timed_out, cancelled");
    expect(expectProblem(await api.call("GET", "/api/job/list?limit=5000"), 400).errors?.limit).toBeDefined();
    expect(expectProblem(await api.call("GET", "/api/job/list?cursor=xyz"), 400).errors?.cursor).toBeDefined();
  });

  it("needs ml.preprocessing.read", async () => {
    const limited = h.app(service.dataDir, ["ml.preprocessing.execute"], app.modelId);
    const client = new Api(service, await tokenFor(service, limited), app.modelId);
    expectProblem(await client.call("GET", "/api/job/list"), 403);
    expectProblem(await client.call("GET", "/api/ml/preprocessing/job/list"), 403);
  });
});

describe("health", () => {
  it("declares blob-list and job-list", async () => {
    const reply = await api.call("GET", "/api/shared/health");
    expect((reply.body as { capabilities: string[] }).capabilities).toEqual(
      expect.arrayContaining(["blob-list", "job-list"]),
    );
  });
});
