import { z } from "zod";
import { timestamp } from "./common.js";
import { RECORD_TYPES } from "../formats/registry.js";
import { normalizeBlobRecord } from "./normalize.js";

// The record types are the format registry's entries, one home for each type's word,
// endings, content type and magic bytes.
export { RECORD_TYPES, type RecordType } from "../formats/registry.js";

export const ACCESS_TIERS = ["hot", "cool", "cold", "archive"] as const;
export type AccessTier = (typeof ACCESS_TIERS)[number];
/** The tier of an upload or a job output that names none. */
export const DEFAULT_ACCESS_TIER: AccessTier = "hot";

/**
 * The multipart part names of blob upload and update, spelled exactly as on the wire.
 * `tags` may repeat; `description` and `tags` are optional.
 *
 * @example
 * form.append(BLOB_FORM_PARTS.recordType, "csv");
 */
export const BLOB_FORM_PARTS = {
  file: "File",
  name: "Name",
  description: "Description",
  recordType: "RecordType",
  accessTier: "AccessTier",
  tags: "Tags",
} as const;
export type BlobFormPart = (typeof BLOB_FORM_PARTS)[keyof typeof BLOB_FORM_PARTS];
/** The part names in the order the contract lists them. */
export const BLOB_FORM_PART_NAMES: readonly BlobFormPart[] = Object.values(BLOB_FORM_PARTS);

/**
 * The metadata fields of an upload or update, one entry each: the option the client and
 * the Session take, the multipart part, the record's key, and whether the part may
 * repeat. The client writes its form from this list and the service reads the form with
 * it; a new field starts here.
 */
export const BLOB_METADATA_FIELDS = [
  { option: "name", part: BLOB_FORM_PARTS.name, record: "name", repeats: false },
  { option: "description", part: BLOB_FORM_PARTS.description, record: "description", repeats: false },
  { option: "recordType", part: BLOB_FORM_PARTS.recordType, record: "record_type", repeats: false },
  { option: "accessTier", part: BLOB_FORM_PARTS.accessTier, record: "access_tier", repeats: false },
  { option: "tags", part: BLOB_FORM_PARTS.tags, record: "tags", repeats: true },
] as const;
export type BlobMetadataField = (typeof BLOB_METADATA_FIELDS)[number];

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
