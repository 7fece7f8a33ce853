/**
 * The store answers in records and typed errors on every driver, so nothing outside
 * store/ needs the database handle or a driver's error codes: a second send of one job
 * id is a DuplicateJobError, a blob's tags are a list and `encrypted` a boolean, damage is remembered per revision, the data dir's secret
 * outlives the process. Real database files in temp dirs, and the same tests on a real
 * PostgreSQL cluster through the port the service uses.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStores } from "../../src/server/store/sqlite/index.js";
import { type Stores } from "../../src/server/store/port.js";
import { DuplicateJobError } from "../../src/server/domain/job-rows.js";
import { openPgPort } from "../../src/server/store/postgres/port.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "../store-pg/cluster.js";
import { STORE_DRIVERS } from "./sqlite-drivers.js";

/** A store opened for one test, how to open it again, and what to remove after. */
interface Opened {
  store: Stores;
  reopen(): Promise<Stores>;
  cleanup(): Promise<void>;
}

for (const driver of STORE_DRIVERS) {
  describe(`the store on ${driver}`, () => {
    storeTests(() => {
      const dir = mkdtempSync(join(tmpdir(), "mdps-store-records-"));
      return Promise.resolve({
        store: openStores({ dataDir: dir, driver, region: "local" }),
        reopen: () => Promise.resolve(openStores({ dataDir: dir, driver })),
        cleanup: () => {
          rmSync(dir, { recursive: true, force: true });
          return Promise.resolve();
        },
      });
    });
  });
}

// The same tests on a real PostgreSQL cluster, through the port the service uses.
describeWithTool(postgresTool, "the store on PostgreSQL", () => {
  const pgc = useCluster();
  storeTests(async () => {
    const url = await pgc.fresh();
    return {
      store: await openPgPort({ url, region: "local" }),
      reopen: () => openPgPort({ url, region: "local" }),
      cleanup: () => Promise.resolve(),
    };
  });
});

function storeTests(open: () => Promise<Opened>): void {
  let opened: Opened;
  let store: Stores;
  beforeEach(async () => {
    opened = await open();
    store = opened.store;
  });
  afterEach(async () => {
    await store.close();
    await opened.cleanup();
  });

  const job = (id: string, modelId: string) => ({
    id,
    modelId,
    jobType: "preprocessing",
    request: {},
    digest: "d",
    keyHolder: null,
  });

  it("refuses a second job with one id as a DuplicateJobError, and keeps the first", async () => {
    const { model_id: modelId } = await store.apps.createModel("m");
    await store.jobs.create(job("7f6c0f3e-0000-4000-8000-000000000001", modelId));
    const second = await store.jobs.create(job("7f6c0f3e-0000-4000-8000-000000000001", modelId)).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(second).toBeInstanceOf(DuplicateJobError);
    expect((second as DuplicateJobError).jobId).toBe("7f6c0f3e-0000-4000-8000-000000000001");
    expect((await store.listings.jobs(modelId, { limit: 10 })).rows).toHaveLength(1);
  });

  it("remembers damage for the blob's current revision only, and forgets it when cleared", async () => {
    const { model_id: modelId } = await store.apps.createModel("m");
    const content = {
      name: "a.csv",
      description: "",
      record_type: "csv",
      access_tier: "hot",
      tags: ["t"],
      content_type: "text/csv",
      size_bytes: 3,
      sha256: "0".repeat(64),
      encrypted: false,
    };
    const row = await store.blobs.insert("b1", modelId, 1, content, new Date().toISOString());
    // Records, not SQLite's columns: tags as a list, `encrypted` as a boolean.
    expect(await store.blobs.get(modelId, "b1")).toMatchObject({ tags: ["t"], encrypted: false });
    const listed = await store.listings.blobs(modelId, { limit: 5, tag: "t" });
    expect(listed.rows.map((b) => [b.id, b.tags, b.encrypted])).toEqual([["b1", ["t"], false]]);
    await store.damage.record({ blobId: "b1", revision: 1, reason: "its sha256 differs" });
    expect((await store.damage.list()).map((d) => [d.blob_id, d.reason])).toEqual([["b1", "its sha256 differs"]]);
    expect(await store.blobs.everyFile()).toEqual([
      { id: "b1", model_id: modelId, name: "a.csv", revision: 1, size_bytes: 3, sha256: "0".repeat(64) },
    ]);
    await store.blobs.replace(row, content, new Date().toISOString());
    expect(await store.blobs.revision("b1")).toBe(2);
    expect(await store.damage.list()).toEqual([]);
    await store.damage.record({ blobId: "b1", revision: 2, reason: "missing" });
    await store.damage.clear("b1", 2);
    expect(await store.damage.list()).toEqual([]);
    expect(await store.blobs.revision("gone")).toBeUndefined();
  });

  it("keeps the data dir's secret from one opening to the next", async () => {
    const secret = await store.instanceSecret();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    await store.close();
    store = await opened.reopen();
    expect(await store.instanceSecret()).toBe(secret);
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it("answers a refused write as a rejected promise, never a synchronous throw", async () => {
    const { model_id: modelId } = await store.apps.createModel("m");
    const id = "7f6c0f3e-0000-4000-8000-000000000002";
    await store.jobs.create(job(id, modelId));
    let call: Promise<unknown> | undefined;
    expect(() => (call = store.jobs.create(job(id, modelId)))).not.toThrow();
    await expect(call).rejects.toBeInstanceOf(DuplicateJobError);
  });

  it("ends a job with its outputs and last log lines all together, or writes nothing when its lease is gone", async () => {
    const { model_id: modelId } = await store.apps.createModel("m");
    const content = {
      name: "out.csv",
      description: null,
      record_type: "csv",
      access_tier: "hot",
      tags: [],
      content_type: "text/csv",
      size_bytes: 1,
      sha256: "1".repeat(64),
      encrypted: false,
    };
    const container = { hostname: "h", replicaName: "r", processId: 1 };
    const ending = (jobId: string, owner: string, outputId: string) => ({
      jobId,
      status: "succeeded" as const,
      guard: { leaseOwner: owner, attempt: 1 },
      result: { ok: true },
      outputs: [{ id: outputId, modelId, content }],
      reports: {
        owner,
        entries: [{ kind: "log" as const, level: "info" as const, message: "done", container, at: "t" }],
      },
    });
    for (const id of ["7f6c0f3e-0000-4000-8000-00000000000a", "7f6c0f3e-0000-4000-8000-00000000000b"]) {
      await store.jobs.create(job(id, modelId));
      expect(
        await store.jobs.claim(id, { owner: "p1", expiresAt: Date.now() + 60_000 }, Date.now(), "claimed"),
      ).toBeDefined();
    }
    // Another process's lease: refused, and the output row written before the check is rolled back.
    expect(await store.endJob(ending("7f6c0f3e-0000-4000-8000-00000000000a", "p2", "o-refused"))).toBe(false);
    expect(await store.blobs.get(modelId, "o-refused")).toBeUndefined();
    expect((await store.jobs.row("7f6c0f3e-0000-4000-8000-00000000000a"))?.status).toBe("running");
    // Its own lease: the output, the terminal state and the log line, together.
    expect(await store.endJob(ending("7f6c0f3e-0000-4000-8000-00000000000b", "p1", "o-kept"))).toBe(true);
    expect(await store.blobs.get(modelId, "o-kept")).toMatchObject({ name: "out.csv", revision: 1 });
    const ended = (await store.jobs.row("7f6c0f3e-0000-4000-8000-00000000000b"))!;
    expect(ended.status).toBe("succeeded");
    expect((await store.jobs.logs(ended, 10)).messages.map((m) => m.message)).toContain("done");
    // Ended is ended: a second ending is refused.
    expect(await store.endJob(ending("7f6c0f3e-0000-4000-8000-00000000000b", "p1", "o-again"))).toBe(false);
    expect(await store.blobs.get(modelId, "o-again")).toBeUndefined();
  });

  it("lets one submission of a one-time form take its nonce; a failed one gives it back", async () => {
    const nonce = await store.portal.issueNonce("delete-blob", "b1");
    expect(await store.portal.claimNonce(nonce, "delete-blob", "b2")).toEqual({ kind: "unknown" });
    expect(await store.portal.claimNonce(nonce, "delete-blob", "b1")).toEqual({ kind: "fresh" });
    expect(await store.portal.claimNonce(nonce, "delete-blob", "b1")).toMatchObject({ kind: "used", outcome: null });
    await store.portal.releaseNonce(nonce);
    expect(await store.portal.claimNonce(nonce, "delete-blob", "b1")).toEqual({ kind: "fresh" });
    await store.portal.settleNonce(nonce, "deleted b1");
    expect(await store.portal.nonceState(nonce, "delete-blob", "b1")).toMatchObject({
      kind: "used",
      outcome: "deleted b1",
    });
  });
}
