/**
 * job.cancel() as a user sees it, against Session.local() (the reference service in
 * this process, real files): a queued job, a running one (its wait rejects with
 * JobCancelledError within a second, no output blob), a finished one (the typed 409),
 * twice; then against a service without cancel (the foreign service): one sentence,
 * and everything else keeps working. Also what a local session says once its own
 * service is gone.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConflictError,
  ConnectionError,
  JobAlreadyEndedError,
  JobCancelledError,
  JobFailedError,
  MdpsClient,
  Session,
  UnsupportedExtensionError,
  type Job,
} from "../../src/index.js";
import { startForeignService, type ForeignService } from "../foreign-service/index.js";
import { tempDir, writeSlowJobCsv } from "./session-fixture.js";

const dir = tempDir("mdps-cancel-");
let session: Session;
let bigCsv: string;
let smallCsv: string;

beforeAll(async () => {
  // One worker: a second job waits in the queue while the first runs.
  session = await Session.local({ dataDir: join(dir.path, "data"), service: { jobWorkers: 1 } });
  bigCsv = writeSlowJobCsv(dir.path);
  smallCsv = join(dir.path, "small.csv");
  writeFileSync(smallCsv, "a,b\n1,2\n3,5\n4,9\n");
});

afterAll(async () => {
  await session.close();
  dir.remove();
});

async function untilRunning(job: Job): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const record = await job.status({ limit: 1 });
    if (record.status === "running" && record.phase !== "reading") return;
    if (record.status !== "queued" && record.status !== "running") throw new Error(`job ended ${record.status}`);
    if (Date.now() > deadline) throw new Error("the job did not start");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const blobFiles = (): string[] => readdirSync(join(session.dataDir!, "blobs"));

describe("job.cancel() on the reference service", () => {
  it("cancels a queued job and a running one; waits reject with JobCancelledError; no output blob", async () => {
    const running = await session.preprocess(bigCsv, { type: "PowerTransformer" });
    const queued = await session.preprocess(running.input!, { type: "StandardScaler" });
    const runningWait = running.wait({ progress: false }).then(
      () => undefined,
      (error: unknown) => ({ error, at: Date.now() }),
    );
    await untilRunning(running);
    expect((await queued.status()).status).toBe("queued");
    const filesBefore = blobFiles();

    const queuedRecord = await queued.cancel();
    expect(queuedRecord.status).toBe("cancelled");
    expect(queued.record?.status).toBe("cancelled");
    const queuedError = await queued.wait({ progress: false }).catch((e: unknown) => e);
    expect(queuedError).toBeInstanceOf(JobCancelledError);
    expect(queuedError).toBeInstanceOf(JobFailedError);
    expect(queuedError).toMatchObject({ code: "job_cancelled", name: "JobCancelledError", status: "cancelled" });
    expect((queuedError as Error).message).toMatch(
      new RegExp(
        `^Job ${queued.id} was cancelled: cancelled by request[^.]*\\. It has no result; submit it again if you still need it\\.$`,
      ),
    );

    const asked = Date.now();
    const record = await running.cancel();
    const answered = Date.now();
    expect(record.status).toBe("cancelled");
    const waited = await runningWait;
    expect(waited?.error).toBeInstanceOf(JobCancelledError);
    // The rest of the job's API says the same: no result, no frame.
    await expect(running.result({ progress: false })).rejects.toBeInstanceOf(JobCancelledError);
    await expect(running.dataframe({ progress: false })).rejects.toBeInstanceOf(JobCancelledError);
    console.log(
      `cancel as the client sees it: the call answered in ${answered - asked} ms; ` +
        `a wait already polling (200 ms interval) rejected ${waited!.at - asked} ms after the call`,
    );
    expect(waited!.at - asked).toBeLessThan(1000);
    expect(blobFiles()).toEqual(filesBefore);

    // The worker is free again: the next job runs to the end.
    const small = await session.preprocess(smallCsv, {
      type: "MinMaxScaler",
    });
    expect((await small.wait({ progress: false })).status).toBe("succeeded");
  }, 120_000);

  it("cancelling twice is fine; a finished job gives JobAlreadyEndedError with its status", async () => {
    const job = await session.preprocess(bigCsv, { type: "PowerTransformer" });
    expect((await job.cancel()).status).toBe("cancelled");
    expect((await job.cancel()).status).toBe("cancelled");

    const done = await session.preprocess(smallCsv, {
      type: "StandardScaler",
    });
    await done.wait({ progress: false });
    const error = await done.cancel().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobAlreadyEndedError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: "job_already_ended", jobStatus: "succeeded", jobId: done.id });
    expect((error as Error).message).toBe(
      `Job ${done.id} already ended as succeeded; only a queued or running job can be cancelled.`,
    );
    // Still succeeded, result intact.
    expect((await done.result()).rows).toBeGreaterThan(0);
  }, 60_000);

  it("a handle from session.job(id) cancels too (same jobs through either API)", async () => {
    const job = await session.preprocess(bigCsv, { type: "PowerTransformer" });
    const again = session.job(job.id);
    expect((await again.cancel()).status).toBe("cancelled");
    await expect(job.wait({ progress: false })).rejects.toBeInstanceOf(JobCancelledError);
  }, 60_000);
});

describe("a service without cancel", () => {
  let foreign: ForeignService;
  beforeAll(async () => {
    foreign = await startForeignService();
  });
  afterAll(() => foreign.close());

  it("says in one sentence that the service does not offer cancel; nothing else breaks", async () => {
    const remote = await Session.connect({
      baseUrl: foreign.url,
      authUrl: foreign.url,
      clientId: foreign.clientId,
      clientSecret: foreign.clientSecret,
      modelId: foreign.modelId,
      env: {},
      configFile: false,
      verify: false,
    });
    try {
      const id = randomUUID();
      const error = await remote
        .job(id)
        .cancel()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedExtensionError);
      expect(error).toMatchObject({ code: "unsupported_extension", extension: "cancel" });
      expect((error as Error).message).toBe(
        `This service (${foreign.url}) does not offer cancel (it does not declare it in health's capabilities), so job ${id} goes on running.`,
      );
      // Health was read to learn that; no cancel request was sent.
      expect(foreign.requests().filter((r) => r.path.endsWith("/cancel"))).toEqual([]);
      // The session keeps working.
      expect((await remote.health()).status).toBeTruthy();
      await expect(remote.job(id).cancel()).rejects.toBeInstanceOf(UnsupportedExtensionError);
    } finally {
      await remote.close();
    }
  });

  it("without the health scope, the endpoint's 404 gives the same sentence", async () => {
    const noHealth = await startForeignService({
      assignedScopes: ["ml.preprocessing.read", "ml.preprocessing.execute"],
    });
    const client = MdpsClient.create({
      baseUrl: noHealth.url,
      authUrl: noHealth.url,
      clientId: noHealth.clientId,
      clientSecret: noHealth.clientSecret,
      modelId: noHealth.modelId,
      scopes: ["ml.preprocessing.read", "ml.preprocessing.execute"],
      env: {},
      configFile: false,
    });
    try {
      const id = randomUUID();
      const error = await client.preprocessing.cancel(id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedExtensionError);
      expect((error as Error).message).toBe(
        `This service (${noHealth.url}) does not offer cancel (it answered 404 to POST /api/ml/preprocessing/job/${id}/cancel), so job ${id} goes on running.`,
      );
    } finally {
      await client.close();
      await noHealth.close();
    }
  });
});

describe("a local session whose service is gone", () => {
  it("names the data dir, not MDPS_BASE_URL", async () => {
    const own = await Session.local({ dataDir: join(dir.path, "gone") });
    await own.close();
    const error = await own.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    const message = (error as Error).message;
    expect(message).toContain(`This session's local service (data dir ${join(dir.path, "gone")}) is no longer running`);
    expect(message).not.toContain("MDPS_BASE_URL");
  });
});
