/** Cancel (docs/contract.md#extensions): queued, running (here and in another process), finished, twice. */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { blobRecord, health, logDetails, type BlobRecord } from "../../src/core/contract/index.js";
import {
  Api,
  expectProblem,
  Harness,
  json,
  numericCsv,
  preprocessingBody,
  referenceJob,
  tokenFor,
} from "./service-harness.js";
import { spawnService, type ServiceProcess } from "./service-process.js";

const h = new Harness();
const children: ServiceProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => c.kill("SIGKILL")));
  await h.cleanup();
});

async function setup() {
  const service = await h.inject();
  const app = h.app(service.dataDir);
  const api = new Api(service, await tokenFor(service, app), app.modelId);
  return { service, app, api };
}

const send = async (api: Api, blobId: string) =>
  json(referenceJob, await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, blobId)));

const upload = async (api: Api, bytes: Uint8Array | string): Promise<BlobRecord> =>
  json(blobRecord, await api.upload(bytes));

async function tempFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(join(dataDir, "tmp"), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

/** When the running process wrote that the attempt stopped (ms since the epoch), once it has. */
async function stoppedAt(api: Api, jobId: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const logs = json(logDetails, await api.call("GET", `/api/job/${jobId}/logs`)).messages;
    const line = logs.find((m) => m.message.includes("stopped on") && m.message.includes("cancelled"));
    if (line) return Date.parse(line.timestamp ?? "");
    if (Date.now() > deadline) throw new Error(`job ${jobId}: no 'stopped' log line after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("cancel", () => {
  it("cancels a queued job: it never runs; the running one goes on", async () => {
    const { api } = await setup();
    const big = await upload(api, numericCsv(400_000));
    const small = await upload(api, "a\n1\n2\n");
    const first = await send(api, big.id);
    const queued = await send(api, small.id);
    const reply = await api.call("POST", `/api/ml/preprocessing/job/${queued.id}/cancel`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: queued.id, status: "cancelled" });
    expect((await api.waitForJob(first.id)).status).toBe("succeeded");
    const job = json(referenceJob, await api.call("GET", `/api/job/${queued.id}/get`));
    expect(job).toMatchObject({ status: "cancelled", attempts: 0 });
    expect(job.events.map((e) => e.status)).toEqual(["queued", "cancelled"]);
    expect(expectProblem(await api.call("GET", `/api/job/${queued.id}/result`), 409)).toMatchObject({
      job_status: "cancelled",
    });
  });

  it("stops a running job within a second: no output blob, temp files gone, the worker runs the next job", async () => {
    const { service, api } = await setup();
    const big = await upload(api, numericCsv(1_200_000));
    const job = await send(api, big.id);
    await api.waitForJob(job.id, (j) => j.status === "running" && j.phase !== "reading");
    const asked = Date.now();
    const reply = await api.call("POST", `/api/job/${job.id}/cancel`);
    const answered = Date.now();
    expect(reply.status).toBe(200);
    expect(json(referenceJob, reply).status).toBe("cancelled");
    const stopped = await stoppedAt(api, job.id);
    console.log(
      `cancel in the running process: answered in ${answered - asked} ms, run stopped ${stopped - asked} ms after the request`,
    );
    expect(stopped - asked).toBeLessThan(1000);
    // The stop is logged after the attempt's temp files are removed.
    expect(await tempFiles(service.dataDir)).toEqual([]);
    // The worker slot is free again and a fresh thread runs the next job.
    const { checks } = json(health, await api.call("GET", "/api/shared/health"));
    expect(checks?.workers).toMatchObject({ status: "pass", alive: 1 });
    const small = await upload(api, "a\n1\n2\n");
    expect((await api.waitForJob((await send(api, small.id)).id)).status).toBe("succeeded");
    const blobs = await readdir(join(service.dataDir, "blobs"));
    expect(blobs).toHaveLength(3); // two inputs and the small job's output: nothing of the cancelled run
    // A success's temp link outlives its commit (the job reads as succeeded) by a moment.
    await expect.poll(() => tempFiles(service.dataDir), { timeout: 2000 }).toEqual([]);
    expect(json(referenceJob, await api.call("GET", `/api/job/${job.id}/get`)).status).toBe("cancelled");
  });

  it("is 200 again for a cancelled job, 409 with job_status for another terminal job, 404 for another model's", async () => {
    const { service, api } = await setup();
    const small = await upload(api, "a\n1\n2\n");
    const done = await send(api, small.id);
    await api.waitForJob(done.id);
    const conflict = expectProblem(await api.call("POST", `/api/job/${done.id}/cancel`), 409);
    expect(conflict).toMatchObject({ job_id: done.id, job_status: "succeeded" });

    const big = await upload(api, numericCsv(400_000));
    const job = await send(api, big.id);
    const once = await api.call("POST", `/api/job/${job.id}/cancel`);
    const twice = await api.call("POST", `/api/ml/preprocessing/job/${job.id}/cancel`);
    expect([once.status, twice.status]).toEqual([200, 200]);
    const cancelled = json(referenceJob, twice);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.events.filter((e) => e.status === "cancelled")).toHaveLength(1);

    const stranger = h.app(service.dataDir);
    const other = new Api(service, await tokenFor(service, stranger), stranger.modelId);
    expectProblem(await other.call("POST", `/api/job/${job.id}/cancel`), 404);
    const noScope = h.app(service.dataDir, ["ml.preprocessing.read"], api.modelId);
    const reader = new Api(service, await tokenFor(service, noScope), api.modelId);
    expect(expectProblem(await reader.call("POST", `/api/job/${job.id}/cancel`), 403).detail).toContain(
      "ml.preprocessing.execute",
    );
    const { capabilities } = json(health, await api.call("GET", "/api/shared/health"));
    expect(capabilities).toContain("cancel");
  });

  it("a cancel received by another process stops the run within a second", async () => {
    const dataDir = await h.tempDir("mdps-cancel-");
    const app = h.app(dataDir);
    const [runner, canceller] = await Promise.all([spawnService(dataDir), spawnService(dataDir)]);
    children.push(runner, canceller);
    const api = new Api(runner.url, await tokenFor(runner.url, app), app.modelId);
    const other = new Api(canceller.url, await tokenFor(canceller.url, app), app.modelId);
    const big = await upload(api, numericCsv(1_200_000));
    const job = await send(api, big.id);
    await api.waitForJob(job.id, (j) => j.status === "running" && j.phase !== "reading");
    const asked = Date.now();
    expect((await other.call("POST", `/api/job/${job.id}/cancel`)).status).toBe(200);
    const stopped = await stoppedAt(api, job.id);
    console.log(`cancel from another process: run stopped ${stopped - asked} ms after the request`);
    expect(stopped - asked).toBeLessThan(1000);
    const small = await upload(api, "a\n1\n2\n");
    expect((await api.waitForJob((await send(api, small.id)).id)).status).toBe("succeeded");
    expect(await readdir(join(dataDir, "blobs"))).toHaveLength(3);
  }, 120_000);
});
