/**
 * A job's life on PostgreSQL: accepted, claimed under a lease, progress and logs of the
 * attempt holding it, an ending that nothing changes afterwards; its request kept as the
 * exact JSON text it was sent as, and what the SQLite store refuses refused here too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { openSqliteStores } from "../../src/server/store/sqlite/index.js";
import { DuplicateJobError, jobFields } from "../../src/server/domain/job-rows.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "./cluster.js";
import { blobContent as conformanceBlobContent } from "../server/store/conformance/store-under-test.js";
const container = { hostname: "h", replicaName: "r", processId: 42 };
const blobContent = conformanceBlobContent({ description: null, tags: [], size_bytes: 1 });

describeWithTool(postgresTool, "jobs on PostgreSQL", () => {
  const pgc = useCluster();

  async function withModel() {
    const store = await pgc.open(await pgc.fresh());
    const { model_id } = await store.apps.createModel("m");
    const create = (id: string, request: unknown = {}) =>
      store.jobs.create({ id, modelId: model_id, jobType: "preprocessing", request, digest: "d", keyHolder: null });
    return { store, modelId: model_id, create };
  }

  it("runs create, claim, progress, logs and finish, and tells its listeners after each commit", async () => {
    const { store, modelId, create } = await withModel();
    const changes: number[] = [];
    store.jobs.onChange(() => changes.push(Date.now()));
    const created = await create("j1");
    expect(created).toMatchObject({
      status: "queued",
      phase: "queued",
      progress: 0,
      attempts: 0,
      revision: 1,
      had_keys: 0,
    });
    expect(changes).toHaveLength(1);
    expect(await store.jobs.countQueued()).toBe(1);

    const now = Date.now();
    expect(await store.jobs.claimable(now, 10)).toEqual([
      { id: "j1", status: "queued", attempts: 0, had_keys: 0, key_holder: null, lease_owner: null },
    ]);
    const claimed = await store.jobs.claim("j1", { owner: "p1", expiresAt: now + 60_000 }, now, "attempt 1");
    expect(claimed).toMatchObject({
      status: "running",
      phase: "reading",
      attempts: 1,
      lease_owner: "p1",
    });
    // On the database's clock (the same host's here): 60 s from now, give or take the round trip.
    expect(Math.abs(claimed!.lease_expires_at! - (now + 60_000))).toBeLessThan(1000);
    expect(await store.jobs.claim("j1", { owner: "p2", expiresAt: now + 60_000 }, now, "again")).toBeUndefined();

    await store.jobs.progress("j1", "p1", "fitting", 0.5);
    await store.jobs.writeRunReports("j1", "p1", [
      { kind: "log", level: "info", message: "hello", container, at: new Date().toISOString() },
      { kind: "progress", phase: "fitting", progress: 0.75 },
    ]);
    await store.jobs.log("j1", "warning", "careful", container);
    // Another process's progress is not the attempt's: dropped (its log lines are kept, as in SQLite).
    await store.jobs.progress("j1", "p2", "stolen", 0.9);
    expect(await store.jobs.row("j1")).toMatchObject({ phase: "fitting", progress: 0.75 });
    expect(await store.jobs.renewLeases("p1", now + 120_000, ["j1"])).toBe(1);
    expect(await store.jobs.renewLeases("p2", now + 120_000, ["j1"])).toBe(0);
    expect(await store.jobs.leases(["j1", "none"])).toEqual([{ id: "j1", status: "running", lease_owner: "p1" }]);

    expect(await store.jobs.finish("j1", "succeeded", { result: { rows: 3 } }, { leaseOwner: "p1", attempt: 1 })).toBe(
      true,
    );
    const row = (await store.jobs.get(modelId, "j1"))!;
    expect(row).toMatchObject({
      status: "succeeded",
      phase: "done",
      progress: 1,
      lease_owner: null,
      result: '{"rows":3}',
    });
    expect(row.finished_at).toMatch(/Z$/);
    expect(await store.jobs.get("other-model", "j1")).toBeUndefined();

    const record = await store.jobs.record(row, 100);
    expect(record.events!.map((e) => [e.status, e.phase, e.progress])).toEqual([
      ["queued", "queued", 0],
      ["running", "reading", 0],
      ["running", "fitting", 0.5],
      ["succeeded", "done", 1],
    ]);
    expect((await store.jobs.record(row, 1)).events!.map((e) => e.status)).toEqual(["succeeded"]);
    const logs = await store.jobs.logs(row, 1);
    expect(logs).toMatchObject({
      job_id: "j1",
      truncated: true,
      messages: [{ level: "warning", message: "careful", container }],
    });
    expect((await store.jobs.logs(row, 10)).messages.map((m) => m.message)).toEqual(["hello", "careful"]);
    expect(await store.jobs.revision("j1")).toEqual({ status: "succeeded", revision: row.revision });
    // create, claim, progress, the batch, finish: five commits, five notifications, in order.
    expect(changes).toHaveLength(5);
  });

  it("reads a job's row, record, logs and the store's usage exactly as the SQLite store does", async () => {
    const { store, modelId } = await withModel();
    const dir = mkdtempSync(join(tmpdir(), "mdps-pg-job-parity-"));
    const sqlite = openSqliteStores({ dataDir: dir, region: "local" });
    try {
      const sqliteModel = sqlite.apps.createModel("m").model_id;
      const request = { input_blob_id: "b", seed: "123456789012345678901234567890", ratio: 0.1 };
      const job = { id: "j1", jobType: "preprocessing", request, digest: "d", keyHolder: "holder" };
      const now = Date.now();
      const lease = { owner: "p1", expiresAt: now + 60_000 };
      const report = { kind: "log", level: "info", message: "m", container, at: "2026-01-01T00:00:00.000Z" } as const;
      await store.jobs.create({ ...job, modelId });
      sqlite.jobs.create({ ...job, modelId: sqliteModel });
      await store.jobs.claim("j1", lease, now, "attempt 1");
      sqlite.jobs.claim("j1", lease, now, "attempt 1");
      await store.jobs.writeRunReports("j1", "p1", [report, { kind: "progress", phase: "fitting", progress: 1 / 3 }]);
      sqlite.jobs.writeRunReports("j1", "p1", [report, { kind: "progress", phase: "fitting", progress: 1 / 3 }]);
      const outcome = { error: { title: "t", detail: "d" } };
      await store.jobs.finish("j1", "failed", outcome, { leaseOwner: "p1", attempt: 1 });
      sqlite.jobs.finish("j1", "failed", outcome, { leaseOwner: "p1", attempt: 1 });

      const times = { created_at: "", started_at: "", finished_at: "", model_id: "" };
      const fromPg = (await store.jobs.row("j1"))!;
      const fromSqlite = sqlite.jobs.row("j1")!;
      expect({ ...fromPg, ...times }).toEqual({ ...fromSqlite, ...times });
      const untimed = (events: Array<{ timestamp?: string }> | undefined) =>
        events?.map((e) => ({ ...e, timestamp: "" }));
      const pgRecord = await store.jobs.record(fromPg, 10);
      const sqliteRecord = sqlite.jobs.record(fromSqlite, 10);
      expect({ ...pgRecord, ...times, events: untimed(pgRecord.events) }).toEqual({
        ...sqliteRecord,
        ...times,
        events: untimed(sqliteRecord.events),
      });
      expect(await store.jobs.logs(fromPg, 10)).toEqual(sqlite.jobs.logs(fromSqlite, 10));
      expect(await store.usage()).toEqual(sqlite.usage());
    } finally {
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never changes a finished job again", async () => {
    const { store, create } = await withModel();
    await create("j1");
    const now = Date.now();
    await store.jobs.claim("j1", { owner: "p1", expiresAt: now + 60_000 }, now, "attempt 1");
    expect(await store.jobs.finish("j1", "failed", { error: { title: "t", detail: "d" } }, { leaseOwner: "p1" })).toBe(
      true,
    );
    const ended = (await store.jobs.row("j1"))!;
    expect(JSON.parse(ended.error!)).toEqual({ title: "t", detail: "d" });
    expect(await store.jobs.finish("j1", "succeeded", {}, { leaseOwner: "p1" })).toBe(false);
    expect(await store.jobs.finish("j1", "succeeded", {}, { unleasedAt: Date.now() + 1e9 })).toBe(false);
    expect(await store.jobs.cancel("j1", "too late")).toMatchObject({ cancelled: false, row: { status: "failed" } });
    expect(await store.jobs.requeue("j1", "p1", "stopping")).toBe(false);
    expect(
      await store.jobs.claim("j1", { owner: "p2", expiresAt: now + 60_000 }, Date.now() + 1e9, "late"),
    ).toBeUndefined();
    await store.jobs.progress("j1", "p1", "late", 0.1);
    expect(await store.jobs.row("j1")).toEqual(ended);
  });

  it("cancels and requeues as the SQLite store does", async () => {
    const { store, create } = await withModel();
    await create("j1");
    await create("j2");
    const now = Date.now();
    await store.jobs.claim("j2", { owner: "p1", expiresAt: now + 60_000 }, now, "attempt 1");
    expect(await store.jobs.requeue("j2", "p2", "not mine")).toBe(false);
    expect(await store.jobs.requeue("j2", "p1", "stopping")).toBe(true);
    expect(await store.jobs.row("j2")).toMatchObject({ status: "queued", lease_owner: null, attempts: 1 });
    expect(await store.jobs.cancel("j1", "by user")).toMatchObject({ cancelled: true, row: { status: "cancelled" } });
    expect(await store.jobs.cancel("none", "x")).toBeUndefined();
  });

  it("refuses a second job with one id as a DuplicateJobError, and keeps the first", async () => {
    const { store, modelId, create } = await withModel();
    await create("j1", { a: 1 });
    await expect(create("j1", { a: 2 })).rejects.toBeInstanceOf(DuplicateJobError);
    expect(JSON.parse((await store.jobs.row("j1"))!.request)).toEqual({ a: 1 });
    expect((await store.listings.jobs(modelId, { limit: 10 })).rows).toHaveLength(1);
  });

  it("keeps a request's JSON text as sent: huge integers as text, float extremes, empty strings and nulls", async () => {
    const { store, modelId } = await withModel();
    const request = {
      seed: "123456789012345678901234567890",
      big: "-9223372036854775809",
      max: Number.MAX_SAFE_INTEGER,
      tiny: 5e-324,
      huge: 1.7976931348623157e308,
      name: "",
      none: null,
      input_blob_id: "",
    };
    await store.jobs.create({ id: "j1", modelId, jobType: "t", request, digest: "d", keyHolder: null });
    const row = (await store.jobs.row("j1"))!;
    expect(row.request).toBe(JSON.stringify(request));
    expect(jobFields(row).request).toEqual(request);
    expect(typeof row.had_keys).toBe("number");
    expect(typeof row.revision).toBe("number");
    expect((await store.listings.jobs(modelId, { limit: 1 })).rows[0]!.request).toBe(row.request);
    // Prune reads unfinished requests as jsonb: these numbers and the empty input id must not break it,
    // and an empty input id pins the blob whose id is '' (none), not every blob.
    await store.blobs.insert("b", modelId, 1, blobContent, "2020-01-01T00:00:00.000Z");
    expect(await store.prune({ before: new Date().toISOString(), dryRun: true })).toMatchObject({
      blobs: [{ id: "b" }],
      pinned: 0,
      jobs: 0,
    });
  });

  it("refuses NaN progress as the SQLite store does, and leaves the job as it was", async () => {
    const { store, create } = await withModel();
    await create("j1");
    const now = Date.now();
    await store.jobs.claim("j1", { owner: "p1", expiresAt: now + 60_000 }, now, "attempt 1");
    const before = await store.jobs.row("j1");
    await expect(store.jobs.progress("j1", "p1", "fitting", Number.NaN)).rejects.toThrow(/check constraint/);
    expect(await store.jobs.row("j1")).toEqual(before);
  });
});
