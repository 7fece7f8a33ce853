/**
 * Replicas on one PostgreSQL store whose clocks disagree, and one paused past its lease:
 * liveness by the process lock alone, time by the database's clock.
 *
 * - A replica started with its clock 60 s ahead (faketime) beside a live one that runs a
 *   long job and holds the keys of a queued one, and a normal one started beside a
 *   replica 5 min behind that runs them: no job is taken over, no keyed job fails, and
 *   the startup sweep leaves the live one's temp folder.
 * - A replica paused (SIGSTOP) past its lease in the middle of an upload and holding a
 *   keyed job, while another starts (and sweeps): the upload completes once it resumes
 *   and the keyed job runs there, once.
 */
import { request } from "node:http";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { blobRecord } from "../../src/core/contract/index.js";
import { encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../../src/core/crypto/index.js";
import { faketimePrefix, faketimeTool } from "../harness/faketime.js";
import { postgresTool } from "../harness/postgres.js";
import { ServiceStarter, type ServiceChild } from "../harness/service-starter.js";
import { describeWithTool } from "../required-tool.js";
import { Api, json, numericCsv, referenceJob, tokenFor, type ReferenceJob } from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";
import { registerPgApp } from "./pg-app.js";

const LEASE_MS = 1500;
/**
 * A replica ahead starts beside a live one that runs the jobs (it would see their leases
 * expired); a replica behind runs the jobs while a normal one starts (to which its leases
 * and heartbeat would look minutes old).
 */
const SKEWS = [
  { offset: "+60s", shiftMs: 60_000, skewedRunsJobs: false, title: "a replica 60 s ahead starts beside a live one" },
  {
    offset: "-5m",
    shiftMs: -300_000,
    skewedRunsJobs: true,
    title: "a replica 5 min behind runs jobs as another starts",
  },
];

async function sendJob(api: Api, blobId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const reply = await api.call("POST", "/api/ml/preprocessing/job/send", {
    model_id: api.modelId,
    input_blob_id: blobId,
    preprocessing_type: "StandardScaler",
    output: [{ name: "out.csv" }],
    ...extra,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return json(referenceJob, reply).id;
}

async function uploadOk(api: Api, bytes: Buffer | string): Promise<string> {
  const reply = await api.upload(bytes);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return json(blobRecord, reply).id;
}

/** How many attempts claimed the job (its `running` events), and whether one took it over. */
function claimsOf(job: ReferenceJob): { claims: number; takenOver: boolean } {
  const running = job.events.filter((e) => e.status === "running" && /^attempt /.test(e.message ?? ""));
  return { claims: running.length, takenOver: running.some((e) => /taken over/.test(e.message ?? "")) };
}

/** The temp folder of `replica` in the shared data dir (its owner id names its pid). */
async function tempFolderOf(dataDir: string, replica: ServiceChild): Promise<string | undefined> {
  const names = await readdir(join(dataDir, "tmp"));
  return names.find((n) => n.includes(`-${replica.pid}-`));
}

describeWithTool(postgresTool, "replicas whose clocks disagree, or that pause", () => {
  const pgc = useCluster();
  const starter = new ServiceStarter("mdps-clocks-");
  afterAll(() => starter.cleanup());

  for (const skew of SKEWS) {
    describeWithTool(faketimeTool(skew.offset, skew.shiftMs), skew.title, () => {
      it("no job is taken over or failed for keys lost, no live temp folder is swept", async () => {
        const url = await pgc.fresh();
        const dataDir = await starter.tempDir();
        const env = { MDPS_STORE: url };
        const skewed = { prefix: faketimePrefix(skew.offset) };
        const live = await starter.spawn({
          lease: { dataDir, leaseMs: LEASE_MS, workers: 1 },
          env,
          ...(skew.skewedRunsJobs ? skewed : {}),
        });
        const app = await registerPgApp(url);
        const api = new Api(live, await tokenFor(live, app), app.modelId);
        const big = await uploadOk(api, numericCsv(600_000));
        const key = generateEncryptionKey();
        // Longer than the plain one: only the first replica can run it, after the plain one, so
        // the overlap below is the second replica's start-up plus two jobs, never a near thing.
        const secret = await uploadOk(api, encryptBuffer(parseEncryptionKey(key), numericCsv(1_000_000)));
        // The first replica's one worker runs the long job; its keyed job waits behind it, its keys there.
        const long = await sendJob(api, big, { preprocessing_type: "PowerTransformer" });
        await api.waitForJob(long, (j) => j.status === "running");
        const keyed = await sendJob(api, secret, { preprocessing_type: "PowerTransformer", input_encryption_key: key });
        const folder = await tempFolderOf(dataDir, live);
        expect(folder).toBeDefined();

        const second = await starter.spawn({
          lease: { dataDir, leaseMs: LEASE_MS, workers: 1 },
          env,
          ...(skew.skewedRunsJobs ? {} : skewed),
        });
        const secondUp = Date.now();
        // Its startup sweep kept the first replica's temp folder: uploads there still work.
        expect(await tempFolderOf(dataDir, live)).toBe(folder);
        const later = await uploadOk(api, "a\n7\n");
        expect((await new Api(second, api.token, app.modelId).download(later)).status).toBe(200);

        const longJob = await api.waitForJob(long, undefined, 120_000);
        const keyedJob = await api.waitForJob(keyed, undefined, 120_000);
        // On this test's clock (the replicas' disagree): the second replica polled (every 500 ms) meanwhile.
        const overlapMs = Date.now() - secondUp;
        console.log(`${skew.offset}: the first replica ran its jobs on for ${overlapMs} ms after the second started`);
        expect(overlapMs).toBeGreaterThan(2 * LEASE_MS);
        for (const job of [longJob, keyedJob]) {
          expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
          expect(claimsOf(job)).toEqual({ claims: 1, takenOver: false });
        }
      }, 300_000);
    });
  }

  it("paused past its lease mid-upload and holding a keyed job while another starts: the upload completes and the keyed job runs there once", async () => {
    const url = await pgc.fresh();
    const dataDir = await starter.tempDir();
    const env = { MDPS_STORE: url };
    const paused = await starter.spawn({ lease: { dataDir, leaseMs: LEASE_MS, workers: 1 }, env });
    const other = await starter.spawn({ lease: { dataDir, leaseMs: LEASE_MS, workers: 1 }, env });
    const app = await registerPgApp(url);
    const token = await tokenFor(paused, app);
    const api = new Api(paused, token, app.modelId);
    const key = generateEncryptionKey();
    const secret = await uploadOk(api, encryptBuffer(parseEncryptionKey(key), Buffer.from("a\n1\n2\n3\n")));
    // A long job keeps the paused replica's worker busy, so its keyed job waits there, queued.
    const long = await sendJob(api, await uploadOk(api, numericCsv(600_000)), {
      preprocessing_type: "PowerTransformer",
    });
    await api.waitForJob(long, (j) => j.status === "running");
    const keyed = await sendJob(api, secret, { input_encryption_key: key });

    // An upload whose body has begun: its bytes are in the paused replica's temp folder.
    const boundary = "pausedboundary";
    const target = new URL(`${paused.url}${api.blobPath(undefined, "upload")}`);
    let answered: (reply: { status: number; body: string }) => void = () => {};
    const answer = new Promise<{ status: number; body: string }>((resolve) => (answered = resolve));
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => answered({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", (err) => answered({ status: 0, body: err.message }));
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    req.write(field("Name", "slow.csv") + field("RecordType", "csv") + field("AccessTier", "hot"));
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="File"; filename="slow.csv"\r\n\r\n`);
    req.write("a,b\n1,2\n");
    const folder = join(dataDir, "tmp", (await tempFolderOf(dataDir, paused))!);
    const deadline = Date.now() + 10_000;
    while (!(await readdir(folder)).some((n) => n.endsWith(".part"))) {
      if (Date.now() > deadline) throw new Error("the upload's temp file did not appear");
      await new Promise((r) => setTimeout(r, 25));
    }

    process.kill(paused.pid, "SIGSTOP");
    try {
      // Past the lease and any heartbeat staleness; then a replica starts and sweeps.
      await new Promise((r) => setTimeout(r, 3 * LEASE_MS));
      await starter.spawn({ lease: { dataDir, leaseMs: LEASE_MS, workers: 1 }, env });
      await new Promise((r) => setTimeout(r, 2 * LEASE_MS));
      expect((await readdir(folder)).some((n) => n.endsWith(".part"))).toBe(true);
      const viaOther = new Api(other, token, app.modelId);
      const meanwhile = json(referenceJob, await viaOther.call("GET", `/api/job/${keyed}/get`));
      // Still its own: queued behind the long job, or running there if that ended before the pause.
      expect(["queued", "running"]).toContain(meanwhile.status);
      expect(claimsOf(meanwhile).takenOver).toBe(false);
    } finally {
      process.kill(paused.pid, "SIGCONT");
    }
    req.end(`3,4\r\n--${boundary}--\r\n`);
    const uploaded = await answer;
    expect(uploaded.status, uploaded.body).toBe(200);
    const id = (JSON.parse(uploaded.body) as { id: string }).id;
    const download = await api.download(id);
    expect(download.body.toString()).toBe("a,b\n1,2\n3,4");
    const keyedJob = await api.waitForJob(keyed, undefined, 90_000);
    expect(keyedJob.status, JSON.stringify(keyedJob.error)).toBe("succeeded");
    expect(claimsOf(keyedJob)).toEqual({ claims: 1, takenOver: false });
  }, 150_000);
});
