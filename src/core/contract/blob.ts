import { z } from "zod";
import { timestamp } from "./common.js";
import { RECORD_TYPES, type RecordType } from "../formats/registry.js";
import { normalizeBlobRecord } from "./normalize.js";

// The record types are the format registry's entries, one home for each type's word,
// endings, content type and magic bytes.
export { RECORD_TYPES, type RecordType } from "../formats/registry.js";

export const ACCESS_TIERS = ["hot", "cool", "cold", "archive"] as const;
export type AccessTier = (typeof ACCESS_TIERS)[number];
/** The tier of an upload or a job output that names none. */
export const DEFAULT_ACCESS_TIER: AccessTier = "hot";

/** Case-insensitive on the wire, lower-case once parsed. */
export const recordType = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(RECORD_TYPES, { error: `must be one of ${RECORD_TYPES.join(", ")}` }));

export const accessTier = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(ACCESS_TIERS, { error: `must be one of ${ACCESS_TIERS.join(", ")}` }));

/** The longest blob name (an upload's, an update's, a job output's). */
export const MAX_BLOB_NAME = 256;

/** A tag is a label or `key=value`. */
export const tag = z.string().min(1).max(256);

/**
 * The metadata fields of a blob a user sets, one entry each; a new field starts here
 * (docs/ARCHITECTURE.md, "A blob field").
 * - `option`: what the client and the Session take (BlobMetadataOptions);
 * - `part`: its multipart part, and `form`: the service's rule for it (an optional part
 *   left out is stored as `absent`);
 * - `record`: its key in the record and the stores' column;
 * - `repeats`: the part may be sent more than once (one value each);
 * - `clientDefault`: what the client sends when the caller gave nothing;
 * - `serviceWord`: the option carrying another service's own word for the value;
 * - `fromContent`: it follows what is uploaded (the record type of the bytes), so an
 *   update that leaves it out does not carry the blob's over;
 * - `jobOutput`: a job's output request sets it under its `record` key
 *   (`preprocessingOutputRequest`).
 * The service's form reading, the content the stores write, the client's form and what
 * the Session passes on are made from this list.
 */
export const BLOB_METADATA_FIELDS = [
  {
    option: "name",
    part: "Name",
    record: "name",
    repeats: false,
    form: z
      .string({ error: "is required: the blob's name" })
      .trim()
      .min(1, "must not be empty")
      .max(MAX_BLOB_NAME, `must be at most ${MAX_BLOB_NAME} characters`),
    jobOutput: true,
  },
  {
    option: "description",
    part: "Description",
    record: "description",
    repeats: false,
    form: z.string().max(4096, "must be at most 4096 characters").optional(),
    absent: null,
    jobOutput: true,
  },
  {
    option: "recordType",
    part: "RecordType",
    record: "record_type",
    repeats: false,
    form: z.string({ error: `is required: one of ${RECORD_TYPES.join(", ")}` }).pipe(recordType),
    serviceWord: "recordTypeWord",
    fromContent: true,
    jobOutput: false,
  },
  {
    option: "accessTier",
    part: "AccessTier",
    record: "access_tier",
    repeats: false,
    form: z.string({ error: `is required: one of ${ACCESS_TIERS.join(", ")}` }).pipe(accessTier),
    clientDefault: DEFAULT_ACCESS_TIER,
    serviceWord: "accessTierWord",
    jobOutput: true,
  },
  {
    option: "tags",
    part: "Tags",
    record: "tags",
    repeats: true,
    form: z.array(tag.refine((t) => !/[\r\n]/.test(t), "must be one line")),
    jobOutput: true,
  },
] as const;
export type BlobMetadataField = (typeof BLOB_METADATA_FIELDS)[number];

/**
 * The multipart part names of blob upload and update, spelled exactly as on the wire:
 * `File` and each field's part. `tags` may repeat; `description` and `tags` are optional.
 *
 * @example
 * form.append(BLOB_FORM_PARTS.recordType, "csv");
 */
export const BLOB_FORM_PARTS = {
  file: "File",
  ...Object.fromEntries(BLOB_METADATA_FIELDS.map((f) => [f.option, f.part])),
} as { readonly file: "File" } & { readonly [F in BlobMetadataField as F["option"]]: F["part"] };
export type BlobFormPart = (typeof BLOB_FORM_PARTS)[keyof typeof BLOB_FORM_PARTS];
/** The part names in the order the contract lists them. */
export const BLOB_FORM_PART_NAMES: readonly BlobFormPart[] = Object.values(BLOB_FORM_PARTS);

/**
 * The metadata a user sets on an upload, an update or a job output: one option per
 * entry of BLOB_METADATA_FIELDS, plus the service's own words. The client's
 * BlobMetadata and the Session's BlobMetadataOptions extend it.
 */
export interface BlobFieldOptions {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  /** The format of the stored records: one of RECORD_TYPES (docs/formats.md). */
  readonly recordType?: RecordType | undefined;
  /** Default `hot` (DEFAULT_ACCESS_TIER). */
  readonly accessTier?: AccessTier | undefined;
  /** Labels or `key=value` strings. */
  readonly tags?: readonly string[] | undefined;
  /**
   * The service's own word for the record type, sent instead of `recordType` (which
   * still says how mdps encodes the data): for a service whose vocabulary differs from
   * the reference one, e.g. `{ recordType: "csv", recordTypeWord: "Csv" }`.
   */
  readonly recordTypeWord?: string | undefined;
  /** The service's own word for the access tier, e.g. `Hot`. */
  readonly accessTierWord?: string | undefined;
}

/**
 * A blob record as the client reads it: only the id is required (the interface shows
 * no fields). The reference service sends every field (docs/contract.md#blobs); another
 * may say `blobId`, `recordType`, `sizeBytes`, `createdOn` (see normalizeBlobRecord) and
 * leave the rest out. `record_type` and `access_tier` are the service's words, as sent.
 */
export const blobRecord = z.preprocess(
  normalizeBlobRecord,
  z.looseObject({
    id: z.string().min(1),
    model_id: z.string().optional(),
    name: z.string().optional(),
    description: z.string().nullable().optional(),
    record_type: z.string().optional(),
    access_tier: z.string().optional(),
    tags: z.array(z.string()).default([]),
    content_type: z.string().optional(),
    size_bytes: z.number().int().nonnegative().optional(),
    sha256: z.string().optional(),
    /** The record's own `ETag`/`etag` field, or (added by the client) the answer's `ETag` header. */
    etag: z.string().optional(),
    encrypted: z.boolean().optional(),
    created_at: timestamp.optional(),
    updated_at: timestamp.optional(),
  }),
);
export type BlobRecord = z.infer<typeof blobRecord>;

/** Delete's answer; a service may answer an empty 200 instead. */
export const blobDeleted = z.preprocess(
  (value) => normalizeBlobRecord(value ?? {}),
  z.looseObject({ id: z.string().optional(), deleted: z.boolean().optional() }),
);
export type BlobDeleted = z.infer<typeof blobDeleted>;
/** A blob record as the reference service sends it: every field of docs/contract.md present. */
export type ReferenceBlobRecord = {
  [K in keyof BlobRecord as K extends "etag" ? never : K]-?: Exclude<BlobRecord[K], undefined>;
};
