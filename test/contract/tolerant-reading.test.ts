/** Times, ids and health words as other services write them, read by meaning. */
import { describe, expect, it } from "vitest";
import { blobRecord, health, isoTime, jobRecord, jobResult, logDetails } from "../../src/core/contract/index.js";

describe("tolerant reading", () => {
  it("times: ISO text stays; epoch milliseconds, seconds, digits and Jackson's arrays become RFC 3339", () => {
    expect(isoTime("2026-12-07T02:38:54.749Z")).toBe("2026-12-07T02:38:54.749Z");
    expect(isoTime(1796611134749)).toBe("2026-12-07T02:38:54.749Z");
    expect(isoTime(1796611134)).toBe("2026-12-07T02:38:54.000Z");
    expect(isoTime("1796611134749")).toBe("2026-12-07T02:38:54.749Z");
    expect(isoTime([2026, 12, 7, 2, 38, 54, 749_000_000])).toBe("2026-12-07T02:38:54.749Z");
    expect(isoTime([2026, 12, 7])).toBe("2026-12-07T00:00:00.000Z");
    // Not a time: left for the schema to judge.
    expect(isoTime("yesterday")).toBe("yesterday");
    expect(isoTime(-5)).toBe(-5);
    expect(isoTime([1, 2])).toEqual([1, 2]);
  });

  it("a blob record with epoch times, a numeric id and a size as text is read, not refused", () => {
    const record = blobRecord.parse({ blobId: 42, createdOn: 1796611134749, sizeBytes: "17", tags: null, extra: 1 });
    expect(record).toMatchObject({ id: "42", created_at: "2026-12-07T02:38:54.749Z", size_bytes: 17, tags: [] });
    expect(record.extra).toBe(1);
  });

  it("job records, events, results and logs with epoch times and numeric ids", () => {
    const job = jobRecord.parse({
      jobId: 7,
      status: "SUCCEEDED",
      createdAt: 1796611134749,
      finishedAt: 1796611135,
      events: [{ status: "QUEUED", timestamp: 1796611134749 }],
    });
    expect(job).toMatchObject({
      id: "7",
      created_at: "2026-12-07T02:38:54.749Z",
      finished_at: "2026-12-07T02:38:55.000Z",
    });
    expect(job.events?.[0]?.timestamp).toBe("2026-12-07T02:38:54.749Z");
    expect(jobResult.parse({ jobId: 7, status: "SUCCEEDED", outputBlobIds: [8, "9"] })).toMatchObject({
      job_id: "7",
      output_blob_ids: ["8", "9"],
    });
    const logs = logDetails.parse([{ details: { timestamp: 1796611134749, level: "INFO", message: "m" } }]);
    expect(logs.messages[0]).toMatchObject({ timestamp: "2026-12-07T02:38:54.749Z", level: "info" });
  });

  it("health words by meaning: Spring Actuator's UP is healthy, DOWN is not", () => {
    expect(health.parse({ status: "UP" }).status).toBe("healthy");
    expect(health.parse({ status: "Healthy" }).status).toBe("healthy");
    expect(health.parse({ status: "DOWN" }).status).toBe("unhealthy");
    expect(health.parse({ status: "Degraded" }).status).toBe("degraded");
  });
});
