/**
 * The store answers in records and typed errors on every driver, so nothing outside
 * store/ needs the database handle or a driver's error codes: a second send of one job
 * id is a DuplicateJobError, a blob's tags are a list and `encrypted` a boolean, damage is remembered per revision, the data dir's secret
 * outlives the process. Real database files in temp dirs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStores, type Stores } from "../../src/service/store/index.js";
import { DuplicateJobError } from "../../src/service/store/jobs.js";
import { STORE_DRIVERS } from "./sqlite-drivers.js";

describe.each(STORE_DRIVERS)("the store on %s", (driver) => {
  let dir = "";
  let store: Stores;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "mdps-store-records-"));
    store = openStores({ dataDir: dir, driver, region: "local" });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const job = (id: string, modelId: string) => ({
    id,
    modelId,
    jobType: "preprocessing",
    request: {},
    digest: "d",
    keyHolder: null,
  });

  it("refuses a second job with one id as a DuplicateJobError, and keeps the first", () => {
    const { model_id: modelId } = store.apps.createModel("m");
    store.jobs.create(job("7f6c0f3e-0000-4000-8000-000000000001", modelId));
    const second = (() => {
      try {
        store.jobs.create(job("7f6c0f3e-0000-4000-8000-000000000001", modelId));
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(second).toBeInstanceOf(DuplicateJobError);
    expect((second as DuplicateJobError).jobId).toBe("7f6c0f3e-0000-4000-8000-000000000001");
    expect(store.listings.jobs(modelId, { limit: 10 }).rows).toHaveLength(1);
  });

  it("remembers damage for the blob's current revision only, and forgets it when cleared", () => {
    const { model_id: modelId } = store.apps.createModel("m");
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
    const row = store.transaction(() => store.blobs.insert("b1", modelId, 1, content, new Date().toISOString()));
    // Records, not SQLite's columns: tags as a list, `encrypted` as a boolean.
    expect(store.blobs.get(modelId, "b1")).toMatchObject({ tags: ["t"], encrypted: false });
    expect(store.listings.blobs(modelId, { limit: 5, tag: "t" }).rows.map((b) => [b.id, b.tags, b.encrypted])).toEqual([
      ["b1", ["t"], false],
    ]);
    store.damage.record({ blobId: "b1", revision: 1, reason: "its sha256 differs" });
    expect(store.damage.list().map((d) => [d.blob_id, d.reason])).toEqual([["b1", "its sha256 differs"]]);
    expect(store.blobs.everyFile()).toEqual([
      { id: "b1", model_id: modelId, name: "a.csv", revision: 1, size_bytes: 3, sha256: "0".repeat(64) },
    ]);
    store.transaction(() => store.blobs.replace(row, content, new Date().toISOString()));
    expect(store.blobs.revision("b1")).toBe(2);
    expect(store.damage.list()).toEqual([]);
    store.damage.record({ blobId: "b1", revision: 2, reason: "missing" });
    store.damage.clear("b1", 2);
    expect(store.damage.list()).toEqual([]);
    expect(store.blobs.revision("gone")).toBeUndefined();
  });

  it("keeps the data dir's secret from one opening to the next", () => {
    const secret = store.instanceSecret();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    store.close();
    store = openStores({ dataDir: dir, driver });
    expect(store.instanceSecret()).toBe(secret);
    expect(() => store.ping()).not.toThrow();
  });
});
