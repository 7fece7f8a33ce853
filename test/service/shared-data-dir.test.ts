/**
 * Many service processes on one data dir, with real processes and files:
 * leases, takeover after kill -9, each job run once, keys kept by their process.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { blobRecord, jobResult, logDetails, type BlobRecord } from "../../src/core/contract/index.js";
import { encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../../src/core/crypto/index.js";
import type { SqliteDriverName } from "../../src/server/store/sqlite/sqlite.js";
import {
  Api,
  Harness,
  json,
  numericCsv,
  outputsOf,
  preprocessingBody,
  referenceJob,
  tokenFor,
  type ReferenceJob,
} from "./service-harness.js";
import { spawnService, type ServiceProcess } from "./service-process.js";
import { STORE_DRIVERS } from "./sqlite-drivers.js";

const h = new Harness();
const processes: ServiceProcess[] = [];
afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill("SIGKILL")));
  await h.cleanup();
});

async function spawnOn(
  sqliteDriver: SqliteDriverName,
  dataDir: string,
  options: { leaseMs?: number; workers?: number } = {},
) {
  const p = await spawnService(dataDir, { ...options, sqliteDriver });
  processes.push(p);
  return p;
}

/** A data dir with one model and application, and an Api per process url. */
async function sharedDir() {
  const dataDir = await h.tempDir("mdps-shared-");
  const app = h.app(dataDir);
  return {
    dataDir,
    async api(url: string) {
      return new Api(url, await tokenFor(url, app), app.modelId);
    },
  };
}

/** The log lines of a job. */
async function logsOf(api: Api, jobId: string) {
  return json(logDetails, await api.call("GET", `/api/job/${jobId}/logs`)).messages;
}

/** The process running attempt `attempt` of the job, from the log line its start writes. */
async function runnerOf(api: Api, jobId: string, attempt: number): Promise<number | undefined> {
  const logs = await logsOf(api, jobId);
  return logs.find((m) => m.message.startsWith(`attempt ${attempt} of job`))?.container?.processId;
}

async function upload(api: Api, bytes: Uint8Array | string): Promise<BlobRecord> {
  return json(blobRecord, await api.upload(bytes));
}

/** Sends a preprocessing job of `blobId` with the defaults and `extra`. */
async function send(api: Api, blobId: string, extra: Record<string, unknown> = {}): Promise<ReferenceJob> {
  return json(
    referenceJob,
    await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, blobId, extra)),
  );
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Waits for the jobs one after another: one poll in flight at a time, so the waiting
 * does not load the services it measures (80 parallel pollers would).
 */
async function waitForAll(ids: readonly string[], apiFor: (index: number) => Api) {
  const jobs = [];
  for (const [i, id] of ids.entries()) jobs.push(await apiFor(i).waitForJob(id, undefined, 170_000));
  return jobs;
}

/** Jobs per second from the records: first accepted to last finished, as the service saw it. */
function throughput(jobs: Array<{ created_at: string; finished_at: string | null }>): string {
  const first = Math.min(...jobs.map((j) => Date.parse(j.created_at)));
  const last = Math.max(...jobs.map((j) => Date.parse(j.finished_at ?? "")));
  const seconds = (last - first) / 1000;
  return `${(jobs.length / seconds).toFixed(1)} jobs/s (${jobs.length} jobs in ${seconds.toFixed(2)} s)`;
}

const runningEvents = (job: { events: Array<{ status: string; message?: string | null }> }) =>
  job.events.filter((e) => e.status === "running" && e.message?.startsWith("attempt ")).length;

describe.each(STORE_DRIVERS)("many processes on one data dir (%s)", (driver) => {
  const spawn = (dataDir: string, options: { leaseMs?: number; workers?: number } = {}) =>
    spawnOn(driver, dataDir, options);

  it("kill -9 of the process running a job: another process takes it over within the lease and finishes it", async () => {
    const dir = await sharedDir();
    const services = await Promise.all([spawn(dir.dataDir), spawn(dir.dataDir), spawn(dir.dataDir)]);
    const [first, ...others] = services;
    const api = await dir.api(first.url);
    const blob = await upload(api, numericCsv(600_000));
    const job = await send(api, blob.id);
    const pid = await waitFor("attempt 1 to start", () => runnerOf(api, job.id, 1));
    const victim = services.find((s) => s.pid === pid)!;
    const survivors = services.filter((s) => s !== victim);
    const killedAt = Date.now();
    await victim.kill("SIGKILL");

    const other = await dir.api(survivors[0]!.url);
    // Every call of the survivors keeps working meanwhile.
    for (const s of survivors)
      expect((await (await dir.api(s.url)).call("GET", "/api/shared/health")).status).toBe(200);
    const takeoverPid = await waitFor("attempt 2 to start", () => runnerOf(other, job.id, 2), 30_000);
    const takeoverMs = Date.now() - killedAt;
    const done = await other.waitForJob(job.id);
    const finishedMs = Date.now() - killedAt;
    console.log(
      `takeover after kill -9: attempt 2 started ${takeoverMs} ms after the kill, job done after ${finishedMs} ms`,
    );
    expect(survivors.map((s) => s.pid)).toContain(takeoverPid);
    expect(done).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(takeoverMs).toBeLessThan(10_000 + 1_000 + 2_000); // lease + poll + slack
    expect(done.events.some((e) => e.message?.includes("taken over from"))).toBe(true);
    const result = await other.call("GET", `/api/job/${job.id}/result`);
    expect(json(jobResult, result).rows).toBe(600_000);
    const outputIds = outputsOf(result).map((o) => o.id);
    expect(outputIds).toHaveLength(1);
    for (const id of outputIds) expect((await other.download(id)).status).toBe(200);
    // One output blob: the killed attempt left none behind once its folder is swept.
    expect((await readdir(join(dir.dataDir, "blobs"))).sort()).toEqual(
      [`${blob.id}.1`, ...outputIds.map((id) => `${id}.1`)].sort(),
    );
    expect(others.length).toBe(2);
  }, 120_000);

  it("a process frozen past its lease (SIGSTOP) keeps its job: it holds its lock, so no one takes it over; thawed, it commits once", async () => {
    const dir = await sharedDir();
    const leaseMs = 1500;
    const services = await Promise.all([spawn(dir.dataDir, { leaseMs }), spawn(dir.dataDir, { leaseMs })]);
    const api = await dir.api(services[0].url);
    const blob = await upload(api, numericCsv(600_000));
    const job = await send(api, blob.id);
    const pid = await waitFor("attempt 1 to start", () => runnerOf(api, job.id, 1));
    const frozen = services.find((s) => s.pid === pid)!;
    const other = await dir.api(services.find((s) => s !== frozen)!.url);
    frozen.child.kill("SIGSTOP");
    try {
      // Four leases long: the other process polls many times and sees the lease expired,
      // but the frozen process still holds its lock.
      await new Promise((r) => setTimeout(r, 4 * leaseMs));
      const during = json(referenceJob, await other.call("GET", `/api/job/${job.id}/get`));
      expect(during).toMatchObject({ status: "running", attempts: 1 });
      expect(await runnerOf(other, job.id, 2)).toBeUndefined();
    } finally {
      frozen.child.kill("SIGCONT");
    }
    const done = await other.waitForJob(job.id);
    expect(done).toMatchObject({ status: "succeeded", attempts: 1 });
    const outputs = outputsOf(await other.call("GET", `/api/job/${job.id}/result`));
    expect(outputs).toHaveLength(1);
    expect((await readdir(join(dir.dataDir, "blobs"))).sort()).toEqual(
      [`${blob.id}.1`, ...outputs.map((o) => `${o.id}.1`)].sort(),
    );
    expect((await (await dir.api(frozen.url)).call("GET", "/api/shared/health")).status).toBe(200);
  }, 120_000);

  it("4 processes x 20 jobs: every job ran exactly once, no duplicate or orphan output blobs", async () => {
    const dir = await sharedDir();
    const services = await Promise.all([0, 1, 2, 3].map(() => spawn(dir.dataDir)));
    const apis = await Promise.all(services.map((s) => dir.api(s.url)));
    const input = await upload(apis[0]!, "a,b\n1,2\n3,5\n4,9\n");
    const started = Date.now();
    const sent = await Promise.all(
      apis.flatMap((api) =>
        Array.from({ length: 20 }, async () => {
          const reply = await api.call(
            "POST",
            "/api/ml/preprocessing/job/send",
            preprocessingBody(api.modelId, input.id),
          );
          expect(reply.status).toBe(200);
          return json(referenceJob, reply).id;
        }),
      ),
    );
    const jobs = await waitForAll(sent, (i) => apis[i % 4]!);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `4 processes x 20 jobs: ${throughput(jobs)}; ${(sent.length / seconds).toFixed(1)} jobs/s as the client saw it`,
    );
    for (const job of jobs) {
      expect(job).toMatchObject({ status: "succeeded", attempts: 1 });
      expect(runningEvents(job)).toBe(1);
    }
    const ranOn = new Set<number>();
    const outputs: string[] = [];
    for (const job of jobs) {
      const api = apis[0]!;
      outputs.push(...outputsOf(await api.call("GET", `/api/job/${job.id}/result`)).map((o) => o.id));
      const pid = await runnerOf(api, job.id, 1);
      if (pid !== undefined) ranOn.add(pid);
    }
    expect(new Set(outputs).size).toBe(sent.length);
    expect((await readdir(join(dir.dataDir, "blobs"))).sort()).toEqual(
      [`${input.id}.1`, ...outputs.map((id) => `${id}.1`)].sort(),
    );
    // The work spread over the processes.
    expect(ranOn.size).toBeGreaterThan(1);
  }, 180_000);

  it("a job whose process is killed three times ends failed, saying why", async () => {
    const dir = await sharedDir();
    const leaseMs = 1500;
    const services = await Promise.all([0, 1, 2, 3].map(() => spawn(dir.dataDir, { leaseMs })));
    let api = await dir.api(services[0]!.url);
    const blob = await upload(api, numericCsv(600_000));
    const job = await send(api, blob.id);
    const alive = new Set(services);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const pid = await waitFor(`attempt ${attempt} to start`, () => runnerOf(api, job.id, attempt), 30_000);
      const victim = services.find((s) => s.pid === pid)!;
      await victim.kill("SIGKILL");
      alive.delete(victim);
      api = await dir.api([...alive][0]!.url);
    }
    const ended = await api.waitForJob(job.id);
    expect(ended).toMatchObject({ status: "failed", attempts: 3, error: { title: "Interrupted too often" } });
    expect(ended.error?.detail).toMatch(/during each of its 3 attempts/);
    expect(runningEvents(ended)).toBe(3);
    expect(await readdir(join(dir.dataDir, "blobs"))).toEqual([`${blob.id}.1`]);
  }, 120_000);

  it("a job with keys runs only in the process that holds them; when that process dies it fails with KEYS_LOST", async () => {
    const dir = await sharedDir();
    const leaseMs = 1500;
    const [holder, idle] = await Promise.all([spawn(dir.dataDir, { leaseMs }), spawn(dir.dataDir, { leaseMs })]);
    const api = await dir.api(holder.url);
    const big = await upload(api, numericCsv(600_000));
    const key = generateEncryptionKey();
    const secret = await upload(api, encryptBuffer(parseEncryptionKey(key), Buffer.from("a\n1\n2\n")));
    // The holder's one worker is busy with the big job; the keyed job waits in the queue.
    const busy = await send(api, big.id);
    await waitFor("the big job to start", () => runnerOf(api, busy.id, 1));
    const keyed = await send(api, secret.id, { input_encryption_key: key });
    // The idle process polls several times meanwhile but leaves the keyed job alone.
    await new Promise((r) => setTimeout(r, 2500));
    const other = await dir.api(idle.url);
    const waiting = json(referenceJob, await other.call("GET", `/api/job/${keyed.id}/get`));
    expect(["queued", "running", "succeeded"]).toContain(waiting.status);
    // A running attempt's first log line is written with its next batch of reports (100 ms).
    if (waiting.status !== "queued")
      expect(await waitFor("the keyed attempt's log line", () => runnerOf(other, keyed.id, 1), 5000)).toBe(holder.pid);

    await holder.kill("SIGKILL");
    const lost = await other.waitForJob(keyed.id, (j) => j.status !== "queued" && j.status !== "running");
    if (waiting.status === "queued") {
      expect(lost.status).toBe("failed");
      expect(lost.error?.title).toBe("Encryption keys lost");
    }
    // The job without keys is taken over by the survivor and finishes.
    expect((await other.waitForJob(busy.id)).status).toBe("succeeded");
  }, 120_000);

  it("updates of one blob from two processes at once: each lands whole, the last one wins, one file left", async () => {
    const dir = await sharedDir();
    const [a, b] = await Promise.all([spawn(dir.dataDir), spawn(dir.dataDir)]);
    const apis = [await dir.api(a.url), await dir.api(b.url)];
    const blob = await upload(apis[0]!, "v\n0\n");
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        apis[i % 2]!.upload(
          `v\n${i + 1}\n`,
          { Name: `v${i + 1}.csv`, RecordType: "csv", AccessTier: "hot" },
          {
            blobId: blob.id,
          },
        ),
      ),
    );
    expect(replies.map((r) => (r.status === 200 || r.status === 409 ? r.status : JSON.stringify(r.body)))).toEqual(
      replies.map((r) => (r.status === 409 ? 409 : 200)),
    );
    const download = await apis[1]!.download(blob.id);
    const etag = download.headers.get("etag");
    expect(createHash("sha256").update(download.body).digest("hex")).toBe(etag?.replaceAll('"', ""));
    expect(await readdir(join(dir.dataDir, "blobs"))).toHaveLength(1);
  }, 60_000);

  it("a process starting up leaves another live process's temp files alone", async () => {
    const dataDir = await h.tempDir("mdps-shared-");
    const first = await h.start({ dataDir });
    const [folder] = await readdir(join(dataDir, "tmp"));
    const inFlight = join(dataDir, "tmp", folder!, "upload.part");
    await writeFile(inFlight, "half an upload");
    await mkdir(join(dataDir, "tmp", "host-1-deadbeef"));
    await h.start({ dataDir });
    const tmp = await readdir(join(dataDir, "tmp"));
    expect(tmp).toContain(folder);
    expect(tmp).not.toContain("host-1-deadbeef");
    expect(await readdir(join(dataDir, "tmp", folder!))).toEqual(["upload.part"]);
    await first.close();
  });
});
