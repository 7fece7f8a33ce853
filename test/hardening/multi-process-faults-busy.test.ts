/**
 * A database write lock held past the busy timeout by another process, as by a service
 * process frozen (SIGSTOP, Ctrl-Z) in the middle of a write: a write meeting it is a
 * 503 naming the cause (`storage_busy`, Retry-After), not a 500; the process lives on
 * and writes again once the lock is free. (Its heartbeats wait 100 ms for the lock, not
 * the 10 s busy timeout: before, each one stalled the process, and this answer came
 * after a minute.) A commit meeting it is retried, not failed:
 * the attempt ends without a terminal state and only the leases of jobs still running
 * are renewed, so the job's lease runs out and it runs again.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { LogLevel } from "../../src/core/contract/index.js";
import { commitEnding } from "../../src/server/jobs/run-ending.js";
import { storageFaultOf } from "../../src/server/store/storage-fault.js";
import { DATABASE_FILE, openDatabase } from "../../src/server/store/sqlite/database.js";
import { openSqlite } from "../../src/server/store/sqlite/sqlite.js";
import { JobStore } from "../../src/server/store/sqlite/jobs.js";
import { Fleet } from "./multi-process-faults-fleet.js";
import { registerApp, ServeHarness, tokenOf } from "./serve-harness.js";

const h = new ServeHarness();
let fleet: Fleet | undefined;
afterAll(async () => {
  await fleet?.cleanup();
  await h.cleanup();
});

async function upload(url: string, token: string, modelId: string) {
  const form = new FormData();
  for (const [k, v] of [
    ["Name", "b.csv"],
    ["RecordType", "csv"],
    ["AccessTier", "hot"],
  ])
    form.append(k!, v!);
  form.append("File", new Blob(["a\n1\n"]), "data");
  const response = await fetch(`${url}/api/model/${modelId}/shared/blob/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
}

it("a write lock held past the busy timeout: the write is a 503 storage_busy with Retry-After, the process lives, writes resume after", async () => {
  const dataDir = await h.tempDir();
  const f = (fleet = new Fleet({ dataDir, leaseMs: 1500 }));
  const service = await f.start(0);
  const app = registerApp(dataDir);
  const token = await tokenOf(service.url, app);
  // Another process's write transaction, left open as a frozen process leaves it.
  // Through the driver this runtime uses: better-sqlite3's build is for Node 20 only.
  const holder = openSqlite(join(dataDir, DATABASE_FILE));
  holder.exec("PRAGMA busy_timeout = 30000");
  holder.exec("BEGIN IMMEDIATE");
  let locked;
  const started = Date.now();
  try {
    locked = await upload(service.url, token, app.modelId);
    console.log(`answered after ${Date.now() - started} ms with the write lock held`);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  expect(locked).toMatchObject({ status: 503, retryAfter: "5", body: { code: "storage_busy", status: 503 } });
  expect((locked.body as { detail: string }).detail).toMatch(/locked by another service process/);
  expect(f.crashed()).toEqual([]);
  expect((await upload(service.url, token, app.modelId)).status).toBe(200);
}, 180_000);

it("a commit that met a locked database leaves the job to its lease: no terminal state, and the lease is not renewed", async () => {
  const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
  expect(storageFaultOf(busy)).toBe("busy");
  const lines: Array<[LogLevel, string]> = [];
  expect(commitEnding(busy, (level, message) => lines.push([level, message]))).toEqual({ kind: "abandoned" });
  expect(lines[0]?.[1]).toMatch(/runs again/);
  // Any other error still fails the job.
  expect(commitEnding(new Error("boom"), () => {})).toMatchObject({ kind: "failed" });

  const dataDir = await h.tempDir();
  const { modelId } = registerApp(dataDir);
  const db = openDatabase(dataDir);
  try {
    const jobs = new JobStore(db);
    const [kept, given] = [randomUUID(), randomUUID()];
    for (const id of [kept, given]) {
      jobs.create({ id, modelId, jobType: "preprocessing", request: {}, digest: "d", keyHolder: null });
      jobs.claim(id, { owner: "me", expiresAt: 10 }, 0, "attempt 1");
    }
    expect(jobs.renewLeases("me", 1000, [kept])).toBe(1);
    expect(jobs.row(kept)?.lease_expires_at).toBe(1000);
    expect(jobs.row(given)?.lease_expires_at).toBe(10);
    // Its lease ran out: claimable again, by its own process too.
    expect(jobs.claimable(500, 10).map((c) => c.id)).toEqual([given]);
  } finally {
    db.close();
  }
});
