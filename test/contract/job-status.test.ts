import { describe, expect, it } from "vitest";
import {
  BLOB_FORM_PART_NAMES,
  BLOB_FORM_PARTS,
  BLOB_METADATA_FIELDS,
  blobRecord,
  DEFAULT_ACCESS_TIER,
  isTerminal,
  isTerminalStatus,
  JOB_STATUSES,
  preprocessingOutputRequest,
  TERMINAL_JOB_STATUSES,
  TERMINAL_STATUSES,
} from "../../src/core/contract/index.js";

describe("job statuses", () => {
  it("are the six of the contract, four of them terminal", () => {
    expect(JOB_STATUSES).toEqual(["queued", "running", "succeeded", "failed", "timed_out", "cancelled"]);
    expect(JOB_STATUSES.filter(isTerminalStatus)).toEqual(["succeeded", "failed", "timed_out", "cancelled"]);
    expect(TERMINAL_JOB_STATUSES).toEqual(["succeeded", "failed", "timed_out", "cancelled"]);
  });

  it("treat an unknown status as still going, so a poller does not stop early", () => {
    expect(isTerminalStatus("Completed")).toBe(false);
    expect(isTerminalStatus("SUCCEEDED")).toBe(false);
    expect(isTerminalStatus("")).toBe(false);
  });

  it("keep the deprecated names answering as the new ones", () => {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- this test is about the deprecated name
    expect(TERMINAL_STATUSES).toEqual(TERMINAL_JOB_STATUSES);
    for (const status of [...JOB_STATUSES, "unknown"]) {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- this test is about the deprecated name
      expect(isTerminal(status)).toBe(isTerminalStatus(status));
    }
  });
});

describe("blob form and tiers", () => {
  it("name the multipart parts exactly as the contract spells them", () => {
    expect(BLOB_FORM_PART_NAMES).toEqual(["File", "Name", "Description", "RecordType", "AccessTier", "Tags"]);
    expect(BLOB_FORM_PARTS.recordType).toBe("RecordType");
  });

  it("describe every metadata part once, with the record key a blob record shows it under", () => {
    expect(BLOB_METADATA_FIELDS.map((f) => f.part)).toEqual(BLOB_FORM_PART_NAMES.filter((p) => p !== "File"));
    const record = blobRecord.parse({
      id: "b1",
      name: "n",
      description: "d",
      record_type: "csv",
      access_tier: "hot",
      tags: ["t"],
    });
    for (const field of BLOB_METADATA_FIELDS) expect(record, field.record).toHaveProperty(field.record);
  });

  it("default a job output's tier to hot", () => {
    expect(DEFAULT_ACCESS_TIER).toBe("hot");
    expect(preprocessingOutputRequest.parse({ name: "out" }).access_tier).toBe("hot");
  });
});
