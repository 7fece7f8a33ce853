/** Blobs found damaged: what a check reports and what the stores remember. */
export interface DamageReport {
  blobId: string;
  revision: number;
  reason: string;
}

export interface DamagedBlob {
  blob_id: string;
  reason: string;
  found_at: string;
}
