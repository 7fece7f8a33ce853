/**
 * The tracker's rows against jobs whose own watcher hears nothing yet (its next poll is
 * later): what /fetch saw must show at once.
 */
import { expect, it } from "vitest";
import { JobTracker, type TrackedJob } from "../../../repl/workspace/job-tracker.js";

/** The signal's reason (an AbortError unless abort() was given another Error). */
const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));

/** A job whose watcher learns nothing until the tracker closes. */
const quiet = (id: string) => ({
  id,
  wait: ({ signal }: { signal?: AbortSignal }) =>
    new Promise<never>((_, reject) =>
      signal?.addEventListener("abort", () => reject(abortReason(signal)), { once: true }),
    ),
});

it("a job's end seen elsewhere (/fetch waited for it) shows at once, and a finished row stays as it is", () => {
  let now = 1000;
  const tracker = new JobTracker(() => now);
  const finished: TrackedJob[] = [];
  tracker.onFinished((job) => finished.push(job));
  const job = tracker.track(quiet("5c2d81c7-bbe2-4292-9571-91f60cda6b61"), "StandardScaler on b1", {
    status: "running",
    phase: "writing",
    progress: 0.8,
  });

  now = 1400;
  tracker.observe(job.ref, { status: "succeeded", phase: "done" });
  expect(tracker.jobs[0]).toMatchObject({ status: "succeeded", phase: "done", progress: 1, finishedAt: 1400 });
  expect(finished.map((j) => j.ref)).toEqual([job.ref]);

  // A late, stale update (a poll sent before the end) changes nothing.
  tracker.observe(job.ref, { status: "running", phase: "writing", progress: 0.8 });
  expect(tracker.jobs[0]).toMatchObject({ status: "succeeded", phase: "done", progress: 1, finishedAt: 1400 });
  expect(finished).toHaveLength(1);
  tracker.close();
});

it("a job that succeeded finishes once, with the warnings its handle read with the result", async () => {
  const tracker = new JobTracker(() => 1000);
  const finished: TrackedJob[] = [];
  tracker.onFinished((job) => finished.push(job));
  const warnings = [{ code: "all_missing_column", message: 'Column "x" holds no value', column: "x" }];
  let read: typeof warnings | undefined;
  const handle = {
    id: "5c2d81c7-bbe2-4292-9571-91f60cda6b62",
    get warnings() {
      return read;
    },
    wait: async ({ onUpdate }: { onUpdate?: (record: never) => void }) => {
      const record = { id: handle.id, status: "succeeded", phase: "done", progress: 1 };
      onUpdate?.(record as never);
      // Job.wait reads the result (and its warnings) after the last record.
      await Promise.resolve();
      read = warnings;
      return record;
    },
  };
  const job = tracker.track(handle, "QuantileTransformer on b1");
  await tracker.waitFor(job.ref);
  expect(finished).toHaveLength(1);
  expect(finished[0]).toMatchObject({ status: "succeeded", progress: 1, warnings });
  tracker.close();
});
