import {
  BLOB_FORM_PARTS as P,
  type BlobFieldOptions,
  blobDeleted,
  blobRecord,
  DEFAULT_ACCESS_TIER,
  type BlobDeleted,
  type BlobRecord,
  type RecordType,
} from "../core/contract/blob.js";
import type { z } from "zod";
import { blobFormValues } from "../core/contract/blob-fields.js";
import { formatOf } from "../core/formats/registry.js";
import { blobList, type BlobList, type BlobListOptions } from "../core/contract/listing.js";
import type { Capabilities } from "./capabilities.js";
import { APIError } from "./errors.js";
import { listUnsupported } from "./jobs.js";
import { explainWordRefusal, type SentWords } from "./vendor/vendor-words.js";
import { multipartBody, newBoundary, type FileSource } from "./multipart.js";
import type { TokenCache } from "./token-cache.js";
import type { CallOptions, RequestSpec, StreamResponse, Transport } from "./transport.js";
import type { TransferLimits } from "./bounded-body.js";
import type { FormField } from "./vendor/service-settings.js";

/** The service's part names by mdps's field name, where they are not the interface's. */
export type FormParts = Readonly<Partial<Record<FormField, string>>>;

/** The profile's facts an upload needs, read at each call (a reloaded profile reaches a running client). */
export interface BlobProfile {
  readonly formParts?: (() => FormParts | undefined) | undefined;
  /** Whether an upload answered 503 with `Retry-After` is sent again; default yes. */
  readonly retryRefused?: (() => boolean) | undefined;
}

/** The metadata parts of an upload or update (each option: BlobFieldOptions). */
export interface BlobMetadata extends BlobFieldOptions {
  readonly name: string;
  readonly recordType: RecordType;
}

/**
 * The file: bytes, or a factory of a fresh stream each time it is called (so an
 * idempotent update can be retried without holding the file in memory).
 */
export type BlobContent = Uint8Array | (() => FileSource);

export interface DownloadOptions extends CallOptions, TransferLimits {
  /** A `Range` header value, e.g. `bytes=0-1023`. */
  readonly range?: string | undefined;
}

export interface UpdateOptions extends CallOptions {
  /** Only replace if the blob's ETag (its record's `etag`, else its sha256) still matches: else 412. */
  readonly ifMatch?: string | undefined;
}

/** Blob endpoints of one model: /api/model/{modelId}/shared/blob/... */
export class BlobsResource {
  readonly #transport: Transport;
  readonly #tokens: TokenCache;
  readonly #base: string;
  readonly #capabilities: Capabilities | undefined;
  readonly #formParts: () => FormParts | undefined;
  readonly #retryRefused: () => boolean;

  constructor(
    transport: Transport,
    tokens: TokenCache,
    baseUrl: string,
    modelId: string,
    capabilities?: Capabilities,
    profile: BlobProfile = {},
  ) {
    this.#transport = transport;
    this.#tokens = tokens;
    this.#base = `${baseUrl}/api/model/${modelId}/shared/blob`;
    this.#capabilities = capabilities;
    this.#formParts = profile.formParts ?? (() => undefined);
    this.#retryRefused = profile.retryRefused ?? (() => true);
  }

  /**
   * GET .../{blobId} (an extension: docs/contract.md#blob-metadata): the blob's
   * record without its bytes. Scope `shared.blob.read`.
   */
  async get(blobId: string, options: CallOptions = {}): Promise<BlobRecord> {
    // A 404 here is a missing blob (NotFoundError), not a missing extension.
    const url = `${this.#base}/${encodeURIComponent(blobId)}`;
    return this.#extension(url, "a blob's record", {}, blobRecord, options, false);
  }

  /**
   * GET .../shared/blobs (an extension: docs/contract.md#blob-metadata): a page of
   * the model's blobs, newest first; `next_cursor` (null on the last page) asks for the
   * next. `limit` 1..1000 (service default 100); `tag` and `name` match exactly. Throws
   * UnsupportedExtensionError when the service does not declare `blob-list` in health's
   * capabilities or answers 404/405 without declaring it.
   */
  async list(options: BlobListOptions & CallOptions = {}): Promise<BlobList> {
    const { limit, cursor, tag, name, ...call } = options;
    return this.#extension(`${this.#base}s`, "the blob list", { limit, cursor, tag, name }, blobList, call, true);
  }

  async #extension<S extends z.ZodType>(
    url: string,
    what: string,
    query: Record<string, string | number | undefined>,
    schema: S,
    options: CallOptions,
    notFoundIsUnsupported: boolean,
  ): Promise<z.output<S>> {
    const answer = this.#capabilities ? await this.#capabilities.check("blob-list", options) : "unknown";
    if (answer === "absent")
      throw listUnsupported("blob-list", what, url, "does not declare blob-list in health's capabilities");
    try {
      return await this.#transport.json(
        { method: "GET", url, query, idempotent: true, tokens: this.#tokens, ...options },
        schema,
      );
    } catch (error) {
      const unsupported =
        error instanceof APIError &&
        (error.status === 405 || (error.status === 404 && answer === "unknown" && notFoundIsUnsupported));
      if (unsupported) {
        throw listUnsupported(
          "blob-list",
          what,
          url,
          `answered ${error.status} to GET ${new URL(url).pathname}`,
          error,
        );
      }
      throw error;
    }
  }

  /**
   * POST .../upload. Not retried on 5xx (a retry could store the blob twice); a 429
   * or a refused connection is retried, as nothing was stored.
   */
  async upload(meta: BlobMetadata, content: BlobContent, options: CallOptions = {}): Promise<BlobRecord> {
    try {
      return await this.#withEtag({
        method: "POST",
        url: `${this.#base}/upload`,
        idempotent: false,
        retryRefused: this.#retryRefused(),
        ...this.#multipart(meta, content),
        ...options,
      });
    } catch (error) {
      throw explainWordRefusal(error, sentWords(meta));
    }
  }

  /**
   * The blob record of an upload or update, with the answer's `ETag` header as its
   * `etag` when the record has none of its own (a service may say it only there).
   */
  async #withEtag(spec: RequestSpec): Promise<BlobRecord> {
    let header: string | undefined;
    const record = await this.#transport.json(
      {
        ...spec,
        onHeaders: (headers) => {
          header = headers.etag;
        },
      },
      blobRecord,
    );
    return header !== undefined && record.etag === undefined ? { ...record, etag: header } : record;
  }

  /** PUT .../{blobId}/update: replaces content and metadata at once. */
  async update(
    blobId: string,
    meta: BlobMetadata,
    content: BlobContent,
    options: UpdateOptions = {},
  ): Promise<BlobRecord> {
    const { ifMatch, ...call } = options;
    const multipart = this.#multipart(meta, content);
    try {
      return await this.#withEtag({
        method: "PUT",
        url: `${this.#base}/${encodeURIComponent(blobId)}/update`,
        idempotent: true,
        ...multipart,
        headers: { ...multipart.headers, ...(ifMatch ? { "if-match": quoteEtag(ifMatch) } : {}) },
        ...call,
      });
    } catch (error) {
      throw explainWordRefusal(error, sentWords(meta));
    }
  }

  /** GET .../{blobId}/download: the stored bytes as a stream (still encrypted if they were). */
  async download(blobId: string, options: DownloadOptions = {}): Promise<StreamResponse> {
    const { range, ...call } = options;
    return this.#transport.stream({
      method: "GET",
      url: `${this.#base}/${encodeURIComponent(blobId)}/download`,
      headers: { accept: "*/*", ...(range ? { range } : {}) },
      idempotent: true,
      tokens: this.#tokens,
      ...call,
    });
  }

  /**
   * GET an absolute download URL a job result gave (a signed link, perhaps on another
   * host). The bearer token goes only to the model API's own origin, never elsewhere.
   */
  async downloadFrom(url: string, options: DownloadOptions = {}): Promise<StreamResponse> {
    const { range, ...call } = options;
    const sameOrigin = new URL(url).origin === new URL(this.#base).origin;
    return this.#transport.stream({
      method: "GET",
      url,
      headers: { accept: "*/*", ...(range ? { range } : {}) },
      idempotent: true,
      tokens: sameOrigin ? this.#tokens : undefined,
      ...call,
    });
  }

  /** DELETE .../{blobId}/delete. */
  async delete(blobId: string, options: CallOptions = {}): Promise<BlobDeleted> {
    return this.#transport.json(
      {
        method: "DELETE",
        url: `${this.#base}/${encodeURIComponent(blobId)}/delete`,
        idempotent: true,
        tokens: this.#tokens,
        ...options,
      },
      blobDeleted,
    );
  }

  #multipart(meta: BlobMetadata, content: BlobContent) {
    // The interface's part names unless the profile knows the service's (`form_parts`).
    const parts = this.#formParts() ?? {};
    const fields: Array<[string, string]> = blobFormValues(meta).flatMap(({ field, values }) =>
      values.map((v): [string, string] => [parts[field.option] ?? field.part, v]),
    );
    // One boundary per call, so every retry's body matches the content-type header.
    const boundary = newBoundary();
    const factory = () =>
      multipartBody(
        fields,
        {
          field: parts.file ?? P.file,
          filename: fileName(meta.name, meta.recordType),
          contentType: formatOf(meta.recordType).contentType,
          data: content instanceof Uint8Array ? content : content(),
        },
        boundary,
      ).body;
    return {
      body: factory,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      tokens: this.#tokens,
      transfer: true,
    };
  }
}

function fileName(name: string, recordType: RecordType): string {
  const ext = formatOf(recordType).extensions[0];
  return name.toLowerCase().endsWith(ext) ? name : `${name}${ext}`;
}

function sentWords(meta: BlobMetadata): SentWords {
  const tier = meta.accessTier ?? DEFAULT_ACCESS_TIER;
  return {
    recordType: { ours: meta.recordType, word: meta.recordTypeWord ?? meta.recordType },
    accessTier: { ours: tier, word: meta.accessTierWord ?? tier },
  };
}

function quoteEtag(etag: string): string {
  return etag.startsWith('"') || etag.startsWith("W/") ? etag : `"${etag}"`;
}
