/**
 * A service process whose clock lags 30 s (Debian's faketime) shares the data dir with
 * a normal one. Every lease it writes, and its heartbeat, look 30 s old to the other
 * process from the moment they are written; still it holds its OS lock, so it is alive:
 * its keyed job is never failed as "keys lost", none of its running jobs is taken over
 * (each job runs exactly once), and its temp folder survives the other's startup sweep.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../../src/core/crypto/index.js";
import { faketimeTool } from "../harness/faketime.js";
import { describeWithTool } from "../required-tool.js";
import { numericCsv } from "../service/service-harness.js";
import { checkJobs, withDb } from "./multi-process-faults-checks.js";
import { Fleet, waitFor, type Member } from "./multi-process-faults-fleet.js";
import { sha256, type AcceptedJob } from "./multi-process-faults-load.js";
import { registerApp, tokenOf } from "./serve-harness.js";

const LAG = "-30s";
const LEASE_MS = 1500;

let fleet: Fleet | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await fleet?.cleanup();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Client {
  token: string;
  modelId: string;
}

async function call(member: Member, client: Client, path: string, init: RequestInit = {}) {
  const response = await fetch(`${member.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${client.token}`, ...(init.headers as Record<string, string>) },
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${path} on ${member.name}: ${response.status} ${body.toString()}`);
  return body;
}

async function upload(member: Member, client: Client, bytes: Buffer): Promise<{ id: string; sha256: string }> {
  const form = new FormData();
  for (const [k, v] of [
    ["Name", "lag.csv"],
    ["RecordType", "csv"],
    ["AccessTier", "hot"],
  ])
    form.append(k!, v!);
  form.append("File", new Blob([bytes]), "data");
  const body = await call(member, client, `/api/model/${client.modelId}/shared/blob/upload`, {
    method: "POST",
    body: form,
  });
  return JSON.parse(body.toString()) as { id: string; sha256: string };
}

let sent = 0;
async function send(
  member: Member,
  client: Client,
  job: { blobId: string; key?: string; type?: string },
): Promise<AcceptedJob> {
  const { blobId, key, type = "StandardScaler" } = job;
  const outputName = `lag-out-${sent++}.csv`;
  const body = await call(member, client, "/api/ml/preprocessing/job/send", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model_id: client.modelId,
      input_blob_id: blobId,
      preprocessing_type: type,
      output: [{ name: outputName }],
      ...(key ? { input_encryption_key: key } : {}),
    }),
  });
  return { id: (JSON.parse(body.toString()) as { id: string }).id, outputName, keyed: key !== undefined, via: member };
}

describeWithTool(faketimeTool(LAG, -30_000), "a service process whose clock lags 30 s", () => {
  it("is not taken for dead: its keyed job runs, no job runs twice, its temp folder stays", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "mdps-lagging-"));
    const f = (fleet = new Fleet({ dataDir, leaseMs: LEASE_MS }));
    const lagging = await f.start(0, LAG);
    // Starts (and sweeps) while the lagging process's heartbeat already looks 30 s old.
    const normal = await f.start(1);
    const app = registerApp(dataDir);
    const client = { token: await tokenOf(lagging.url, app), modelId: app.modelId };
    const big = await upload(lagging, client, numericCsv(900_000));
    const small = await upload(lagging, client, Buffer.from("a,b\n1,2\n3,5\n4,9\n"));
    const key = generateEncryptionKey();
    const secret = await upload(lagging, client, encryptBuffer(parseEncryptionKey(key), Buffer.from("a\n1\n2\n3\n")));

    // The lagging process's one worker runs the big job; its keyed job waits behind it.
    // Yeo-Johnson's lambda search makes it outlast two leases on an idle machine too (about 3.5 s).
    const busy = await send(lagging, client, { blobId: big.id, type: "PowerTransformer" });
    await waitFor("the big job to start", () =>
      withDb(dataDir!, (db) => db.prepare("SELECT status FROM jobs WHERE id = ?").get(busy.id) as { status: string })
        .status === "running"
        ? true
        : undefined,
    );
    const keyed = await send(lagging, client, { blobId: secret.id, key });
    const plainOnLagging = [
      await send(lagging, client, { blobId: small.id }),
      await send(lagging, client, { blobId: small.id }),
    ];
    const plainOnNormal = [
      await send(normal, client, { blobId: small.id }),
      await send(normal, client, { blobId: small.id }),
    ];

    // The lagging process's temp folder survived the sweep: it still takes uploads.
    const later = await upload(lagging, client, Buffer.from("a\n7\n"));
    expect(sha256(await call(normal, client, `/api/model/${client.modelId}/shared/blob/${later.id}/download`))).toBe(
      later.sha256,
    );

    const jobs = [busy, keyed, ...plainOnLagging, ...plainOnNormal];
    const ids = jobs.map((j) => j.id);
    const ended = () =>
      withDb(dataDir!, (db) =>
        db
          .prepare(
            `SELECT id, status, attempts, started_at, finished_at, error,
               (SELECT COUNT(*) FROM job_events e WHERE e.job_id = jobs.id AND e.status = 'running' AND e.message LIKE 'attempt %') AS claims
             FROM jobs WHERE id IN (${ids.map(() => "?").join(", ")}) AND status NOT IN ('queued', 'running')`,
          )
          .all(...ids),
      ) as Array<{
        id: string;
        status: string;
        attempts: number;
        started_at: string;
        finished_at: string;
        claims: number;
      }>;
    const rows = await waitFor("every job to end", () => {
      const done = ended();
      return done.length === ids.length ? done : undefined;
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    // The window was real: the big job ran longer than the lease, so the normal process
    // polled several times while the lagging one's lease on it looked 30 s expired.
    const big1 = byId.get(busy.id)!;
    console.log(
      `the big job ran ${Date.parse(big1.finished_at) - Date.parse(big1.started_at)} ms (lease ${LEASE_MS} ms)`,
    );
    expect(Date.parse(big1.finished_at) - Date.parse(big1.started_at)).toBeGreaterThan(LEASE_MS);
    for (const job of jobs)
      expect(byId.get(job.id), `job ${job.id}`).toMatchObject({ status: "succeeded", attempts: 1, claims: 1 });
    expect(checkJobs(dataDir, jobs)).toEqual([]);
    expect(await f.terminate(normal)).toMatchObject({ code: 0 });
    expect(await f.terminate(lagging)).toMatchObject({ code: 0 });
  }, 120_000);
});
