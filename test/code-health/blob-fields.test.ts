/**
 * The blob metadata fields (BLOB_METADATA_FIELDS in src/core/contract/blob.ts) held to
 * what is made from them: each entry complete and unlike the others, the form parts, the
 * stores' columns, a record, a job output's request, the client's form and an update's
 * kept values all following the list, and no other source file writing the fields out
 * again, so a new blob field stays the files docs/ARCHITECTURE.md names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BLOB_FORM_PART_NAMES,
  BLOB_FORM_PARTS,
  BLOB_METADATA_FIELDS,
  DEFAULT_ACCESS_TIER,
  type BlobRecord,
} from "../../src/core/contract/blob.js";
import {
  BLOB_FORM_PARTS_SENTENCE,
  blobFormFields,
  blobFormValues,
  keptBlobFields,
  metadataOfForm,
  metadataOfOutput,
  outputRequestFields,
  pickBlobFields,
} from "../../src/core/contract/blob-fields.js";
import { preprocessingOutputRequest } from "../../src/core/contract/job.js";
import { BLOB_CONTENT_COLUMNS, blobContent, toBlobRecord } from "../../src/server/domain/blobs.js";
import { ROOT, sources } from "./import-graph.js";

const form = {
  Name: " in.csv ",
  Description: "d",
  RecordType: "CSV",
  AccessTier: "Cool",
  Tags: ["a", "k=v"],
};

describe("every blob metadata field", () => {
  it("has an option, a part and a record key of its own, in the spelling of each", () => {
    for (const [key, spelling] of [
      ["option", /^[a-z][A-Za-z]*$/],
      ["part", /^[A-Z][A-Za-z]*$/],
      ["record", /^[a-z][a-z_]*$/],
    ] as const) {
      const names = BLOB_METADATA_FIELDS.map((f) => f[key]);
      expect(new Set(names).size, key).toBe(names.length);
      for (const name of names) expect(name, key).toMatch(spelling);
    }
  });

  it("is a part of the form, after File, in the list's order", () => {
    expect(BLOB_FORM_PARTS).toEqual({
      file: "File",
      ...Object.fromEntries(BLOB_METADATA_FIELDS.map((f) => [f.option, f.part])),
    });
    expect(BLOB_FORM_PART_NAMES).toEqual(["File", ...BLOB_METADATA_FIELDS.map((f) => f.part)]);
    for (const part of BLOB_FORM_PART_NAMES) {
      expect(BLOB_FORM_PARTS_SENTENCE.match(new RegExp(`\\b${part}\\b`, "g"))?.length, part).toBe(1);
    }
  });

  it("is a column both stores write and a key of the record the service answers", () => {
    const metadata = metadataOfForm(blobFormFields.parse(form));
    expect(metadata).toEqual({
      name: "in.csv",
      description: "d",
      record_type: "csv",
      access_tier: "cool",
      tags: ["a", "k=v"],
    });
    expect(BLOB_CONTENT_COLUMNS.slice(0, BLOB_METADATA_FIELDS.length)).toEqual(
      BLOB_METADATA_FIELDS.map((f) => f.record),
    );
    const content = blobContent({
      metadata,
      encrypted: false,
      contentType: "text/csv",
      file: { sizeBytes: 3, sha256: "ab".repeat(32) },
    });
    expect(Object.keys(content)).toEqual(BLOB_CONTENT_COLUMNS);
    const at = "2026-01-01T00:00:00.000Z";
    const record = toBlobRecord({ id: "b", model_id: "m", revision: 2, ...content, created_at: at, updated_at: at });
    for (const f of BLOB_METADATA_FIELDS) expect(record, f.record).toHaveProperty(f.record, content[f.record]);
    expect(record).not.toHaveProperty("revision");
  });

  it("left out of a form, is stored as its record holds nothing (an optional one), or refused (a required one)", () => {
    const least = metadataOfForm(blobFormFields.parse({ Name: "n", RecordType: "json", AccessTier: "hot", Tags: [] }));
    expect(least).toEqual({ name: "n", description: null, record_type: "json", access_tier: "hot", tags: [] });
    const refused = blobFormFields.safeParse({ Tags: [] });
    expect(refused.success).toBe(false);
    const missing = new Set(refused.error?.issues.map((i) => i.path[0]));
    for (const f of BLOB_METADATA_FIELDS) {
      const optional = f.repeats || f.form.safeParse(undefined).success;
      expect(missing.has(f.part), f.part).toBe(!optional);
    }
  });

  it("set by a job output is a key of the output request, and the request has no other field", () => {
    const requestKeys = Object.keys(preprocessingOutputRequest.shape);
    const outputFields = BLOB_METADATA_FIELDS.filter((f) => f.jobOutput).map((f) => f.record);
    for (const key of outputFields) expect(requestKeys).toContain(key);
    // The record type names the format the job writes, and the key encrypts it: not metadata it copies.
    expect(requestKeys.filter((k) => !outputFields.includes(k as never))).toEqual(["record_type", "encryption_key"]);
    const request = preprocessingOutputRequest.parse({ name: "out", tags: ["t"] });
    expect(metadataOfOutput({ requested: request, decided: { record_type: "parquet" } })).toEqual({
      name: "out",
      description: null,
      record_type: "parquet",
      access_tier: DEFAULT_ACCESS_TIER,
      tags: ["t"],
    });
    expect(outputRequestFields({ name: "o", recordType: "csv", tags: ["x"], accessTierWord: "Hot" })).toEqual({
      name: "o",
      tags: ["x"],
    });
  });

  it("is sent by the client: the service's word where given, else the option, else its default", () => {
    const sent = (meta: Parameters<typeof blobFormValues>[0]) =>
      Object.fromEntries(blobFormValues(meta).map(({ field, values }) => [field.part, values]));
    expect(sent({ name: "n", recordType: "csv" })).toEqual({
      Name: ["n"],
      Description: [],
      RecordType: ["csv"],
      AccessTier: [DEFAULT_ACCESS_TIER],
      Tags: [],
    });
    expect(
      sent({
        name: "n",
        description: "d",
        recordType: "csv",
        recordTypeWord: "Csv",
        accessTier: "cold",
        accessTierWord: "Cold",
        tags: ["a", "b"],
      }),
    ).toEqual({ Name: ["n"], Description: ["d"], RecordType: ["Csv"], AccessTier: ["Cold"], Tags: ["a", "b"] });
    expect(pickBlobFields({ name: "n", signal: undefined, encrypt: true } as never)).not.toHaveProperty("encrypt");
  });

  it("left out of an update, keeps the blob's value (the tier in the service's word), except the record type", () => {
    const record: BlobRecord = {
      id: "b",
      name: "old",
      description: "kept",
      record_type: "Csv",
      access_tier: "Cool",
      tags: ["t"],
    };
    expect(keptBlobFields({ given: { tags: ["new"] }, record })).toEqual({
      name: "old",
      description: "kept",
      tags: ["new"],
      accessTierWord: "Cool",
    });
    const kept = keptBlobFields({ given: { accessTier: "hot" }, record: { ...record, description: null } });
    expect(kept).toMatchObject({ accessTier: "hot", description: undefined });
    expect(kept.accessTierWord).toBeUndefined();
    expect(kept.recordType).toBeUndefined();
    expect(kept.recordTypeWord).toBeUndefined();
  });
});

/** A field named as a key (`description:`, `"AccessTier":`, `record_type?:`), in any of its spellings. */
const keyPatterns = BLOB_METADATA_FIELDS.filter((f) => f.option !== "name").map((f) => {
  const spellings = [f.option, f.part, f.record].join("|");
  return [f.option, new RegExp(`(?:^|[\\s{(,])["']?(?:${spellings})["']?\\??\\s*:`)] as const;
});

/**
 * Files that name three or more fields together for another reason than listing the
 * fields, each with it; any other file that does keeps a list the home should give it.
 */
const NOT_FIELD_LISTS = new Map([
  ["src/core/contract/blob.ts", "the home: the list, the options' docs and the record's wire schema"],
  ["src/core/contract/job.ts", "a job output request's wire schema, held to the list's jobOutput entries above"],
  ["src/cli/demo-command.ts", "the demo's own uploads and job output, values it shows"],
  ["src/client/vendor/word-probe.ts", "the doctor's probe upload, values it chose"],
  ["src/session/journal.ts", "what the journal remembers of a blob to list it offline, a chosen few"],
]);
/** Lines read together: an object literal of fields, one a line, fits. */
const WINDOW = 12;
const COMMENT = /^\s*(?:\/\/|\/?\*)/;

describe("the list is written once", () => {
  it("no other source file names three or more blob fields together", () => {
    const found: string[] = [];
    for (const file of [...sources("src"), ...sources("repl")]) {
      if (NOT_FIELD_LISTS.has(file)) continue;
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      for (let i = 0; i < lines.length; i++) {
        if (!keyPatterns.some(([, p]) => p.test(lines[i]!))) continue;
        const code = lines
          .slice(i, i + WINDOW)
          .filter((l) => !COMMENT.test(l))
          .join("\n");
        const named = keyPatterns.filter(([, p]) => p.test(code)).map(([option]) => option);
        if (named.length >= 3) {
          found.push(`${file}:${i + 1}: ${named.join(", ")}`);
          i += WINDOW - 1;
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("would see a list written again", () => {
    const copy = 'const sent = {\n  description: d,\n  "AccessTier": t,\n  record_type: r,\n};';
    expect(keyPatterns.filter(([, p]) => p.test(copy)).map(([o]) => o)).toEqual([
      "description",
      "recordType",
      "accessTier",
    ]);
  });
});
