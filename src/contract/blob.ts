import { z } from "zod";
import { timestamp, uuid } from "./common.js";

export const RECORD_TYPES = ["csv", "json", "arrow"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

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

/** Case-insensitive on the wire, lower-case once parsed. */
export const recordType = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(RECORD_TYPES, { error: `must be one of ${RECORD_TYPES.join(", ")}` }));

export const accessTier = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(ACCESS_TIERS, { error: `must be one of ${ACCESS_TIERS.join(", ")}` }));

/** A tag is a label or `key=value`. */
export const tag = z.string().min(1).max(256);

export const blobRecord = z.looseObject({
  id: uuid,
  model_id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  record_type: z.string(),
  access_tier: z.string(),
  tags: z.array(z.string()),
  content_type: z.string(),
  size_bytes: z.number().int().nonnegative(),
  sha256: z.string(),
  encrypted: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type BlobRecord = z.infer<typeof blobRecord>;

export const blobDeleted = z.looseObject({ id: uuid, deleted: z.literal(true) });
export type BlobDeleted = z.infer<typeof blobDeleted>;

export const CONTENT_TYPES: Record<RecordType, string> = {
  csv: "text/csv",
  json: "application/json",
  arrow: "application/vnd.apache.arrow.file",
};
