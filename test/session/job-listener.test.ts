/**
 * Session.onJob against the real reference service (in-process on 127.0.0.1, temp
 * data dir): every job the session sends is reported once, before the call
 * resolves; `job(id)` and failed sends are not; unsubscribing stops the calls; a
 * throwing listener does not fail the send.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Session, ValidationError, type Job } from "../../src/index.js";
import { sampleFrame, useLocalSession } from "./session-fixture.js";

const local = useLocalSession();
let session: Session;
beforeAll(() => {
  session = local();
});

describe("Session.onJob", () => {
  it("reports jobs from preprocess and sendJob, before the call resolves, with the same handle", async () => {
    const seen: Job[] = [];
    const stop = session.onJob((job) => seen.push(job));
    try {
      let resolved = false;
      const pending = session
        .preprocess(sampleFrame(30), { type: "StandardScaler", columns: ["x1", "x2"] })
        .then((job) => {
          // The listener ran before the caller got the handle.
          expect(seen).toHaveLength(1);
          resolved = true;
          return job;
        });
      const job = await pending;
      expect(resolved).toBe(true);
      expect(seen[0]).toBe(job);
      expect(job.type).toBe("StandardScaler");
      expect(seen[0]!.record?.status).toBe("queued");

      const input = job.input!;
      const sent = await session.sendJob({
        type: "preprocessing",
        payload: { input_blob_id: input.id, preprocessing_type: "MaxAbsScaler", output: [{ name: "out" }] },
      });
      expect(seen).toEqual([job, sent]);
      expect(sent.type).toBe("MaxAbsScaler");
      // The reported handles work like any other: this one runs to the end.
      expect((await seen[1]!.wait()).status).toBe("succeeded");
    } finally {
      stop();
    }
  });

  it("does not report handles on existing jobs, nor sends that failed", async () => {
    const seen: Job[] = [];
    const stop = session.onJob((job) => seen.push(job));
    try {
      const first = await session.preprocess(sampleFrame(10, 3), { type: "MinMaxScaler" });
      expect(seen).toEqual([first]);
      const again = session.job(first.id);
      expect((await again.wait()).status).toBe("succeeded");
      await expect(
        session.preprocess(sampleFrame(10), { type: "Normalizer", params: { norm: "l3" as "l1" } }),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(seen).toEqual([first]);
    } finally {
      stop();
    }
  });

  it("stops calling after unsubscribe; several listeners each hear every job", async () => {
    const a: string[] = [];
    const b: string[] = [];
    const stopA = session.onJob((job) => a.push(job.id));
    const stopB = session.onJob((job) => b.push(job.id));
    const one = await session.preprocess(sampleFrame(10, 4), { type: "RobustScaler" });
    stopA();
    const two = await session.preprocess(sampleFrame(10, 5), { type: "RobustScaler" });
    stopB();
    stopB(); // twice is harmless
    await session.preprocess(sampleFrame(10, 6), { type: "RobustScaler" });
    expect(a).toEqual([one.id]);
    expect(b).toEqual([one.id, two.id]);
  });

  it("a listener that throws does not fail the send: the error becomes a process warning", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w);
    };
    process.on("warning", onWarning);
    const later: string[] = [];
    const stopBad = session.onJob(() => {
      throw new Error("listener broke");
    });
    const stopGood = session.onJob((job) => later.push(job.id));
    try {
      const job = await session.preprocess(sampleFrame(10, 7), { type: "MaxAbsScaler" });
      expect(later).toEqual([job.id]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toContain("A Session.onJob listener threw: listener broke");
      expect((await job.wait()).status).toBe("succeeded");
    } finally {
      stopBad();
      stopGood();
      process.off("warning", onWarning);
    }
  });
});
