/**
 * What is made from BLOB_METADATA_FIELDS (blob.ts): the service's form schema, the
 * record's metadata of a form or a job output, the values the client sends and what an
 * update keeps. Nothing here names a field, so a new one is an entry there only.
 */
import { z } from "zod";
import {
  BLOB_FORM_PARTS,
  BLOB_METADATA_FIELDS,
  type BlobFieldOptions,
  type BlobMetadataField,
  type BlobRecord,
} from "./blob.js";

type FormShape = { [F in BlobMetadataField as F["part"]]: F["form"] };

/** The metadata parts of an upload or update, by part name, as the service checks them. */
export const blobFormFields = z.object(
  Object.fromEntries(BLOB_METADATA_FIELDS.map((f) => [f.part, f.form])) as FormShape,
);
export type BlobFormFields = z.output<typeof blobFormFields>;

const OPTIONAL_PARTS: readonly string[] = BLOB_METADATA_FIELDS.filter(
  (f) => f.repeats || f.form.safeParse(undefined).success,
).map((f) => f.part);
const REQUIRED_PARTS = [BLOB_FORM_PARTS.file, ...BLOB_METADATA_FIELDS.map((f) => f.part)].filter(
  (p) => !OPTIONAL_PARTS.includes(p),
);
const andList = (items: readonly string[]) =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
/** "the parts File, Name, RecordType and AccessTier (Description and Tags optional)": for messages. */
export const BLOB_FORM_PARTS_SENTENCE = `the parts ${andList(REQUIRED_PARTS)} (${andList(OPTIONAL_PARTS)} optional)`;

type Stored<F extends BlobMetadataField> = F extends { readonly absent: null }
  ? Exclude<z.input<F["form"]>, undefined> | null
  : z.input<F["form"]>;

/** A blob's metadata as its record and the stores hold it, by record key. */
export type BlobMetadataRecord = { -readonly [F in BlobMetadataField as F["record"]]: Stored<F> };

type OutputKey = Extract<BlobMetadataField, { readonly jobOutput: true }>["record"];
/** What a job output request sets (its `record` keys); an optional one left out is its `absent`. */
export type RequestedOutputMetadata = { readonly [K in OutputKey]?: Exclude<BlobMetadataRecord[K], null> | undefined };
/** What the job decides itself (the record type it wrote). */
export type DecidedOutputMetadata = Omit<BlobMetadataRecord, OutputKey>;

function absentOf(field: BlobMetadataField): null | undefined {
  return "absent" in field ? field.absent : undefined;
}

function byRecordKey(
  value: (field: BlobMetadataField) => unknown,
  fields: readonly BlobMetadataField[] = BLOB_METADATA_FIELDS,
): BlobMetadataRecord {
  return Object.fromEntries(fields.map((f) => [f.record, value(f) ?? absentOf(f)])) as BlobMetadataRecord;
}

/** The record's metadata of a form the service read. */
export function metadataOfForm(fields: BlobFormFields): BlobMetadataRecord {
  return byRecordKey((f) => fields[f.part]);
}

/** The record's metadata of a job output: what its request sets, and what the job decided. */
export function metadataOfOutput(options: {
  requested: RequestedOutputMetadata;
  decided: DecidedOutputMetadata;
}): BlobMetadataRecord {
  const requested = byRecordKey(
    (f) => options.requested[f.record as OutputKey],
    BLOB_METADATA_FIELDS.filter((f) => f.jobOutput),
  );
  return { ...requested, ...options.decided };
}

/**
 * What a job output request says of the fields a job output sets, by record key: only
 * those given (the service fills in the rest).
 */
export function outputRequestFields(options: BlobFieldOptions): RequestedOutputMetadata {
  return Object.fromEntries(
    BLOB_METADATA_FIELDS.filter((f) => f.jobOutput && options[f.option] !== undefined).map((f) => {
      const value = options[f.option];
      return [f.record, Array.isArray(value) ? [...(value as readonly string[])] : value];
    }),
  );
}

/**
 * The values the client sends per field, in the list's order: the service's own word
 * where given, else the option, else the field's default; none for a field left out.
 */
export function blobFormValues(
  meta: BlobFieldOptions,
): ReadonlyArray<{ readonly field: BlobMetadataField; readonly values: readonly string[] }> {
  return BLOB_METADATA_FIELDS.map((field) => {
    const value =
      ("serviceWord" in field ? meta[field.serviceWord] : undefined) ??
      meta[field.option] ??
      ("clientDefault" in field ? field.clientDefault : undefined);
    return { field, values: value === undefined ? [] : typeof value === "string" ? [value] : value };
  });
}

/** The options of BlobFieldOptions in `options` (which may hold others: a call's, a read's). */
export function pickBlobFields(options: BlobFieldOptions): BlobFieldOptions {
  const picked: Record<string, unknown> = {};
  for (const field of BLOB_METADATA_FIELDS) {
    picked[field.option] = options[field.option];
    if ("serviceWord" in field) picked[field.serviceWord] = options[field.serviceWord];
  }
  return picked;
}

/**
 * What an update sends for what its caller left out: the blob's own values (a field
 * with a service word keeps it in the service's word, as the record says it), except
 * what follows the new content (its record type).
 */
export function keptBlobFields(options: { given: BlobFieldOptions; record: BlobRecord }): BlobFieldOptions {
  const { given, record } = options;
  const kept: Record<string, unknown> = { ...pickBlobFields(given) };
  for (const field of BLOB_METADATA_FIELDS) {
    if ("fromContent" in field || given[field.option] !== undefined) continue;
    const held = (record as Record<string, unknown>)[field.record] ?? undefined;
    if (!("serviceWord" in field)) kept[field.option] = held;
    else kept[field.serviceWord] ??= held;
  }
  return kept;
}
