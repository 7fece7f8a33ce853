import { Readable } from "node:stream";
import { visible } from "../core/text/visible-text.js";
import { inspect } from "node:util";
import { RECORD_TYPES, type BlobFieldOptions, type BlobRecord, type RecordType } from "../core/contract/blob.js";
import { keptBlobFields, pickBlobFields } from "../core/contract/blob-fields.js";
import { ConfigError } from "../client/errors.js";
import { Secret } from "../client/secret.js";
import type { CallOptions } from "../client/transport.js";
import type { Table } from "../core/formats/table.js";
import {
  decrypted,
  encrypted,
  loadDanfo,
  recordTypeOfPath,
  toDataFrame,
  uploadSource,
  type DataFrame,
  type DecodeOptions,
  type FrameShape,
  type FrameSizeCheck,
  type Uploadable,
} from "./table-io.js";
import { generateEncryptionKey, parseEncryptionKey } from "../core/crypto/index.js";
import { RichValue } from "./presentation/rich-value.js";
import { presentation } from "./presentation/registry.js";
import { stoppableByKernel } from "./kernel-stoppable.js";
import { readOutputTable } from "./output-encoding.js";
import { PreparedUpload, type ReadOptions } from "./prepared-input.js";
import type { ServiceProfile } from "../client/vendor/service-profile.js";
import type { SessionContext } from "./session-context.js";

/**
 * The metadata of a blob the session stores: an upload, an update, a job output.
 * Everything optional; each use says its defaults (UploadOptions, OutputOptions).
 */
export interface BlobMetadataOptions extends BlobFieldOptions {
  /**
   * Encrypt on this machine: `true` generates a key, a string is a key (32 bytes,
   * base64). The key stays on the Blob handle (`blob.encryptionKey`).
   */
  readonly encrypt?: boolean | string | Secret | undefined;
}

/**
 * Metadata of an upload or update. Defaults: `name` the file's name, or
 * `dataframe-<time>`; `recordType` from the path's extension, sniffed from bytes, or the
 * session's wire format for a DataFrame; not encrypted (an update keeps the blob's key).
 */
export interface UploadOptions extends BlobMetadataOptions, CallOptions, ReadOptions {}

/** Where a Blob handle's bytes come from when not the blob download endpoint. */
export interface BlobSource {
  /** An absolute download URL a job result gave instead of a blob record. */
  readonly downloadUrl?: string | undefined;
  /** The format the data is in, when the record does not say (e.g. a job output's requested type). */
  readonly recordType?: RecordType | undefined;
}

/**
 * A handle on one stored blob: its record, the key when it was encrypted here, and
 * the shape of the DataFrame it came from (to restore dtypes after a job).
 */
export class Blob extends RichValue {
  readonly #ctx: SessionContext;
  #record: BlobRecord;
  #key: Secret | undefined;
  #shape: FrameShape | undefined;
  #deleted = false;
  readonly #source: BlobSource;

  constructor(ctx: SessionContext, record: BlobRecord, key?: Secret, shape?: FrameShape, source: BlobSource = {}) {
    super();
    this.#ctx = ctx;
    this.#record = record;
    this.#key = key;
    this.#shape = shape;
    this.#source = source;
  }

  /** Uploads and returns the handle; used by `session.upload`. */
  static async upload(
    ctx: SessionContext,
    data: Uploadable | PreparedUpload,
    options: UploadOptions = {},
  ): Promise<Blob> {
    const source =
      data instanceof PreparedUpload ? data.source : await uploadSource(data, options.recordType, ctx.wireFormat);
    const key = keyOf(options.encrypt);
    const name = options.name ?? source.suggestedName ?? `dataframe-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    const record = await stoppableByKernel(
      {
        doing: `uploading "${name}"`,
        then: "The service keeps nothing of an upload it did not receive whole: upload again.",
      },
      options.signal,
      (signal) =>
        ctx.client.blobs.upload(
          {
            ...pickBlobFields(options),
            name,
            recordType: source.recordType,
            ...serviceWords(ctx.profile, { ...options, recordType: source.recordType }),
          },
          key ? encrypted(source.open, key) : source.open,
          { signal, timeoutMs: options.timeoutMs },
        ),
    );
    // A service that does not echo the record type still stores what was sent.
    return new Blob(ctx, record, key, source.shape, { recordType: source.recordType });
  }

  get id(): string {
    return this.#record.id;
  }
  /** The blob's name; its id when the service reports no name. */
  get name(): string {
    return this.#record.name ?? this.#record.id;
  }
  /**
   * The format of the stored records: the record's `record_type` read case-insensitively
   * (`Csv` is csv), else what this handle knows it sent, else the name's extension, else
   * csv (a download then still sniffs the bytes).
   */
  get recordType(): RecordType {
    return this.#knownRecordType() ?? "csv";
  }
  #knownRecordType(): RecordType | undefined {
    const sent = this.#record.record_type;
    const mapped = sent === undefined ? undefined : this.#ctx.profile.recordTypeOf(sent);
    if (mapped !== undefined) return mapped;
    const word = sent?.toLowerCase();
    if (word !== undefined && (RECORD_TYPES as readonly string[]).includes(word)) return word as RecordType;
    return this.#source.recordType ?? recordTypeOfPath(this.#record.name ?? "");
  }
  /**
   * Sent as `If-Match` by `update`: the ETag the service last gave this handle (a record's
   * `ETag`/`etag` field, or the `ETag` header of an upload, update or whole download),
   * else the record's sha256; undefined when the service reports none.
   */
  get etag(): string | undefined {
    return this.#record.etag ?? this.#record.sha256;
  }
  get record(): BlobRecord {
    return this.#record;
  }
  /** As the record says; when it says nothing, whether this handle holds a key (it encrypted the upload). */
  get encrypted(): boolean {
    return this.#record.encrypted ?? this.#key !== undefined;
  }
  get deleted(): boolean {
    return this.#deleted;
  }
  /** The key this blob was encrypted with; `.reveal()` to save it somewhere safe. */
  get encryptionKey(): Secret | undefined {
    return this.#key;
  }
  /** Column order and dtypes of the DataFrame it was made from, if any. */
  get shape(): FrameShape | undefined {
    return this.#shape;
  }

  /** Attaches a key (for a blob encrypted elsewhere) and returns this handle. */
  withKey(key: string | Secret): this {
    this.#key = keyOf(key);
    return this;
  }

  /**
   * The stored content as a stream, decrypted with the handle's key. The download stops
   * with an error past the record's size and past `deadlineMs` (default: two minutes
   * plus a second per 256 KiB).
   */
  async stream(options: CallOptions & { range?: string } = {}): Promise<Readable> {
    if (this.encrypted && this.#key === undefined) {
      throw new ConfigError(
        `Blob ${this.id} is encrypted and this handle has no key. Call blob.withKey(key) with the key it was uploaded with.`,
        ["encryptionKey"],
      );
    }
    const url = this.#source.downloadUrl;
    // No more than the record says is stored (a service sending more is stopped there).
    const limited = { ...options, maxBytes: this.record.size_bytes };
    const res = url
      ? await this.#ctx.client.blobs.downloadFrom(url, limited)
      : await this.#ctx.client.blobs.download(this.id, limited);
    // The content as it is now: a later update is checked against this version.
    const etag = res.headers.etag;
    if (etag !== undefined && options.range === undefined && res.status === 200)
      this.#record = { ...this.#record, etag };
    return decrypted(res.body, this.encrypted ? this.#key : undefined);
  }

  /** The whole content in memory (decrypted). */
  async bytes(options: CallOptions = {}): Promise<Uint8Array> {
    return this.#downloading(options.signal, async (signal) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await this.stream({ ...options, signal })) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    });
  }

  /** The content as a columnar Table. */
  async table(options: CallOptions & DecodeOptions = {}): Promise<Table> {
    return this.#downloading(options.signal, async (signal) => {
      const body = await this.stream({ ...options, signal });
      return readOutputTable({ body, known: this.#knownRecordType(), options });
    });
  }

  #downloading<T>(signal: AbortSignal | undefined, read: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    return stoppableByKernel(
      { doing: `downloading blob ${this.id}`, then: "Nothing changed on the service: call it again to download." },
      signal,
      read,
    );
  }

  /** The content as a danfo DataFrame (dtypes of the source DataFrame restored when known). */
  async download(options: CallOptions & DecodeOptions = {}, check?: FrameSizeCheck): Promise<DataFrame> {
    const shape = this.#shape;
    const [table, danfo] = await Promise.all([this.table({ columns: shape?.columns, ...options }), loadDanfo()]);
    return toDataFrame(danfo, table, { dtypes: options.dtypes ?? shape?.dtypes }, check ?? this.#sizeCheck());
  }

  #sizeCheck(): FrameSizeCheck {
    return {
      what: `Blob ${this.name}`,
      instead: `Read it with blob.table() (columnar) or blob.stream(), or give Node more heap: node --max-old-space-size=<MiB>.`,
    };
  }

  /**
   * Replaces content and metadata, only if nobody changed the blob since this handle
   * saw it (If-Match with its etag): else a PreconditionFailedError. An encrypted blob
   * stays encrypted with its key unless `encrypt` says otherwise.
   */
  async update(data: Uploadable, options: UploadOptions & { force?: boolean } = {}): Promise<this> {
    const source = await uploadSource(data, options.recordType ?? this.recordType, this.#ctx.wireFormat);
    const key = options.encrypt === undefined ? this.#key : keyOf(options.encrypt);
    // What the caller left out stays as the blob has it (the tier in the service's own word).
    const kept = keptBlobFields({ given: options, record: this.#record });
    const record = await stoppableByKernel(
      {
        doing: `updating blob ${this.id}`,
        then: "The blob keeps its earlier content unless the service had received the new one whole: update again.",
      },
      options.signal,
      (signal) =>
        this.#ctx.client.blobs.update(
          this.id,
          {
            ...kept,
            name: options.name ?? this.name,
            recordType: source.recordType,
            ...serviceWords(this.#ctx.profile, { ...kept, recordType: source.recordType }),
          },
          key ? encrypted(source.open, key) : source.open,
          { ifMatch: options.force ? undefined : this.etag, signal, timeoutMs: options.timeoutMs },
        ),
    );
    this.#record = record;
    this.#key = key;
    this.#shape = source.shape ?? this.#shape;
    return this;
  }

  async delete(options: CallOptions = {}): Promise<void> {
    await this.#ctx.client.blobs.delete(this.id, options);
    this.#deleted = true;
    this.#ctx.forget(this.id);
  }

  toJSON(): Record<string, unknown> {
    const r = this.#record;
    return {
      id: r.id,
      name: r.name,
      record_type: r.record_type,
      size_bytes: r.size_bytes,
      encrypted: r.encrypted,
      encryption_key: this.#key ? "***" : undefined,
      sha256: r.sha256,
      created_at: r.created_at,
      deleted: this.#deleted || undefined,
    };
  }

  toString(): string {
    // The name is anyone's with the upload scope: control characters shown, never acted on.
    return `Blob(${visible(String(this.#record.name))}, ${visible(this.#record.id)})`;
  }

  /** Compact HTML for notebooks: name, short id, format, size, tags, 🔒; never the key. */
  toHTML(): string {
    return presentation().html.blob(this.#record);
  }

  protected override inspectedText(): string {
    return `Blob ${inspect(this.toJSON())}`;
  }
}

/** The key to encrypt with, checked now so a bad key fails before any upload starts. */
export function keyOf(encrypt: UploadOptions["encrypt"]): Secret | undefined {
  if (encrypt === undefined || encrypt === false) return undefined;
  const key =
    encrypt === true
      ? new Secret(generateEncryptionKey())
      : typeof encrypt === "string"
        ? new Secret(encrypt)
        : encrypt;
  parseEncryptionKey(key.reveal());
  return key;
}

/**
 * The words an upload or update sends for its record type and access tier: the
 * profile's rule (`ServiceProfile.wordsFor`); without a profile the caller's own words,
 * else nothing (the client sends mdps's words).
 */
export function serviceWords(
  profile: ServiceProfile | undefined,
  options: BlobMetadataOptions & { readonly recordType: RecordType },
): { recordTypeWord: string | undefined; accessTierWord: string | undefined } {
  return (
    profile?.wordsFor(options) ?? { recordTypeWord: options.recordTypeWord, accessTierWord: options.accessTierWord }
  );
}
