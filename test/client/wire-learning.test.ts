/**
 * The pure parts of learning a service's wire choices and riding out its transient answers:
 * reading OpenAPI documents (springdoc, Swashbuckle), the retry rule for refused writes, the
 * grace of a just-sent job, gzip outputs, the id of an unreadable write answer.
 */
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { NotFoundError } from "../../src/client/errors.js";
import { JobVisibility } from "../../src/client/job-visibility.js";
import { emptyLearned, partsInCasingOf, spellingOf } from "../../src/client/vendor/learned-profile.js";
import { readOpenApi } from "../../src/client/vendor/openapi-reading.js";
import { shouldRetryStatus } from "../../src/client/retry-timing.js";
import { unreadableAnswer, writtenIdOf } from "../../src/client/unreadable-answer.js";
import { describeFacts } from "../../src/client/vendor/wire-facts.js";
import { decompressed, readOutputTable } from "../../src/session/output-encoding.js";
import { openApiDocument } from "../foreign-service/openapi.js";
import { resolveSettings } from "../foreign-service/switches.js";
import { springVendor } from "../foreign-service/spring-vendor.js";

const notFound = () => new NotFoundError({ status: 404, code: "not_found", message: "job x not found" });

describe("reading an OpenAPI document", () => {
  it("springdoc's: camelCase parts, uppercase enums, camelCase parameters, the job type word", () => {
    const learned = emptyLearned();
    readOpenApi(openApiDocument(resolveSettings(springVendor({ openApi: true }))), "http://x/v3/api-docs", learned);
    expect(learned.values).toEqual({
      form_parts: {
        file: "file",
        name: "name",
        recordType: "recordType",
        accessTier: "accessTier",
        description: "description",
        tags: "tags",
      },
      record_types: { csv: "CSV" },
      access_tiers: { hot: "HOT", cool: "COOL", archive: "ARCHIVE" },
      param_spelling: "camelCase",
      job_types: { preprocessing: "PREPROCESSING" },
    });
    expect(learned.from.form_parts).toBe("OpenAPI http://x/v3/api-docs (the upload's form)");
    expect(learned.notes.join()).toContain("times: epoch numbers");
  });

  it("Swashbuckle's Swagger 2 form parameters in the interface's names: settled as mdps's defaults", () => {
    const learned = emptyLearned();
    const doc = {
      swagger: "2.0",
      paths: {
        "/api/model/{modelId}/shared/blob/upload": {
          post: {
            parameters: [
              { in: "formData", name: "File", type: "file" },
              { in: "formData", name: "Name", type: "string" },
              { in: "formData", name: "RecordType", type: "string", enum: ["Csv", "Json"] },
              { in: "formData", name: "AccessTier", type: "string", enum: ["Hot", "Cool"] },
            ],
          },
        },
      },
    };
    readOpenApi(doc, "http://x/swagger/v1/swagger.json", learned);
    // The file part is found by its name here (Swagger 2 has no format: binary on formData).
    expect(learned.values.form_parts).toBeUndefined();
    expect(learned.from.form_parts).toContain("swagger.json");
    expect(learned.values.record_types).toEqual({ csv: "Csv", json: "Json" });
    expect(learned.values.access_tiers).toEqual({ hot: "Hot", cool: "Cool" });
    expect(learned.from.param_spelling).toBeUndefined(); // the document does not show them: left for the probes
  });

  it("part casing and parameter spelling from a few names", () => {
    expect(partsInCasingOf("file").recordType).toBe("recordType");
    expect(partsInCasingOf("File").recordType).toBe("RecordType");
    expect(partsInCasingOf("upload")).toEqual({ file: "upload" });
    expect(spellingOf(["withMean", "copy"])).toBe("camelCase");
    expect(spellingOf(["with_mean"])).toBe("snake_case");
    expect(spellingOf(["copy", "fooBar"])).toBeUndefined();
  });

  it("describe lists every fact with its source", () => {
    const facts = describeFacts({ formParts: { file: "file" }, learnedFrom: { form_parts: "OpenAPI u" } });
    expect(facts.find((f) => f.assumption === "blob form part names")).toEqual({
      assumption: "blob form part names",
      value: "file -> file",
      from: "learned from OpenAPI u",
    });
    expect(facts.find((f) => f.assumption === "parameter spelling")?.from).toBe("the default");
    expect(facts.find((f) => f.assumption === "times and ids")?.from).toBe("read by meaning");
  });
});

describe("transient is not fatal", () => {
  it("a write is sent again only on 429, or 503 with Retry-After where allowed", () => {
    const refusal = { retryAfter: true, retryRefused: true };
    expect(shouldRetryStatus(503, false, refusal)).toBe(true);
    expect(shouldRetryStatus(503, false, { ...refusal, retryAfter: false })).toBe(false);
    expect(shouldRetryStatus(503, false, { ...refusal, retryRefused: false })).toBe(false);
    for (const s of [502, 504, 500]) expect(shouldRetryStatus(s, false, refusal)).toBe(false);
    expect(shouldRetryStatus(429, false)).toBe(true);
  });

  it("a just-sent job's 404 is read again within the grace, then named with its setting", async () => {
    let now = 0;
    const visibility = new JobVisibility({ graceMs: 1_000, now: () => now });
    visibility.sent("j1");
    let reads = 0;
    const appears = await visibility.read("j1", () => {
      reads += 1;
      now += 300;
      return reads < 3 ? Promise.reject(notFound()) : Promise.resolve("record");
    });
    expect(appears).toBe("record");
    expect(reads).toBe(3);

    const never = visibility.read("j1", () => {
      now += 300;
      return Promise.reject(notFound());
    });
    await expect(never).rejects.toThrow(/acknowledged job j1, but still answers 404 for it 1\.0 s after the send/);
    await expect(never).rejects.toThrow(/job_visible_grace_ms/);
  });

  it("a 404 of a job this client did not send, or another error, is not waited on", async () => {
    const visibility = new JobVisibility({ graceMs: 60_000 });
    let reads = 0;
    await expect(
      visibility.read("unknown", () => {
        reads += 1;
        return Promise.reject(notFound());
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    visibility.sent("j2");
    await expect(
      visibility.read("j2", () => {
        reads += 1;
        return Promise.reject(new Error("boom"));
      }),
    ).rejects.toThrow("boom");
    expect(reads).toBe(2);
  });
});

function chunks(...parts: Uint8Array[]): AsyncIterable<Uint8Array> {
  return Readable.from(parts.map((p) => Buffer.from(p)));
}

describe("outputs", () => {
  it("gzip is decompressed by its magic bytes, even split over one-byte chunks", async () => {
    const zipped = gzipSync(Buffer.from("a,b\n1,2\n"));
    const decoded = await decompressed(chunks(zipped.subarray(0, 1), zipped.subarray(1)));
    expect(decoded.encoding).toBe("gzip");
    const table = await readOutputTable({ body: chunks(zipped), known: "csv", options: {} });
    expect(table.columns.map((c) => c.name)).toEqual(["a", "b"]);
    const plain = await decompressed(chunks(Buffer.from("a\n1\n")));
    expect(plain.encoding).toBeUndefined();
  });

  it("a format error names what mdps read the bytes as and the first bytes it saw", async () => {
    const bytes = Buffer.from([0x61, 0x0a, 0xff, 0xfe, 0x0a]);
    await expect(readOutputTable({ body: chunks(bytes), known: "csv", options: {} })).rejects.toThrow(
      /mdps read it as csv; its first bytes were 61 0a ff fe 0a/,
    );
  });
});

describe("an answer mdps cannot read", () => {
  it("of a write still gives the id the service holds it as", () => {
    const error = z.object({ id: z.string(), size: z.number() }).safeParse({ blobId: 17, size: "big" }).error!;
    const written = unreadableAnswer({
      call: "POST /upload",
      method: "POST",
      status: 200,
      requestId: undefined,
      body: { blobId: 17, size: "big" },
      error,
    });
    expect(written.writtenId).toBe("17");
    expect(written.message).toContain("the service holds it as 17");
    expect(written.message).toContain("Do not send it again");
    const read = unreadableAnswer({
      call: "GET /x",
      method: "GET",
      status: 200,
      requestId: undefined,
      body: {},
      error,
    });
    expect(read.writtenId).toBeUndefined();
    expect(writtenIdOf({ JobId: "j" })).toBe("j");
    expect(writtenIdOf("text")).toBeUndefined();
  });
});
