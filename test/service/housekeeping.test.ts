/**
 * `mdps admin usage` and `mdps admin prune`: counts, and prune never removing a blob a
 * queued or running job reads. Rows are written straight into a data dir's store.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAdmin } from "../../src/server/admin/admin.js";
import { openDatabase, type Db } from "../../src/server/store/sqlite/database.js";
import { ensureBuilt, MAIN } from "../cli/built-cli.js";
import { STORE_DRIVERS } from "./sqlite-drivers.js";

const DAY = 86_400_000;

describe.each(STORE_DRIVERS)("housekeeping on %s", (driver) => {
  let dir: string;
  let db: Db;
  let modelId: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "mdps-housekeeping-"));
    const admin = openAdmin(dir, { sqliteDriver: driver });
    modelId = admin.createModel("m").model_id;
    admin.close();
    db = openDatabase(dir, { driver });
    mkdirSync(join(dir, "blobs"), { recursive: true });
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function blob(name: string, ageDays: number, tags: string[] = []): string {
    const id = randomUUID();
    const at = new Date(Date.now() - ageDays * DAY).toISOString();
    db.prepare(
      `INSERT INTO blobs (id, model_id, revision, name, description, record_type, access_tier, tags, content_type,
         size_bytes, sha256, encrypted, created_at, updated_at)
       VALUES (?, ?, 1, ?, NULL, 'csv', 'hot', ?, 'text/csv', 100, 'x', 0, ?, ?)`,
    ).run(id, modelId, name, JSON.stringify(tags), at, at);
    writeFileSync(join(dir, "blobs", `${id}.1`), "x".repeat(100));
    return id;
  }

  function job(status: string, inputBlobId: string, finishedDaysAgo: number | null): string {
    const id = randomUUID();
    const finished = finishedDaysAgo === null ? null : new Date(Date.now() - finishedDaysAgo * DAY).toISOString();
    db.prepare(
      `INSERT INTO jobs (id, model_id, job_type, status, progress, phase, created_at, started_at, finished_at, attempts,
         error, request, request_digest, had_keys)
       VALUES (?, ?, 'preprocessing', ?, 0, NULL, ?, NULL, ?, 0, NULL, ?, 'd', 0)`,
    ).run(
      id,
      modelId,
      status,
      new Date(Date.now() - 30 * DAY).toISOString(),
      finished,
      JSON.stringify({ input_blob_id: inputBlobId }),
    );
    db.prepare(
      `INSERT INTO job_logs (job_id, timestamp, level, message, hostname, replica_name, process_id) VALUES (?, ?, 'info', 'm', 'h', 'r', 1)`,
    ).run(id, new Date().toISOString());
    return id;
  }

  const blobIds = () => (db.prepare("SELECT id FROM blobs").all() as Array<{ id: string }>).map((r) => r.id).sort();
  const jobIds = () => (db.prepare("SELECT id FROM jobs").all() as Array<{ id: string }>).map((r) => r.id).sort();

  describe("prune", () => {
    it("removes old blobs and finished jobs, never the input of a queued or running job", () => {
      const old = blob("old.csv", 10);
      const queuedInput = blob("queued-input.csv", 10);
      const runningInput = blob("running-input.csv", 10);
      const doneInput = blob("done-input.csv", 10);
      const recent = blob("recent.csv", 1);
      const queued = job("queued", queuedInput, null);
      const running = job("running", runningInput, null);
      const oldDone = job("succeeded", doneInput, 9);
      const recentDone = job("failed", doneInput, 2);

      const admin = openAdmin(dir, { sqliteDriver: driver });
      const dry = admin.prune({ olderThanMs: 7 * DAY, dryRun: true });
      expect(dry.blobs.map((b) => b.id).sort()).toEqual([old, doneInput].sort());
      expect(blobIds()).toHaveLength(5);

      const report = admin.prune({ olderThanMs: 7 * DAY });
      admin.close();
      expect(report).toMatchObject({ pinned: 2, jobs: 1, bytes: 200, dryRun: false });
      expect(blobIds()).toEqual([queuedInput, runningInput, recent].sort());
      expect(jobIds()).toEqual([queued, running, recentDone].sort());
      expect(jobIds()).not.toContain(oldDone);
      // The removed blobs' files are gone with their rows; the pinned ones' stay.
      expect(existsSync(join(dir, "blobs", `${old}.1`))).toBe(false);
      expect(existsSync(join(dir, "blobs", `${queuedInput}.1`))).toBe(true);
      // The old job's logs went with it (ON DELETE CASCADE).
      expect(db.prepare("SELECT COUNT(*) AS n FROM job_logs").get()).toEqual({ n: 3 });
    });

    it("with --tag removes only that tag's blobs and keeps every job", () => {
      const auto = blob("auto.csv", 3, ["mdps:auto-input"]);
      const mine = blob("mine.csv", 3, ["mine"]);
      const pinnedAuto = blob("pinned-auto.csv", 3, ["mdps:auto-input"]);
      job("queued", pinnedAuto, null);
      job("succeeded", mine, 3);
      const admin = openAdmin(dir, { sqliteDriver: driver });
      const report = admin.prune({ olderThanMs: DAY, tag: "mdps:auto-input" });
      admin.close();
      expect(report.blobs.map((b) => b.id)).toEqual([auto]);
      expect(report).toMatchObject({ pinned: 1, jobs: 0 });
      expect(blobIds()).toEqual([mine, pinnedAuto].sort());
      expect(jobIds()).toHaveLength(2);
    });
  });

  describe("mdps admin usage and prune", () => {
    it("count blobs, jobs and bytes, and prune as documented", () => {
      ensureBuilt();
      const a = blob("a.csv", 10, ["mdps:auto-input"]);
      blob("b.csv", 1);
      job("succeeded", a, 9);
      job("queued", a, null);
      const run = (...args: string[]) =>
        execFileSync(process.execPath, [MAIN, "admin", ...args, "--data-dir", dir], {
          encoding: "utf8",
          env: { ...process.env, MDPS_SQLITE_DRIVER: driver },
        });

      const usage = JSON.parse(run("usage", "--json")) as Record<string, unknown>;
      expect(usage).toMatchObject({
        blobs: 2,
        blobBytes: 200,
        jobs: 2,
        jobsByStatus: { queued: 1, succeeded: 1 },
        tagged: { tag: "mdps:auto-input", blobs: 1, bytes: 100 },
      });
      expect(usage.diskBytes).toBeGreaterThan(200);
      expect(run("usage")).toContain("blobs:    2 (200 B)");

      const text = run("prune", "--older-than", "7d");
      expect(text).toContain("removed 0 blob(s) (0 B)");
      expect(text).toContain("and 1 job(s) finished before it");
      expect(text).toContain("kept 1 old blob(s) that a queued or running job reads");
      expect(() => run("prune", "--older-than", "7 days")).toThrow(/not a duration/);
    }, 240_000); // ensureBuilt may build dist first
  });
});
