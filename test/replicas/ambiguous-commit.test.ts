/**
 * Ambiguous commits, forced: a proxy between a replica and PostgreSQL forwards the write
 * and drops the server's answer (test/harness/pg-cut-proxy.ts), so the row is committed
 * while the replica hears a broken connection. The replica asks the database again
 * before it answers or removes anything: the upload, the If-Match update and the job's
 * outputs are acknowledged and read back whole. When the database stays unreachable the
 * client hears that the outcome is unknown, and the file is kept until it is known.
 * Afterwards every row has its file and every file its row.
 */
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { blobRecord } from "../../src/core/contract/index.js";
import { startCutProxy, type CutProxy } from "../harness/pg-cut-proxy.js";
import { postgresTool } from "../harness/postgres.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { describeWithTool } from "../required-tool.js";
import { Api, json, outputsOf, preprocessingBody, referenceJob, tokenFor } from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";
import { registerPgApp } from "./pg-app.js";

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** `url` with its port replaced by `port`: the replica reaches the database through the proxy. */
function throughPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}

/** The blob rows (`<id>.<revision>`) and the files of the blob dir, to compare. */
async function rowsAndFiles(url: string, dataDir: string): Promise<{ rows: string[]; files: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; revision: number }>("SELECT id, revision FROM blobs");
    return {
      rows: rows.map((r) => `${r.id}.${r.revision}`).sort(),
      files: (await readdir(join(dataDir, "blobs"))).sort(),
    };
  } finally {
    await client.end();
  }
}

async function holds(dataDir: string): Promise<string[]> {
  const entries = await readdir(join(dataDir, "tmp"), { recursive: true });
  return entries.filter((e) => e.endsWith(".hold"));
}

describeWithTool(postgresTool, "a commit whose answer is lost", () => {
  const pgc = useCluster();
  const starter = new ServiceStarter("mdps-ambiguous-");
  let proxy: CutProxy | undefined;
  afterAll(async () => {
    await proxy?.close();
    await starter.cleanup();
  });

  it("upload, If-Match update and job outputs committed behind a dropped answer are acknowledged and read back; an unreachable database makes the outcome unknown, and the file stays", async () => {
    const url = await pgc.fresh();
    proxy = await startCutProxy({ host: "127.0.0.1", port: pgc.cluster().port });
    const dataDir = await starter.tempDir();
    const replica = await starter.spawn({
      lease: { dataDir, leaseMs: 3000, workers: 1 },
      env: { MDPS_STORE: throughPort(url, proxy.port) },
    });
    const app = await registerPgApp(url);
    const api = new Api(replica, await tokenFor(replica, app), app.modelId);

    // Upload: the INSERT commits, its answer is dropped.
    const first = "a,b\n1,10\n2,20\n3,30\n";
    let cut = proxy.arm({ statement: "INSERT INTO blobs" });
    const uploaded = await api.upload(first);
    await cut;
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const blob = json(blobRecord, uploaded);
    expect(sha256((await api.download(blob.id)).body)).toBe(sha256(first));

    // If-Match update: the UPDATE commits (one statement), its answer is dropped.
    const second = "a,b\n4,40\n5,50\n6,60\n";
    cut = proxy.arm({ statement: "UPDATE blobs SET revision" });
    const updated = await api.upload(second, undefined, {
      blobId: blob.id,
      headers: { "if-match": `"${sha256(first)}"` },
    });
    await cut;
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const download = await api.download(blob.id);
    expect(download.status).toBe(200);
    expect(download.headers.get("etag")).toBe(`"${sha256(second)}"`);
    expect(sha256(download.body)).toBe(sha256(second));

    // Job outputs: the ending's transaction commits, the answer to its COMMIT is dropped.
    cut = proxy.arm({ statement: "INSERT INTO blobs", answerOf: "COMMIT\u0000" });
    const sent = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, blob.id));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const jobId = json(referenceJob, sent).id;
    await cut;
    const job = await api.waitForJob(jobId, undefined, 60_000);
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    const result = await api.call("GET", `/api/ml/preprocessing/job/${jobId}/result`);
    const [output] = outputsOf(result);
    expect(output).toBeDefined();
    const out = await api.download(output!.id);
    expect(out.status).toBe(200);
    expect(sha256(out.body)).toBe(output!.sha256);
    // The attempt committed once: no second attempt ran.
    expect(job.attempts).toBe(1);

    // The database unreachable for longer than the replica asks: the outcome is unknown.
    const third = "a,b\n7,70\n";
    cut = proxy.arm({ statement: "INSERT INTO blobs", outageMs: 8000 });
    const unknown = await api.upload(third);
    await cut;
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(503);
    expect(unknown.headers.get("retry-after")).toBe("5");
    const problem = unknown.body as { code: string; detail: string };
    expect(problem.code).toBe("storage_outcome_unknown");
    const unknownId = /it is blob ([0-9a-f-]{36})/.exec(problem.detail)?.[1];
    expect(unknownId, problem.detail).toBeDefined();
    expect(problem.detail).toContain(sha256(third));
    expect(problem.detail).toContain("it may or may not have been stored");
    expect(problem.detail).not.toContain("nothing was stored");
    // Still unreachable: a write whose connection drops hears that its outcome is open too.
    const meanwhile = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, blob.id));
    expect(meanwhile.status, JSON.stringify(meanwhile.body)).toBe(503);
    const dropped = meanwhile.body as { code: string; detail: string };
    expect(dropped.code).toBe("storage_unavailable");
    expect(dropped.detail).toContain("may or may not have been stored");
    expect(dropped.detail).not.toContain("nothing was stored");
    expect(await holds(dataDir)).toHaveLength(1);
    // Once the database answers again the replica settles it: committed, its file kept, the hold gone.
    const deadline = Date.now() + 30_000;
    while ((await holds(dataDir)).length > 0) {
      if (Date.now() > deadline) throw new Error("the unknown commit was not settled in 30 s");
      await new Promise((r) => setTimeout(r, 200));
    }
    const late = await api.download(unknownId!);
    expect(late.status).toBe(200);
    expect(sha256(late.body)).toBe(sha256(third));

    expect(proxy.cuts()).toBe(4);
    const { rows, files } = await rowsAndFiles(url, dataDir);
    expect(files).toEqual(rows);
    expect(rows).toHaveLength(3);
  }, 120_000);

  it("an update still running on the server when its connection broke is ended before the replica answers, so its 'not stored' stays true", async () => {
    const url = await pgc.fresh();
    const cutter = await startCutProxy({ host: "127.0.0.1", port: pgc.cluster().port });
    const locker = new pg.Client({ connectionString: url });
    try {
      const dataDir = await starter.tempDir();
      const replica = await starter.spawn({
        lease: { dataDir, leaseMs: 3000, workers: 1 },
        env: { MDPS_STORE: throughPort(url, cutter.port) },
      });
      const app = await registerPgApp(url);
      const api = new Api(replica, await tokenFor(replica, app), app.modelId);
      const first = "a,b\n1,10\n";
      const blob = json(blobRecord, await api.upload(first));

      // A lock held here keeps the UPDATE waiting on the server after the replica's side is cut.
      await locker.connect();
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM blobs WHERE id = $1 FOR UPDATE", [blob.id]);
      const cut = cutter.arm({ statement: "UPDATE blobs SET revision", cutWhenSent: true });
      const updating = api.upload("a,b\n2,20\n", undefined, {
        blobId: blob.id,
        headers: { "if-match": `"${sha256(first)}"` },
      });
      await cut;
      const updated = await updating;
      expect(updated.status, JSON.stringify(updated.body)).toBe(503);
      const problem = updated.body as { code: string; detail: string };
      expect(problem.code).toBe("storage_unavailable");
      expect(problem.detail).toContain("had not stored it");
      expect(updated.headers.get("retry-after")).toBe("5");

      // Released: an UPDATE still waiting would commit now, making the answer a lie.
      await locker.query("COMMIT");
      await new Promise((r) => setTimeout(r, 1000));
      const download = await api.download(blob.id);
      expect(download.status).toBe(200);
      expect(download.headers.get("etag")).toBe(`"${sha256(first)}"`);
      const { rows, files } = await rowsAndFiles(url, dataDir);
      expect(rows).toEqual([`${blob.id}.1`]);
      expect(files).toEqual(rows);
      expect(cutter.cuts()).toBe(1);
    } finally {
      await locker.end().catch(() => undefined);
      await cutter.close();
    }
  }, 60_000);
});
