/**
 * A job that meets a storage fault fails with its true reason or runs again, on both
 * stores; it never fails as an internal error. Forced for real:
 *
 * - A full disk: the data dir on a small tmpfs (root mounts it; CI runs as root), filled
 *   after the input was uploaded, so the worker's output write meets ENOSPC. The job fails
 *   "Storage full" naming the cause; the acknowledged input still reads back whole, no
 *   file is left without its row, the service keeps serving, and once space is freed the
 *   job sent again succeeds. On SQLite and on PostgreSQL (its blob dir on the tmpfs).
 * - A file-size limit (`ulimit -f` on the replica, PostgreSQL): the output write meets
 *   EFBIG, and the job fails "Storage full" naming the limit.
 * - The database unreachable mid-commit (PostgreSQL): a proxy drops the answer to the
 *   ending's first INSERT and refuses connections for a while, so the transaction never
 *   commits and the replica cannot ask. The attempt is given up without a terminal state,
 *   and the job runs again once the database answers and the lease has run out; the first
 *   attempt's placed file goes at the next start's sweep.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, open, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { blobRecord, logDetails } from "../../src/core/contract/index.js";
import { DATABASE_FILE } from "../../src/server/store/sqlite/database.js";
import { startCutProxy, type CutProxy } from "../harness/pg-cut-proxy.js";
import { postgresTool } from "../harness/postgres.js";
import { registerApp, ServiceStarter, type AppCredentials } from "../harness/service-starter.js";
import { describeWithTool, type RequiredTool } from "../required-tool.js";
import {
  Api,
  json,
  numericCsv,
  outputsOf,
  preprocessingBody,
  referenceJob,
  tokenFor,
} from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";
import { registerPgApp } from "./pg-app.js";

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
/** 600 KB of CSV whose StandardScaler output (full-precision floats) is about 1.6 MB. */
const INPUT = numericCsv(20_000);
/** What stays free on the filled tmpfs: room for the store's small writes, not for the output. */
const LEFT_FREE = 384 * 1024;

const tmpfsTool: RequiredTool = (() => {
  try {
    execFileSync("mount", ["--version"], { stdio: "ignore" });
    return { name: "tmpfs mounts (root)", missing: process.getuid?.() === 0 ? null : "mounting a tmpfs needs root" };
  } catch {
    return { name: "tmpfs mounts (root)", missing: "mount(8) is not installed" };
  }
})();

/** Fills the file system of `dir` with `dir/filler` until ENOSPC, then frees `LEFT_FREE` bytes. */
async function fill(dir: string): Promise<string> {
  const path = join(dir, "filler");
  const file = await open(path, "w");
  const chunk = Buffer.alloc(64 * 1024, 120);
  let size = 0;
  try {
    for (;;) size += (await file.write(chunk)).bytesWritten;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  }
  await file.truncate(Math.max(0, size - LEFT_FREE));
  await file.close();
  return path;
}

/** Nothing wrong in the failure text: the true cause, what ends it, and no "internal error". */
function expectFullDisk(error: { title: string; detail: string } | null | undefined): void {
  expect(error?.title, JSON.stringify(error)).toBe("Storage full");
  expect(error?.detail).toContain("no space left on the data dir's disk (ENOSPC)");
  expect(error?.detail).toContain("Submit the job again once the operator has freed space");
  expect(error?.detail).not.toMatch(/internal|report it/i);
}

const mounts: string[] = [];

/** A data dir on a 16 MiB tmpfs of its own. */
async function smallDisk(starter: ServiceStarter): Promise<string> {
  const mount = join(await starter.tempDir(), "small");
  await mkdir(mount);
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mount]);
  mounts.push(mount);
  return mount;
}

interface FullDiskRun {
  starter: ServiceStarter;
  /** Starts the service on `dataDir` and makes its application. */
  start: (dataDir: string) => Promise<{ api: Api; app: AppCredentials }>;
  /** The blob rows as `<id>.<revision>`. */
  rows: (dataDir: string) => Promise<string[]>;
}

async function fullDiskJob({ starter, start, rows }: FullDiskRun): Promise<void> {
  const mount = await smallDisk(starter);
  const dataDir = join(mount, "data");
  const { api, app } = await start(dataDir);
  const uploaded = await api.upload(INPUT);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const input = json(blobRecord, uploaded);

  const filler = await fill(mount);
  const sent = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, input.id));
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const job = await api.waitForJob(json(referenceJob, sent).id, undefined, 60_000);
  expect(job.status).toBe("failed");
  expectFullDisk(job.error);
  const logs = json(logDetails, await api.call("GET", `/api/job/${job.id}/logs`));
  expect(JSON.stringify(logs)).not.toMatch(/internal error/i);

  // Nothing acknowledged lost, no output file without its row, and the service still serves.
  const download = await api.download(input.id);
  expect(download.status).toBe(200);
  expect(sha256(download.body)).toBe(sha256(INPUT));
  expect((await readdir(join(dataDir, "blobs"))).sort()).toEqual(await rows(dataDir));
  expect((await api.call("GET", "/api/shared/health")).status).toBe(200);

  // Space freed: the same job sent again succeeds.
  await rm(filler);
  const again = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, input.id));
  expect(again.status, JSON.stringify(again.body)).toBe(200);
  const done = await api.waitForJob(json(referenceJob, again).id, undefined, 60_000);
  expect(done.status, JSON.stringify(done.error)).toBe("succeeded");
  const [output] = outputsOf(await api.call("GET", `/api/ml/preprocessing/job/${done.id}/result`));
  const out = await api.download(output!.id);
  expect(out.status).toBe(200);
  expect(sha256(out.body)).toBe(output!.sha256);
  expect(out.body.length).toBeGreaterThan(LEFT_FREE);
  expect((await readdir(join(dataDir, "blobs"))).sort()).toEqual(await rows(dataDir));
}

/** The blob rows of a PostgreSQL store, as `<id>.<revision>`. */
async function pgRows(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; revision: number }>("SELECT id, revision FROM blobs");
    return rows.map((r) => `${r.id}.${r.revision}`).sort();
  } finally {
    await client.end();
  }
}

describeWithTool(tmpfsTool, "a job on a full disk", () => {
  const starter = new ServiceStarter("mdps-job-faults-");
  afterAll(async () => {
    for (const m of mounts) execFileSync("umount", ["-l", m]);
    await starter.cleanup();
  });

  it("SQLite data dir: fails 'Storage full' naming ENOSPC, loses nothing, and runs once space is freed", async () => {
    await fullDiskJob({
      starter,
      start: async (dataDir) => {
        const service = await starter.spawn({ lease: { dataDir, leaseMs: 3000, workers: 1 } });
        const app = registerApp(dataDir);
        return { api: new Api(service, await tokenFor(service, app), app.modelId), app };
      },
      rows: (dataDir) => {
        const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
        try {
          const blobs = db.prepare("SELECT id, revision FROM blobs").all() as { id: string; revision: number }[];
          return Promise.resolve(blobs.map((b) => `${b.id}.${b.revision}`).sort());
        } finally {
          db.close();
        }
      },
    });
  }, 120_000);

  describeWithTool(postgresTool, "on PostgreSQL", () => {
    const pgc = useCluster();
    it("PostgreSQL with its blob dir on the full disk: the same", async () => {
      const url = await pgc.fresh();
      await fullDiskJob({
        starter,
        start: async (dataDir) => {
          const service = await starter.spawn({
            lease: { dataDir, leaseMs: 3000, workers: 1 },
            env: { MDPS_STORE: url },
          });
          const app = await registerPgApp(url);
          return { api: new Api(service, await tokenFor(service, app), app.modelId), app };
        },
        rows: () => pgRows(url),
      });
    }, 120_000);
  });
});

describeWithTool(postgresTool, "a job whose output passes the process's file-size limit", () => {
  const pgc = useCluster();
  const starter = new ServiceStarter("mdps-job-fsize-");
  afterAll(() => starter.cleanup());

  it("fails 'Storage full' naming EFBIG and the limit; a job within it then succeeds", async () => {
    const url = await pgc.fresh();
    const dataDir = await starter.tempDir();
    // 2048 blocks of 512 bytes: the input (600 KB) fits, its output (1.6 MB) does not.
    const replica = await starter.spawn({
      lease: { dataDir, leaseMs: 3000, workers: 1 },
      env: { MDPS_STORE: url },
      prefix: ["sh", "-c", 'ulimit -f 2048 && exec "$@"', "sh"],
    });
    const app = await registerPgApp(url);
    const api = new Api(replica, await tokenFor(replica, app), app.modelId);
    const input = json(blobRecord, await api.upload(INPUT));
    const sent = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, input.id));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const job = await api.waitForJob(json(referenceJob, sent).id, undefined, 60_000);
    expect(job.status).toBe("failed");
    expect(job.error?.title, JSON.stringify(job.error)).toBe("Storage full");
    expect(job.error?.detail).toContain("its file-size limit, ulimit -f) (EFBIG)");
    expect(job.error?.detail).toContain("once the operator has raised the service process's file-size limit");
    expect(job.error?.detail).not.toMatch(/internal|report it/i);
    expect(replica.child.exitCode).toBeNull();

    const small = json(blobRecord, await api.upload("a,b\n1,10\n2,20\n3,30\n"));
    const next = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, small.id));
    const done = await api.waitForJob(json(referenceJob, next).id, undefined, 60_000);
    expect(done.status, JSON.stringify(done.error)).toBe("succeeded");
    const download = await api.download(input.id);
    expect(sha256(download.body)).toBe(sha256(INPUT));
    const rows = await pgRows(url);
    expect(rows).toHaveLength(3);
    expect((await readdir(join(dataDir, "blobs"))).sort()).toEqual(rows);
  }, 120_000);
});

describeWithTool(postgresTool, "a job whose commit meets the database unreachable", () => {
  const pgc = useCluster();
  const starter = new ServiceStarter("mdps-job-outage-");
  let proxy: CutProxy | undefined;
  afterAll(async () => {
    await proxy?.close();
    await starter.cleanup();
  });

  it("runs again once the database answers and the lease ran out, and succeeds once", async () => {
    const url = await pgc.fresh();
    proxy = await startCutProxy({ host: "127.0.0.1", port: pgc.cluster().port });
    const dataDir = await starter.tempDir();
    const through = new URL(url);
    through.port = String(proxy.port);
    const replica = await starter.spawn({
      lease: { dataDir, leaseMs: 3000, workers: 1 },
      env: { MDPS_STORE: through.toString() },
    });
    const app = await registerPgApp(url);
    const api = new Api(replica, await tokenFor(replica, app), app.modelId);
    const uploaded = await api.upload("a,b\n1,10\n2,20\n3,30\n");
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const input = json(blobRecord, uploaded);

    // The ending's transaction: its first INSERT's answer is dropped, so its COMMIT is never sent.
    const cut = proxy.arm({ statement: "INSERT INTO blobs", outageMs: 2000 });
    const sent = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, input.id));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await cut;
    // Polled once the database answers again (meanwhile reads answer 503 storage_unavailable).
    await new Promise((r) => setTimeout(r, 2500));
    const job = await api.waitForJob(json(referenceJob, sent).id, undefined, 60_000);
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(job.attempts).toBe(2);
    const logs = JSON.stringify(json(logDetails, await api.call("GET", `/api/job/${job.id}/logs`)));
    expect(logs).toContain("the database could not be reached; the job runs again");
    expect(logs).not.toMatch(/internal error/i);
    const [output] = outputsOf(await api.call("GET", `/api/ml/preprocessing/job/${job.id}/result`));
    const out = await api.download(output!.id);
    expect(out.status).toBe(200);
    expect(sha256(out.body)).toBe(output!.sha256);
    expect(proxy.cuts()).toBe(1);
    // The first attempt's placed output has no row: a write on its way could still have
    // landed, so it is left to the orphan sweep, which asks the database (at the next start).
    await replica.kill("SIGTERM");
    const next = await starter.spawn({ lease: { dataDir, leaseMs: 3000, workers: 1 }, env: { MDPS_STORE: url } });
    await next.kill("SIGTERM");
    const rows = await pgRows(url);
    expect(rows).toHaveLength(2);
    expect((await readdir(join(dataDir, "blobs"))).sort()).toEqual(rows);
  }, 120_000);
});
