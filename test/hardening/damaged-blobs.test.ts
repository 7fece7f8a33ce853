/**
 * Blob files damaged behind the service's back (truncated, a changed byte, deleted)
 * are never served or used: a download answers blob_damaged or is cut before its last
 * byte, a job fails naming the damaged input, health names them, `mdps admin verify`
 * lists them. Also: the outputs bound, and private file modes.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCli } from "../cli/built-cli.js";
import { preprocessingBody } from "../service/service-harness.js";
import { multipartBody, rawRequest, registerApp, ServeHarness, tokenOf } from "./serve-harness.js";

const h = new ServeHarness();
afterAll(() => h.cleanup());

const FIELDS: [string, string][] = [
  ["Name", "d.csv"],
  ["RecordType", "csv"],
  ["AccessTier", "hot"],
];
const csv = (seed: number, rows = 3000) =>
  Buffer.from(`a,b\n${Array.from({ length: rows }, (_, i) => `${i},${(i * seed) % 97}`).join("\n")}\n`);

async function setUp() {
  const dataDir = await h.tempDir();
  const served = await h.serve(dataDir, ["--workers", "1"]);
  const app = registerApp(dataDir);
  const auth = { authorization: `Bearer ${await tokenOf(served.url, app)}` };
  const base = `${served.url}/api/model/${app.modelId}/shared/blob`;
  const upload = async (bytes: Buffer) => {
    const r = await fetch(`${base}/upload`, {
      method: "POST",
      headers: { ...auth, "content-type": "multipart/form-data; boundary=fb" },
      body: multipartBody("fb", FIELDS, bytes),
    });
    expect(r.status).toBe(200);
    return ((await r.json()) as { id: string }).id;
  };
  const file = (id: string) => join(dataDir, "blobs", `${id}.1`);
  return { dataDir, served, app, auth, base, upload, file };
}

it("a truncated, a changed and a deleted blob file: never served, a job fails naming the input, health and verify name them", async () => {
  const { dataDir, served, app, auth, base, upload, file } = await setUp();
  const whole = await upload(csv(3));
  const truncated = await upload(csv(5));
  // Several read chunks long, so the download has begun when the damage is found.
  const changed = await upload(csv(7, 300_000));
  const deleted = await upload(csv(11));
  truncateSync(file(truncated), 1000);
  const bytes = readFileSync(file(changed));
  bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 1;
  writeFileSync(file(changed), bytes);
  rmSync(file(deleted));

  // The whole one downloads as ever.
  const ok = await fetch(`${base}/${whole}/download`, { headers: auth });
  expect(
    createHash("sha256")
      .update(Buffer.from(await ok.arrayBuffer()))
      .digest("hex"),
  ).toBe(createHash("sha256").update(csv(3)).digest("hex"));
  // Truncated and deleted: a problem before any byte, naming the blob.
  for (const id of [truncated, deleted]) {
    const r = await fetch(`${base}/${id}/download`, { headers: auth });
    expect(r.status).toBe(500);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    const problem = (await r.json()) as { code: string; blob_id: string; detail: string };
    expect(problem).toMatchObject({ code: "blob_damaged", blob_id: id });
    expect(problem.detail).toContain(id);
  }
  // A changed byte (same size): the download is cut before its last byte, never completed.
  const head = `GET /api/model/${app.modelId}/shared/blob/${changed}/download HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n\r\n`;
  const cut = await rawRequest(served.port, head, "", { timeoutMs: 10_000 });
  expect(cut.status).toBe(200);
  expect(cut.timedOut).toBe(false); // reset, not a stalled keep-alive
  expect(Buffer.byteLength(cut.body, "latin1")).toBeLessThan(bytes.length);
  // A range of it: the whole file is checked first.
  const ranged = await fetch(`${base}/${changed}/download`, { headers: { ...auth, range: "bytes=0-9" } });
  expect(ranged.status).toBe(500);
  expect(((await ranged.json()) as { code: string }).code).toBe("blob_damaged");

  // A job on the changed input fails saying which input is damaged.
  const sent = await fetch(`${served.url}/api/ml/preprocessing/job/send`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(preprocessingBody(app.modelId, changed)),
  });
  const job = (await sent.json()) as { id: string };
  let record: { status: string; error: { title: string; detail: string } | null } | undefined;
  for (let i = 0; i < 600; i++) {
    const r = await fetch(`${served.url}/api/job/${job.id}/get`, { headers: auth });
    record = (await r.json()) as typeof record;
    if (record && record.status !== "queued" && record.status !== "running") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(record?.status).toBe("failed");
  expect(record?.error?.title).toBe("Input blob damaged");
  expect(record?.error?.detail).toContain(changed);

  const health = (await (await fetch(`${served.url}/api/shared/health`, { headers: auth })).json()) as {
    status: string;
    checks: { blobs: { status: string; blob_ids: string[] } };
  };
  expect(health.status).toBe("degraded");
  expect(health.checks.blobs.status).toBe("fail");
  expect(health.checks.blobs.blob_ids.sort()).toEqual([truncated, changed, deleted].sort());

  const verify = await runCli(["admin", "verify", "--data-dir", dataDir, "--json"]);
  expect(verify.code).toBe(1);
  const report = JSON.parse(verify.stdout) as { checked: number; damaged: Array<{ id: string; reason: string }> };
  expect(report.checked).toBe(4);
  expect(report.damaged.map((d) => d.id).sort()).toEqual([truncated, changed, deleted].sort());
  // The process served throughout.
  expect(served.child.exitCode).toBeNull();
}, 120_000);

it("at most 16 outputs a job: 17 is a 400 naming the limit, 16 is accepted", async () => {
  const { served, app, auth, upload } = await setUp();
  const input = await upload(csv(3));
  const send = (n: number) =>
    fetch(`${served.url}/api/ml/preprocessing/job/send`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(
        preprocessingBody(app.modelId, input, { output: Array.from({ length: n }, (_, i) => ({ name: `o${i}.csv` })) }),
      ),
    });
  for (const n of [17, 1000]) {
    const r = await send(n);
    expect(r.status).toBe(400);
    const problem = (await r.json()) as { errors: Record<string, string[]> };
    expect(problem.errors.output?.[0]).toContain("at most 16");
  }
  expect((await send(16)).status).toBe(200);
}, 60_000);

it("a new data dir is 0700 with 0600 files; an existing readable one gets one warning naming the fix", async () => {
  const { dataDir, upload, file } = await setUp();
  const id = await upload(csv(3));
  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  expect(statSync(join(dataDir, "mdps.sqlite")).mode & 0o777).toBe(0o600);
  expect(statSync(file(id)).mode & 0o777).toBe(0o600);
  expect(statSync(join(dataDir, "blobs")).mode & 0o777).toBe(0o700);

  const open = join(await h.tempDir(), "shared");
  mkdirSync(open);
  chmodSync(open, 0o755);
  const served = await h.serve(open);
  const warnings = served
    .log()
    .split("\n")
    .filter((l) => l.includes("can be read by other local users"));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(`chmod 700`);
}, 60_000);
