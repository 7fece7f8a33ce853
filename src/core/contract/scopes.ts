/** The scopes of the interface and which one each endpoint needs (docs/contract.md#scopes). */
export const SCOPES = [
  "shared.blob.delete",
  "shared.blob.download",
  "shared.blob.read",
  "shared.blob.upload",
  "shared.blob.write",
  "shared.health.read",
  "ml.preprocessing.execute",
  "ml.preprocessing.read",
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export const ENDPOINT_SCOPES = {
  blobUpload: "shared.blob.upload",
  blobUpdate: "shared.blob.write",
  blobDownload: "shared.blob.download",
  blobDelete: "shared.blob.delete",
  /** Extension (docs/contract.md#blob-metadata): a blob's record and the blob list. */
  blobRead: "shared.blob.read",
  health: "shared.health.read",
  jobSend: "ml.preprocessing.execute",
  jobRead: "ml.preprocessing.read",
} as const satisfies Record<string, Scope>;
