import { randomUUID } from "node:crypto";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { blobRecord, health, jobResult, logDetails, type BlobRecord } from "../../src/core/contract/index.js";
import { encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../../src/core/crypto/index.js";
import {
  Api,
  expectProblem,
  Harness,
  json,
  numericCsv,
  preprocessingBody,
  referenceJob,
  tokenFor,
  type ReferenceJob,
} from "./service-harness.js";

const h = new Harness();
afterAll(() => h.cleanup());

async function setup(dataDir?: string) {
  const service = await h.start(dataDir ? { dataDir } : {});
  const app = h.app(service.dataDir);
  const api = new Api(service.url, await tokenFor(service.url, app), app.modelId);
  return { service, app, api };
}

const running = (j: { status: string }) => j.status !== "queued";

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

/** Every file under the data dir's tmp/ (each process has its own folder there). */
async function tempFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(join(dataDir, "tmp"), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

describe("restart recovery", () => {
  it("hands a job that was running back to the queue when its service stops; the next start runs it to the end", async () => {
    const { service, api } = await setup();
    const blob = await upload(api, numericCsv(50_000));
    const { id } = await send(api, blob.id);
    expect((await api.waitForJob(id, running)).status).toBe("running");
    await service.close();

    const restarted = await h.start({ dataDir: service.dataDir });
    const again = new Api(restarted.url, api.token, api.modelId);
    const job = await again.waitForJob(id);
    expect(job).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(job.events.some((e) => e.status === "queued" && e.message?.includes("stopped or restarted"))).toBe(true);
    const logs = json(logDetails, await again.call("GET", `/api/job/${id}/logs`)).messages;
    expect(logs.some((m) => m.level === "warning" && m.message.includes("stopped or restarted"))).toBe(true);
    expect(json(jobResult, await again.call("GET", `/api/job/${id}/result`)).rows).toBe(50_000);
  });

  it("gives up after 3 interrupted attempts; no job stays running", async () => {
    const { service, api } = await setup();
    const blob = await upload(api, numericCsv(50_000));
    const { id } = await send(api, blob.id);
    let current = service;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const a = new Api(current.url, api.token, api.modelId);
      const job = await a.waitForJob(id, running);
      expect(job).toMatchObject({ status: "running", attempts: attempt });
      await current.close();
      current = await h.start({ dataDir: service.dataDir });
    }
    const job = await new Api(current.url, api.token, api.modelId).waitForJob(id);
    expect(job).toMatchObject({ status: "failed", attempts: 3, error: { title: "Interrupted too often" } });
  });

  it("fails a requeued job whose keys were lost with the restart, asking to resubmit", async () => {
    const { service, api } = await setup();
    const key = generateEncryptionKey();
    const blob = await upload(api, encryptBuffer(parseEncryptionKey(key), numericCsv(50_000)));
    const { id } = await send(api, blob.id, { input_encryption_key: key });
    await api.waitForJob(id, running);
    await service.close();
    const restarted = await h.start({ dataDir: service.dataDir });
    const job = await new Api(restarted.url, api.token, api.modelId).waitForJob(id);
    expect(job.status).toBe("failed");
    expect(job.error?.title).toBe("Encryption keys lost");
    expect(job.error?.detail).toMatch(/Submit the job again/);
  });

  it("removes dead processes' temp files and unreferenced blob files at startup, keeps committed ones", async () => {
    const { service, api } = await setup();
    const blob = await upload(api, "a\n1\n");
    await service.close();
    const blobs = join(service.dataDir, "blobs");
    await writeFile(join(service.dataDir, "tmp", `${randomUUID()}.part`), "half an upload of an older version");
    await mkdir(join(service.dataDir, "tmp", "host-1234-deadbeef"));
    await writeFile(join(service.dataDir, "tmp", "host-1234-deadbeef", `${randomUUID()}.part`), "a killed process's");
    await writeFile(join(blobs, `${randomUUID()}.1`), "renamed but never committed");
    await writeFile(join(blobs, `${blob.id}.2`), "an update that never committed");
    const restarted = await h.start({ dataDir: service.dataDir });
    expect(await tempFiles(service.dataDir)).toEqual([]);
    // Only the running process's own (empty) temp folder is left.
    expect(await readdir(join(service.dataDir, "tmp"))).toHaveLength(1);
    expect(await readdir(blobs)).toEqual([`${blob.id}.1`]);
    expect((await new Api(restarted.url, api.token, api.modelId).download(blob.id)).body.toString()).toBe("a\n1\n");
  });
});

describe("request_timeout_seconds", () => {
  it("stops a job that runs too long: timed_out, no outputs, temp files gone, the next job runs", async () => {
    const { service, api } = await setup();
    const big = await upload(api, numericCsv(1_200_000));
    const small = await upload(api, "a\n1\n2\n");
    const slow = await send(api, big.id, { request_timeout_seconds: 1 });
    const next = await send(api, small.id);
    // One worker: the second job waits in the queue, and its result is not ready.
    const notReady = expectProblem(await api.call("GET", `/api/job/${next.id}/result`), 409);
    expect(notReady).toMatchObject({ job_id: next.id, job_status: "queued" });

    const job = await api.waitForJob(slow.id);
    expect(job.status).toBe("timed_out");
    expect(job.error?.title).toBe("Timed out");
    expect(job.error?.detail).toContain("request_timeout_seconds (1 s)");
    const result = expectProblem(await api.call("GET", `/api/job/${slow.id}/result`), 409);
    expect(result).toMatchObject({ job_status: "timed_out", error: job.error });
    expect(json(logDetails, await api.call("GET", `/api/job/${slow.id}/logs`)).messages.at(-1)?.level).toBe("error");
    expect((await api.waitForJob(next.id)).status).toBe("succeeded");
    // A succeeded job's temp links are removed just after its commit (runner.ts, attempt).
    await expect.poll(() => tempFiles(service.dataDir), { timeout: 5000 }).toEqual([]);
    // Terminal states never change.
    expect(json(referenceJob, await api.call("GET", `/api/job/${slow.id}/get`)).status).toBe("timed_out");
    const { checks } = json(health, await api.call("GET", "/api/shared/health"));
    expect(checks?.workers).toMatchObject({ status: "pass", alive: 1 });
  });
});
