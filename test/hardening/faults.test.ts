/**
 * kill -9 of `mdps serve` while uploads, updates and jobs are in flight; then a restart
 * on the same data dir, and: every acknowledged blob intact (sha256), every update
 * all-old or all-new, every acknowledged job terminal, no temp file and no blob file
 * without its row. Then the secrets used (client secret, tokens) are looked for in every
 * log and every file of the data dir.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { isTerminalStatus } from "../../src/core/contract/index.js";
import { openSqlite } from "../../src/server/store/sqlite/sqlite.js";
import { multipartBody, registerApp, ServeHarness, tmpFiles, tokenOf, until } from "./serve-harness.js";

const h = new ServeHarness();
afterAll(() => h.cleanup());

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const FIELDS: [string, string][] = [
  ["Name", "d.csv"],
  ["RecordType", "csv"],
  ["AccessTier", "hot"],
];

function csv(seed: number, rows: number): Buffer {
  const lines = ["a,b,c"];
  for (let i = 0; i < rows; i++) lines.push(`${i},${(i * seed) % 9973},${seed}`);
  return Buffer.from(`${lines.join("\n")}\n`);
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}

it("kill -9 with uploads, updates and jobs in flight loses nothing acknowledged", async () => {
  const dataDir = await h.tempDir();
  let served = await h.serve(dataDir, ["--workers", "1"]);
  const app = registerApp(dataDir);
  const token = await tokenOf(served.url, app);
  const auth = { authorization: `Bearer ${token}` };
  const upload = async (url: string, bytes: Buffer, blobId?: string) => {
    const response = await fetch(
      `${url}/api/model/${app.modelId}/shared/blob${blobId ? `/${blobId}/update` : "/upload"}`,
      {
        method: blobId ? "PUT" : "POST",
        headers: { ...auth, "content-type": "multipart/form-data; boundary=fb" },
        body: multipartBody("fb", FIELDS, bytes),
      },
    );
    return { status: response.status, body: (await response.json()) as { id: string } };
  };

  // Before the crash: blobs to update, and their bytes.
  const committed = new Map<string, string>();
  for (let i = 0; i < 8; i++) {
    const bytes = csv(i + 2, 2000);
    const reply = await upload(served.url, bytes);
    expect(reply.status).toBe(200);
    committed.set(reply.body.id, sha(bytes));
  }
  const toUpdate = [...committed.keys()];

  // In flight: uploads of ~1-4 MB, an update of each blob, small jobs.
  const acknowledged = new Map<string, string>();
  const updates = new Map<string, { old: string; new: string; acknowledged: boolean }>();
  const jobs: string[] = [];
  const url = served.url;
  const inFlight: Promise<unknown>[] = [];
  for (let i = 0; i < 24; i++) {
    const bytes = csv(100 + i, 40_000 + i * 4000);
    inFlight.push(
      upload(url, bytes).then(
        (r) => r.status === 200 && acknowledged.set(r.body.id, sha(bytes)),
        () => undefined,
      ),
    );
  }
  for (const [n, id] of toUpdate.entries()) {
    const bytes = csv(500 + n, 30_000);
    const entry = { old: committed.get(id)!, new: sha(bytes), acknowledged: false };
    updates.set(id, entry);
    inFlight.push(
      upload(url, bytes, id).then(
        (r) => (entry.acknowledged = r.status === 200),
        () => undefined,
      ),
    );
  }
  for (let i = 0; i < 12; i++) {
    inFlight.push(
      fetch(`${url}/api/ml/preprocessing/job/send`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({
          model_id: app.modelId,
          input_blob_id: toUpdate[i % toUpdate.length],
          preprocessing_type: i % 2 ? "PowerTransformer" : "QuantileTransformer",
          output: [{ name: "o.csv" }],
        }),
      }).then(
        async (r) => r.ok && jobs.push(((await r.json()) as { id: string }).id),
        () => undefined,
      ),
    );
  }
  // Kill once some of each kind are acknowledged (so the checks below are not vacuous),
  // while the rest are still in flight.
  await until(() => jobs.length >= 3 && acknowledged.size >= 2, 5000);
  await served.kill("SIGKILL");
  await Promise.all(inFlight);

  served = await h.serve(dataDir, ["--workers", "1"]);
  const token2 = await tokenOf(served.url, app);
  const download = async (id: string) => {
    const r = await fetch(`${served.url}/api/model/${app.modelId}/shared/blob/${id}/download`, {
      headers: { authorization: `Bearer ${token2}` },
    });
    return { status: r.status, sha: sha(Buffer.from(await r.arrayBuffer())) };
  };
  for (const [id, digest] of acknowledged) expect(await download(id)).toEqual({ status: 200, sha: digest });
  for (const [id, u] of updates) {
    const got = await download(id);
    expect(got.status).toBe(200);
    if (u.acknowledged) expect(got.sha).toBe(u.new);
    else expect([u.old, u.new]).toContain(got.sha);
  }
  for (const id of jobs) {
    const terminal = await (async () => {
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline) {
        const r = await fetch(`${served.url}/api/job/${id}/get`, { headers: { authorization: `Bearer ${token2}` } });
        const job = (await r.json()) as { status: string };
        if (isTerminalStatus(job.status)) return job.status;
        await new Promise((res) => setTimeout(res, 200));
      }
      return "not terminal";
    })();
    expect(["succeeded", "failed", "cancelled"]).toContain(terminal);
  }

  // No temp file, and every blob file has its row.
  expect(await until(() => tmpFiles(dataDir).length === 0, 10_000)).toBe(true);
  expect(jobs.length).toBeGreaterThan(0);
  expect(acknowledged.size).toBeGreaterThan(0);
  const db = openSqlite(join(dataDir, "mdps.sqlite"), { readOnly: true });
  const rows = db.prepare("SELECT id, revision FROM blobs").all() as { id: string; revision: number }[];
  db.close();
  const referenced = new Set(rows.map((r) => `${r.id}.${r.revision}`));
  expect(readdirSync(join(dataDir, "blobs")).filter((f) => !referenced.has(f))).toEqual([]);

  // Secrets: in no log and no file of the data dir.
  const secrets = [app.clientSecret, token, token2];
  for (const log of h.logs) for (const s of secrets) expect(log.includes(s)).toBe(false);
  for (const file of allFiles(dataDir)) {
    if (statSync(file).size > 64 << 20) continue;
    const bytes = readFileSync(file);
    for (const s of secrets) expect(bytes.includes(s), `${s.slice(0, 6)}... in ${file}`).toBe(false);
  }
  console.log(
    `faults: ${acknowledged.size}/24 uploads acknowledged, ${[...updates.values()].filter((u) => u.acknowledged).length}/8 updates, ${jobs.length}/12 jobs sent; all intact after kill -9`,
  );
}, 240_000);
