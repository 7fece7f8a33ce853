/** Statuses by meaning and records in other casings: the contract's readers. */
import { describe, expect, it } from "vitest";
import {
  blobRecord,
  canonicalJobStatus,
  health,
  jobRecord,
  jobResult,
  JobStatusVocabulary,
  logDetails,
  snakeCase,
} from "../../src/core/contract/index.js";

describe("job statuses by meaning", () => {
  it("reads the usual synonyms case-insensitively", () => {
    const cases: Record<string, string[]> = {
      queued: ["Pending", "NotStarted", "Queued", "Submitted", "not_started", "NOT-STARTED"],
      running: ["Running", "InProgress", "Processing", "Starting", "Preparing", "in progress"],
      succeeded: ["Succeeded", "Completed", "Complete", "Success", "Done", "SUCCEEDED"],
      failed: ["Failed", "Error"],
      timed_out: ["TimedOut", "Timeout", "timed_out"],
      cancelled: ["Canceled", "Cancelled", "Stopped"],
    };
    for (const [status, words] of Object.entries(cases)) {
      for (const word of words) expect(canonicalJobStatus(word), word).toBe(status);
    }
    expect(canonicalJobStatus("Finalizing")).toBeUndefined();
  });

  it("a vocabulary keeps an unknown word, warns once, and learns from aliases and terminal words", () => {
    const warned: string[] = [];
    const plain = new JobStatusVocabulary({ onUnknownStatus: (word) => warned.push(word) });
    expect(plain.canonical("Finalizing")).toBe("Finalizing");
    expect(plain.canonical("FINALIZING")).toBe("FINALIZING");
    expect(plain.isTerminal("Finalizing")).toBe(false);
    expect(warned).toEqual(["Finalizing"]);
    expect(plain.isTerminal("Completed")).toBe(true);

    const taught = new JobStatusVocabulary({
      statusAliases: { Archived: "succeeded", Done: "running" },
      terminalStatuses: ["Expunged"],
      onUnknownStatus: (word) => warned.push(word),
    });
    expect(taught.canonical("archived")).toBe("succeeded");
    expect(taught.canonical("Done")).toBe("running"); // the caller's alias wins over the synonym
    expect(taught.isTerminal("Expunged")).toBe(true);
    expect(taught.canonical("Expunged")).toBe("Expunged");
    expect(warned).toEqual(["Finalizing"]);
  });
});

describe("records in another service's shape", () => {
  it("snake_cases keys", () => {
    expect(["blobId", "BlobId", "recordType", "sizeBytes", "created_on", "HTTPStatus"].map(snakeCase)).toEqual([
      "blob_id",
      "blob_id",
      "record_type",
      "size_bytes",
      "created_on",
      "http_status",
    ]);
  });

  it("a job record needs only an id and a status; unknown fields are kept", () => {
    expect(jobRecord.parse({ Id: "j", Status: "Running", createdAt: "t", queuePosition: 3 })).toEqual({
      id: "j",
      status: "Running",
      created_at: "t",
      queue_position: 3,
      error: undefined,
    });
    expect(jobRecord.safeParse({ id: "j" }).success).toBe(false);
    expect(jobRecord.parse({ jobId: "j", state: "Failed", errorMessage: "bad" }).error).toEqual({
      title: "Job failed",
      detail: "bad",
    });
  });

  it("a blob record in camelCase or PascalCase", () => {
    const camel = blobRecord.parse({
      blobId: "b",
      name: "n",
      recordType: "Csv",
      accessTier: "Hot",
      sizeBytes: 9,
      createdOn: "t",
    });
    expect(camel).toMatchObject({
      id: "b",
      record_type: "Csv",
      access_tier: "Hot",
      size_bytes: 9,
      created_at: "t",
      tags: [],
    });
    expect(blobRecord.parse({ BlobId: "b", RecordType: "Csv" })).toMatchObject({ id: "b", record_type: "Csv" });
  });

  it("results with blob ids, download URLs or strings in outputs; logs as a bare array", () => {
    expect(jobResult.parse({ jobId: "j", status: "Succeeded", outputBlobIds: ["b"] })).toMatchObject({
      job_id: "j",
      output_blob_ids: ["b"],
    });
    expect(jobResult.parse({ outputs: ["https://x/downloads/b?sig=1"] })).toMatchObject({
      download_urls: ["https://x/downloads/b?sig=1"],
    });
    const logs = logDetails.parse([
      {
        container: { hostname: "h", replicaName: "r", processId: 1 },
        details: { timestamp: "t", level: "Information", message: "m" },
      },
    ]);
    expect(logs).toEqual({
      messages: [
        { container: { hostname: "h", replicaName: "r", processId: 1 }, timestamp: "t", level: "info", message: "m" },
      ],
      truncated: false,
    });
    expect(health.parse({ status: "Healthy" })).toEqual({ status: "healthy" });
  });
});
