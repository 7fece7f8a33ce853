/**
 * One unit rule: every duration is in ms and named `…Ms`. The older names (`timeout`
 * in seconds, `pollInterval`, preprocess's per-attempt `timeoutMs`) are deprecated
 * aliases that keep working; the new name wins when both are given.
 */
/* eslint-disable @typescript-eslint/no-deprecated -- the aliases are what is tested */
import { describe, expect, it, vi } from "vitest";
import { TimeoutError, ValidationError, type JobExecutionLogDetails, type JobRecord } from "../../src/index.js";
import { watch, type WatchWaitOptions } from "../../src/display/notebook/job-progress.js";
import type { SessionContext } from "../../src/session/session-context.js";
import { Job, type JobReach } from "../../src/session/job/job.js";
import { JobStatusVocabulary } from "../../src/core/contract/job-status.js";
import { followLogMessages } from "../../src/session/job/logs.js";
import { pollUntilTerminal, waitDurations } from "../../src/session/job/polling.js";
import { requestTimeoutOf, type PreprocessOptions } from "../../src/session/preprocess/options.js";
import { planPreprocess, requestFor } from "../../src/session/preprocess/plan.js";
import { ServiceProfile } from "../../src/client/vendor/service-profile.js";
import { sampleFrame, useLocalSession } from "./session-fixture.js";

const JOB_ID = "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f50";
const MODEL_ID = "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f51";
const BLOB_ID = "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f52";

function record(status: string): JobRecord {
  return {
    id: JOB_ID,
    model_id: MODEL_ID,
    job_type: "preprocessing",
    status,
    progress: 0,
    phase: null,
    created_at: "",
    started_at: null,
    finished_at: null,
    attempts: 1,
    error: null,
    request: {},
    events: [],
  };
}

const running = () => Promise.resolve(record("running"));

async function timeoutOf(promise: Promise<unknown>): Promise<TimeoutError> {
  const err = await promise.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TimeoutError);
  return err as TimeoutError;
}

describe("waiting: timeoutMs and pollIntervalMs", () => {
  it("waitDurations reads the new names, else converts the aliases; the new name wins", () => {
    expect(waitDurations({})).toEqual({ timeoutMs: undefined, pollIntervalMs: undefined });
    expect(waitDurations({ timeoutMs: 1500, pollIntervalMs: 40 })).toEqual({ timeoutMs: 1500, pollIntervalMs: 40 });
    expect(waitDurations({ timeout: 1.5, pollInterval: 40 })).toEqual({ timeoutMs: 1500, pollIntervalMs: 40 });
    expect(waitDurations({ timeoutMs: 200, timeout: 9, pollIntervalMs: 30, pollInterval: 5000 })).toEqual({
      timeoutMs: 200,
      pollIntervalMs: 30,
    });
  });

  it("timeoutMs gives up after that many ms, with a TimeoutError naming the option", async () => {
    const started = Date.now();
    const err = await timeoutOf(pollUntilTerminal("j1", running, { timeoutMs: 150, pollIntervalMs: 20 }));
    expect(err.timeoutMs).toBe(150);
    expect(err.message).toBe(
      "Job j1 did not finish within 150 ms of waiting. It goes on running: wait again, or raise `timeoutMs`.",
    );
    // The job never ends: without the timeout this would not return at all.
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("the deprecated `timeout` is still seconds", async () => {
    const err = await timeoutOf(pollUntilTerminal("j1", running, { timeout: 0.15, pollInterval: 20 }));
    expect(err.timeoutMs).toBe(150);
  });

  it("pollIntervalMs caps the pause between polls; with both names the new one wins", async () => {
    const count = async (options: { pollIntervalMs?: number; pollInterval?: number }) => {
      let polls = 0;
      const poll = () => (polls++, Promise.resolve(record("running")));
      await pollUntilTerminal("j", poll, { ...options, timeoutMs: 400 }).catch(() => undefined);
      return polls;
    };
    // 25, 30, 30, ... ms between polls: a dozen in 400 ms; capped at 10 s: only the first pauses.
    expect(await count({ pollIntervalMs: 30 })).toBeGreaterThanOrEqual(8);
    expect(await count({ pollInterval: 30 })).toBeGreaterThanOrEqual(8);
    expect(await count({ pollIntervalMs: 10_000, pollInterval: 30 })).toBeLessThanOrEqual(6);
  });

  it("followLogs polls every pollIntervalMs (or the deprecated pollInterval)", async () => {
    const follow = async (options: { pollIntervalMs?: number; pollInterval?: number }) => {
      let reads = 0;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const details = (): Promise<JobExecutionLogDetails> => {
        reads++;
        return Promise.resolve({ job_id: JOB_ID, status: "running", messages: [], truncated: false });
      };
      const messages: unknown[] = [];
      await (async () => {
        for await (const message of followLogMessages("j", details, { ...options, signal: controller.signal })) {
          messages.push(message);
        }
      })().catch(() => undefined);
      expect(messages).toEqual([]);
      return reads;
    };
    expect(await follow({ pollIntervalMs: 20 })).toBeGreaterThanOrEqual(5);
    expect(await follow({ pollInterval: 20 })).toBeGreaterThanOrEqual(5);
    expect(await follow({ pollIntervalMs: 10_000, pollInterval: 20 })).toBe(1);
  });
});

/** A Job on a fake client: job get says `status`, download records its options and stops. */
function fakeJob(status: string) {
  const downloads: unknown[] = [];
  const gets = vi.fn(() => Promise.resolve(record(status)));
  const client = {
    jobs: {
      get: gets,
      logs: () => Promise.resolve({ job_id: JOB_ID, status, messages: [], truncated: false }),
      result: () =>
        Promise.resolve({
          job_id: JOB_ID,
          status,
          rows: 1,
          columns: ["a"],
          outputs: [
            {
              id: BLOB_ID,
              model_id: MODEL_ID,
              name: "out",
              description: null,
              record_type: "csv",
              access_tier: "hot",
              tags: [],
              content_type: "text/csv",
              size_bytes: 4,
              sha256: "",
              encrypted: false,
              created_at: "",
              updated_at: "",
            },
          ],
          fitted: { type: "MaxAbsScaler", params: {}, feature_names_in_: ["a"], n_features_in_: 1 },
          duration_ms: 1,
        }),
    },
    blobs: {
      download: (_id: string, options: unknown) => {
        downloads.push(options);
        return Promise.reject(new Error("download stopped by the test"));
      },
    },
  };
  const ctx = {
    client,
    wireFormat: "csv",
    pollIntervalMs: 1000,
    statuses: new JobStatusVocabulary(),
    profile: new ServiceProfile({ declared: [], settings: {} }),
    session: { track: () => undefined },
  } as unknown as SessionContext<JobReach>;
  return { job: new Job(ctx, JOB_ID), gets, downloads };
}

describe("Job: the wait's and the download's limits", () => {
  it("job.wait takes timeoutMs, and the deprecated timeout in seconds", async () => {
    expect((await timeoutOf(fakeJob("running").job.wait({ timeoutMs: 120, progress: false }))).timeoutMs).toBe(120);
    expect((await timeoutOf(fakeJob("running").job.wait({ timeout: 0.12, progress: false }))).timeoutMs).toBe(120);
  });

  it("job.wait polls at pollIntervalMs, or the deprecated pollInterval, over the session's default", async () => {
    const polls = async (options: { pollIntervalMs?: number; pollInterval?: number }) => {
      const { job, gets } = fakeJob("running");
      await job.wait({ ...options, timeoutMs: 400, progress: false }).catch(() => undefined);
      return gets.mock.calls.length;
    };
    expect(await polls({ pollIntervalMs: 30 })).toBeGreaterThanOrEqual(8);
    expect(await polls({ pollInterval: 30 })).toBeGreaterThanOrEqual(8);
    // The session's 1000 ms: 25, 37.5, 56, 84, 127 ms pauses, about six polls in 400 ms.
    expect(await polls({})).toBeLessThanOrEqual(7);
  });

  it("job.dataframe limits each download attempt with requestTimeoutMs, not with the wait's timeoutMs", async () => {
    const { job, downloads } = fakeJob("succeeded");
    await expect(job.dataframe({ timeoutMs: 5000, requestTimeoutMs: 1234, progress: false })).rejects.toThrow(
      "download stopped by the test",
    );
    expect(downloads).toHaveLength(1);
    expect(downloads[0]).toMatchObject({ timeoutMs: 1234 });

    const other = fakeJob("succeeded");
    await expect(other.job.dataframe({ timeoutMs: 5000, progress: false })).rejects.toThrow();
    expect(other.downloads[0]).toHaveProperty("timeoutMs", undefined);
  });
});

describe("watch(job, { timeoutMs })", () => {
  it("passes timeoutMs to job.wait, converting the deprecated seconds", async () => {
    const seen: WatchWaitOptions[] = [];
    const job = {
      wait: (options: WatchWaitOptions) => (seen.push(options), Promise.resolve({ status: "succeeded" })),
    };
    await watch(job, { timeoutMs: 2500, progress: "none" });
    await watch(job, { timeout: 2.5, progress: "none" });
    await watch(job, { timeoutMs: 100, timeout: 9, progress: "none" });
    await watch(job, { progress: "none" });
    expect(seen.map((o) => o.timeoutMs)).toEqual([2500, 2500, 100, undefined]);
    expect(seen.every((o) => !("timeout" in o))).toBe(true);
  });
});

describe("session.preprocess: jobTimeoutMs and requestTimeoutMs", () => {
  const profile = new ServiceProfile({ declared: undefined, settings: {} });
  const input = { blobId: BLOB_ID, name: "in.csv", recordType: "csv" as const };
  const seconds = (options: Omit<PreprocessOptions, "type">) => {
    const plan = planPreprocess({ type: "MaxAbsScaler", ...options }, { modelId: MODEL_ID, profile, baseUrl: "" });
    return requestFor(plan, input, profile).request.request_timeout_seconds;
  };
  const invalid = (options: Omit<PreprocessOptions, "type">) => {
    try {
      seconds(options);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).errors;
    }
    throw new Error("expected a ValidationError");
  };

  it("sends jobTimeoutMs as request_timeout_seconds; the deprecated timeout is seconds", () => {
    expect(seconds({})).toBeUndefined();
    expect(seconds({ jobTimeoutMs: 600_000 })).toBe(600);
    expect(seconds({ jobTimeoutMs: 1000 })).toBe(1);
    expect(seconds({ jobTimeoutMs: 86_400_000 })).toBe(86_400);
    expect(seconds({ timeout: 600 })).toBe(600);
    expect(seconds({ jobTimeoutMs: 120_000, timeout: 600 })).toBe(120);
  });

  it("refuses a jobTimeoutMs that is not whole seconds from 1 to 86400, naming the field", () => {
    for (const jobTimeoutMs of [0, 999, 1500, -1000, 86_401_000, Number.NaN, Number.POSITIVE_INFINITY]) {
      const errors = invalid({ jobTimeoutMs });
      expect(Object.keys(errors ?? {})).toEqual(["jobTimeoutMs"]);
      expect(errors?.jobTimeoutMs?.[0]).toBe(
        `must be a whole number of seconds from 1 s to 24 h, in ms: 1000 to 86400000 in steps of 1000 (got ${jobTimeoutMs})`,
      );
    }
    expect(Object.keys(invalid({ timeout: 0 }) ?? {})).toEqual(["timeout"]);
  });

  it("reads requestTimeoutMs, else the deprecated timeoutMs", () => {
    expect(requestTimeoutOf({ type: "Binarizer" })).toBeUndefined();
    expect(requestTimeoutOf({ type: "Binarizer", requestTimeoutMs: 5000 })).toBe(5000);
    expect(requestTimeoutOf({ type: "Binarizer", timeoutMs: 7000 })).toBe(7000);
    expect(requestTimeoutOf({ type: "Binarizer", requestTimeoutMs: 5000, timeoutMs: 7000 })).toBe(5000);
  });

  describe("against the local service", () => {
    const local = useLocalSession();

    it("the job carries the limit; each HTTP attempt of the upload and send gets requestTimeoutMs", async () => {
      const session = local();
      const upload = vi.spyOn(session.client.blobs, "upload");
      const send = vi.spyOn(session.client.jobs, "send");
      const job = await session.preprocess(sampleFrame(10), {
        type: "MaxAbsScaler",
        jobTimeoutMs: 120_000,
        requestTimeoutMs: 30_000,
      });
      expect(upload.mock.calls[0]?.[2]).toMatchObject({ timeoutMs: 30_000 });
      expect(send.mock.calls[0]?.[1]).toMatchObject({ timeoutMs: 30_000 });
      expect(job.record?.request).toMatchObject({ request_timeout_seconds: 120 });

      const old = await session.preprocess(sampleFrame(10), { type: "MaxAbsScaler", timeout: 90, timeoutMs: 20_000 });
      expect(send.mock.calls[1]?.[1]).toMatchObject({ timeoutMs: 20_000 });
      expect(old.record?.request).toMatchObject({ request_timeout_seconds: 90 });
      expect((await old.wait({ timeoutMs: 60_000, pollIntervalMs: 50, progress: false })).status).toBe("succeeded");
      upload.mockRestore();
      send.mockRestore();
    });
  });
});
