/**
 * A process frozen (SIGSTOP) longer than the lease, between placing a blob file and
 * committing its row, while another process starts on the same data dir: the frozen
 * one still holds its OS lock, so its temp folder and its placed file stay; a file no
 * live process is about to commit goes. Thawed, it serves as before. And the fence: a
 * late holder's commit is refused by attempt number.
 */
import { randomUUID } from "node:crypto";
import { existsSync, linkSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "../../src/server/store/sqlite/database.js";
import { JobStore } from "../../src/server/store/sqlite/jobs.js";
import { multipartBody, registerApp, ServeHarness, tokenOf } from "./serve-harness.js";

const h = new ServeHarness();
afterAll(() => h.cleanup());

const FIELDS: [string, string][] = [
  ["Name", "d.csv"],
  ["RecordType", "csv"],
  ["AccessTier", "hot"],
];

it("frozen past the lease between place and commit: a starting process keeps its temp folder and placed file, removes a true orphan", async () => {
  const dataDir = await h.tempDir();
  const frozen = await h.serve(dataDir, ["--workers", "1"]);
  const app = registerApp(dataDir);
  const token = await tokenOf(frozen.url, app);
  const [ownerDir] = readdirSync(join(dataDir, "tmp"));
  expect(ownerDir).toBeDefined();
  // What `place` leaves between the link and the commit: the blob file, with its temp link.
  const placed = join(dataDir, "blobs", `${randomUUID()}.1`);
  writeFileSync(placed, "a\n1\n");
  linkSync(placed, join(dataDir, "tmp", ownerDir!, "upload.part"));
  // A file no live process will commit (a dead process's, its folder already gone).
  const orphan = join(dataDir, "blobs", `${randomUUID()}.1`);
  writeFileSync(orphan, "a\n2\n");

  frozen.child.kill("SIGSTOP");
  try {
    // Longer than the 10 s lease and heartbeat staleness.
    await new Promise((r) => setTimeout(r, 11_000));
    const second = await h.serve(dataDir);
    expect(second.log()).toContain("removed orphan files");
    expect(existsSync(placed)).toBe(true);
    expect(existsSync(join(dataDir, "tmp", ownerDir!))).toBe(true);
    expect(existsSync(orphan)).toBe(false);
  } finally {
    frozen.child.kill("SIGCONT");
  }
  const r = await fetch(`${frozen.url}/api/model/${app.modelId}/shared/blob/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=fb" },
    body: multipartBody("fb", FIELDS, "a,b\n1,2\n"),
  });
  expect(r.status).toBe(200);
}, 90_000);

it("the fence: a holder whose job was taken over cannot commit, even after it claimed the job again", async () => {
  const dataDir = await h.tempDir();
  const { modelId } = registerApp(dataDir);
  const db = openDatabase(dataDir);
  try {
    const jobs = new JobStore(db);
    const id = randomUUID();
    jobs.create({ id, modelId, jobType: "preprocessing", request: {}, digest: "d", keyHolder: null });
    const first = jobs.claim(id, { owner: "a", expiresAt: 1 }, 0, "attempt 1");
    expect(first?.attempts).toBe(1);
    // "a" looks dead (its lease expired): "b" takes over, then hands the job back, "a" claims again.
    expect(jobs.claim(id, { owner: "b", expiresAt: 10 }, 5, "attempt 2")?.attempts).toBe(2);
    expect(jobs.finish(id, "succeeded", {}, { leaseOwner: "a", attempt: 1 })).toBe(false);
    expect(jobs.requeue(id, "b", "stopping")).toBe(true);
    expect(jobs.claim(id, { owner: "a", expiresAt: 100 }, 20, "attempt 3")?.attempts).toBe(3);
    expect(jobs.finish(id, "succeeded", {}, { leaseOwner: "a", attempt: 1 })).toBe(false);
    expect(jobs.finish(id, "succeeded", {}, { leaseOwner: "a", attempt: 3 })).toBe(true);
    expect(jobs.row(id)?.status).toBe("succeeded");
  } finally {
    db.close();
  }
});
