/** The portal's records and time limits, the same in every store. */
import type { BlobRow } from "./blobs.js";
import type { JobRow } from "./job-rows.js";

/** How long a printed login link works (it also stops working once used). */
export const LOGIN_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** How long a portal session lasts after login. */
export const PORTAL_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** How long a rendered form can still be submitted. */
export const FORM_NONCE_TTL_MS = 2 * 60 * 60 * 1000;

/** Where a one-time form nonce stands: not used yet, used (when, with what result), or unknown/expired. */
export type NonceState =
  { kind: "fresh" } | { kind: "used"; usedAt: string; outcome: string | null } | { kind: "unknown" };

/** The result of submitting a one-time form nonce; see `consumeNonce` (portal/one-time-forms.ts). */
export type NonceOutcome<T> = { kind: "done"; value: T } | Exclude<NonceState, { kind: "fresh" }>;

export interface ApplicationListing {
  client_id: string;
  name: string;
  scopes: string[];
  created_at: string;
  secret_updated_at: string;
}

/** A job as the Jobs page lists it (no events, logs or result); `request` has its keys redacted at submission. */
export type JobListing = Pick<
  JobRow,
  "id" | "job_type" | "status" | "progress" | "phase" | "created_at" | "started_at" | "finished_at" | "request"
>;

/** A blob as the Blobs page lists it. */
export type BlobListing = Pick<
  BlobRow,
  "id" | "name" | "record_type" | "access_tier" | "tags" | "size_bytes" | "encrypted" | "created_at" | "updated_at"
>;

export interface ModelRow {
  model_id: string;
  name: string;
  created_at: string;
}
