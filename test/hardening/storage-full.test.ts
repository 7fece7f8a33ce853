/**
 * A full disk and a read-only data dir (a 4 MiB tmpfs; CI runs as root) fail the
 * request that meets them with a problem naming the cause (507, 503); reads keep
 * working and the process never exits.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { preprocessingBody } from "../service/service-harness.js";
import { multipartBody, registerApp, ServeHarness, tokenOf, type Served } from "./serve-harness.js";

const h = new ServeHarness();
let mounted: string | undefined;
afterAll(async () => {
  for (const s of servedList) await s.kill("SIGTERM");
  if (mounted) execFileSync("umount", ["-l", mounted]);
  await h.cleanup();
});
const servedList: Served[] = [];

const FIELDS: [string, string][] = [
  ["Name", "d.csv"],
  ["RecordType", "csv"],
  ["AccessTier", "hot"],
];

it("disk full: uploads 507 naming it, downloads and health still answer, jobs fail saying so, the process lives; read-only: 503", async () => {
  const root = await h.tempDir();
  mounted = join(root, "small");
  mkdirSync(mounted);
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mounted]);
  const dataDir = join(mounted, "data");
  const served = await h.serve(dataDir, ["--workers", "1"]);
  servedList.push(served);
  const app = registerApp(dataDir);
  const auth = { authorization: `Bearer ${await tokenOf(served.url, app)}` };
  const base = `${served.url}/api/model/${app.modelId}/shared/blob`;
  const upload = (bytes: Buffer) =>
    fetch(`${base}/upload`, {
      method: "POST",
      headers: { ...auth, "content-type": "multipart/form-data; boundary=fb" },
      body: multipartBody("fb", FIELDS, bytes),
    });
  const small = Buffer.from("a,b\n1,2\n3,4\n5,7\n");
  const first = (await (await upload(small)).json()) as { id: string };

  const statuses: number[] = [];
  let full: { status: number; detail: string; code: string } | undefined;
  for (let i = 0; i < 20 && !full; i++) {
    const r = await upload(Buffer.alloc(700_000, 49 + (i % 9)));
    statuses.push(r.status);
    if (r.status !== 200) full = { status: r.status, ...((await r.json()) as { detail: string; code: string }) };
  }
  expect(full?.status).toBe(507);
  expect(full?.code).toBe("storage_full");
  expect(full?.detail).toContain("No space left on the data dir's disk");
  expect(statuses.filter((s) => s !== 200 && s !== 507)).toEqual([]);

  // Reads work; health answers and names the fault.
  const download = await fetch(`${base}/${first.id}/download`, { headers: auth });
  expect(download.status).toBe(200);
  expect(Buffer.from(await download.arrayBuffer())).toEqual(small);
  // (Its write probe is a few bytes, which a nearly full tmpfs may still take.)
  expect((await fetch(`${served.url}/api/shared/health`, { headers: auth })).status).toBe(200);

  // A job sent now: refused with 507, or accepted and failed with a reason; never a crash.
  const sent = await fetch(`${served.url}/api/ml/preprocessing/job/send`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(preprocessingBody(app.modelId, first.id)),
  });
  expect([200, 507]).toContain(sent.status);
  await new Promise((r) => setTimeout(r, 2500)); // several poller ticks on the full disk
  expect(served.child.exitCode).toBeNull();
  expect((await fetch(`${base}/${first.id}/download`, { headers: auth })).status).toBe(200);

  // Read-only: 503 naming it, reads still work. (The whole tmpfs cannot be remounted
  // read-only while SQLite holds files open for writing: the temp folders are, by a
  // read-only bind mount over them.)
  const tmp = join(dataDir, "tmp");
  execFileSync("mount", ["--bind", tmp, tmp]);
  execFileSync("mount", ["-o", "remount,bind,ro", tmp]);
  const readOnly = await upload(small);
  expect(readOnly.status).toBe(503);
  expect(((await readOnly.json()) as { code: string }).code).toBe("storage_read_only");
  expect((await fetch(`${base}/${first.id}/download`, { headers: auth })).status).toBe(200);
  expect(served.child.exitCode).toBeNull();
  expect(served.log()).not.toContain('"level":60');
}, 120_000);
