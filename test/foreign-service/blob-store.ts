/** Blobs in memory, and the record this service returns for one. */
import { createHash, randomUUID } from "node:crypto";
import type { Settings } from "./switches.js";
import { wireTime } from "./wire-style.js";

function versionOf(data: Buffer, at: string): string {
  return `"${createHash("sha1").update(data).update(at).update(randomUUID()).digest("hex").slice(0, 16)}"`;
}

export interface BlobInput {
  readonly name: string;
  readonly description: string | undefined;
  readonly recordType: string;
  readonly accessTier: string;
  readonly tags: readonly string[];
  readonly data: Buffer;
}

export interface StoredBlob extends BlobInput {
  readonly blobId: string;
  /** Changes with every write: a quoted hash of the content and the time. */
  readonly version: string;
  readonly modelId: string;
  readonly createdOn: string;
  readonly updatedOn: string;
}

/** The wire record: camelCase, no description or tags (they are stored, never echoed). */
export interface BlobRecord {
  readonly blobId: string;
  readonly name: string;
  readonly recordType: string;
  readonly accessTier: string;
  readonly sizeBytes: number;
  /** ISO text, or epoch milliseconds (`times: "epoch-millis"`). */
  readonly createdOn: string | number;
}

export class BlobStore {
  private readonly blobs = new Map<string, StoredBlob>();

  create(modelId: string, input: BlobInput): StoredBlob {
    const now = new Date().toISOString();
    const blob: StoredBlob = {
      ...input,
      blobId: randomUUID(),
      modelId,
      createdOn: now,
      updatedOn: now,
      version: versionOf(input.data, now),
    };
    this.blobs.set(blob.blobId, blob);
    return blob;
  }

  /** Replaces content and metadata; the id and `createdOn` stay. */
  replace(existing: StoredBlob, input: BlobInput): StoredBlob {
    const now = new Date().toISOString();
    const blob: StoredBlob = { ...existing, ...input, updatedOn: now, version: versionOf(input.data, now) };
    this.blobs.set(blob.blobId, blob);
    return blob;
  }

  find(modelId: string, blobId: string): StoredBlob | undefined {
    const blob = this.blobs.get(blobId);
    return blob?.modelId === modelId ? blob : undefined;
  }

  findAnyModel(blobId: string): StoredBlob | undefined {
    return this.blobs.get(blobId);
  }

  delete(blobId: string): void {
    this.blobs.delete(blobId);
  }

  /** The name of every stored blob, oldest first. */
  names(): string[] {
    return [...this.blobs.values()].map((blob) => blob.name);
  }
}

export function blobRecord(blob: StoredBlob, settings: Settings): BlobRecord {
  return {
    blobId: blob.blobId,
    name: blob.name,
    recordType: blob.recordType,
    accessTier: blob.accessTier,
    sizeBytes: blob.data.byteLength,
    createdOn: wireTime(blob.createdOn, settings),
  };
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  Csv: "text/csv; charset=utf-8",
  Json: "application/json; charset=utf-8",
  Parquet: "application/vnd.apache.parquet",
};

/** The download's Content-Type follows the blob's record type (or its gzip name), not what the uploader declared. */
export function contentTypeOf(blob: StoredBlob): string {
  if (blob.name.endsWith(".gz")) return "application/gzip";
  return CONTENT_TYPES[blob.recordType] ?? CONTENT_TYPES[titleCase(blob.recordType)] ?? "application/octet-stream";
}

function titleCase(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}
