import { randomBytes } from "node:crypto";
import { tokenDigest } from "../../domain/secrets.js";
import { type Db } from "./database.js";
import { nowIso } from "../../domain/clock.js";
import { listBlobs, listJobs } from "./listing.js";
import {
  LOGIN_TOKEN_TTL_MS,
  PORTAL_SESSION_TTL_MS,
  FORM_NONCE_TTL_MS,
  type NonceState,
  type ApplicationListing,
  type JobListing,
  type BlobListing,
  type ModelRow,
} from "../../domain/portal.js";
import type { PortalRecords } from "../port.js";

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * What the application portal keeps: one-time login tokens, sessions, and one-time
 * form nonces. Only sha256 digests are stored, as for access tokens, so a copy of
 * the database opens no portal session.
 */
export class PortalStore implements PortalRecords {
  constructor(private readonly db: Db) {}

  /** A fresh one-time login token (the value printed in `portal: <url>/login?token=...`). */
  createLoginToken(ttlMs = LOGIN_TOKEN_TTL_MS): string {
    const token = newToken();
    this.db.prepare("DELETE FROM portal_login_tokens WHERE expires_at <= ?").run(Date.now());
    this.db
      .prepare("INSERT INTO portal_login_tokens (token_hash, expires_at) VALUES (?, ?)")
      .run(tokenDigest(token), Date.now() + ttlMs);
    return token;
  }

  /** Uses up a login token: true once for a live token, false ever after. */
  consumeLoginToken(token: string): boolean {
    return (
      this.db
        .prepare("DELETE FROM portal_login_tokens WHERE token_hash = ? AND expires_at > ?")
        .run(tokenDigest(token), Date.now()).changes === 1
    );
  }

  /** Opens a session; the returned value goes into the session cookie only. */
  createSession(ttlMs = PORTAL_SESSION_TTL_MS): string {
    const session = newToken();
    this.db.prepare("DELETE FROM portal_sessions WHERE expires_at <= ?").run(Date.now());
    this.db
      .prepare("INSERT INTO portal_sessions (session_hash, created_at, expires_at) VALUES (?, ?, ?)")
      .run(tokenDigest(session), nowIso(), Date.now() + ttlMs);
    return session;
  }

  sessionIsLive(session: string): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM portal_sessions WHERE session_hash = ? AND expires_at > ?")
        .get(tokenDigest(session), Date.now()) !== undefined
    );
  }

  endSession(session: string): void {
    this.db.prepare("DELETE FROM portal_sessions WHERE session_hash = ?").run(tokenDigest(session));
  }

  /**
   * A one-time nonce for a form that changes state (`action` on `target`, e.g.
   * "regenerate" on a client id). Submitting the form consumes it; see `consumeNonce`.
   */
  issueNonce(action: string, target: string, ttlMs = FORM_NONCE_TTL_MS): string {
    const nonce = newToken();
    this.db.prepare("DELETE FROM portal_form_nonces WHERE expires_at <= ?").run(Date.now());
    this.db
      .prepare("INSERT INTO portal_form_nonces (nonce_hash, action, target, expires_at) VALUES (?, ?, ?, ?)")
      .run(tokenDigest(nonce), action, target, Date.now() + ttlMs);
    return nonce;
  }

  /** Where a nonce stands, without using it: for a form page that is opened again (back, reload). */
  nonceState(nonce: string, action: string, target: string): NonceState {
    const row = this.db
      .prepare("SELECT action, target, expires_at, used_at, outcome FROM portal_form_nonces WHERE nonce_hash = ?")
      .get(tokenDigest(nonce)) as
      | { action: string; target: string; expires_at: number; used_at: string | null; outcome: string | null }
      | undefined;
    if (!row || row.action !== action || row.target !== target) return { kind: "unknown" };
    if (row.used_at !== null) return { kind: "used", usedAt: row.used_at, outcome: row.outcome };
    if (row.expires_at <= Date.now()) return { kind: "unknown" };
    return { kind: "fresh" };
  }

  /**
   * Takes a fresh nonce for one submission: marks it used, with no outcome yet, and
   * answers `fresh`; of two submissions of the same form exactly one gets `fresh`, the
   * other sees `used`. An unknown, expired or mismatched nonce is taken never.
   */
  claimNonce(nonce: string, action: string, target: string): NonceState {
    return this.db.transaction((): NonceState => {
      const state = this.nonceState(nonce, action, target);
      if (state.kind === "fresh")
        this.db
          .prepare("UPDATE portal_form_nonces SET used_at = ? WHERE nonce_hash = ?")
          .run(nowIso(), tokenDigest(nonce));
      return state;
    });
  }

  /** Records what a claimed nonce's submission did (shown to a later submission of the same form). */
  settleNonce(nonce: string, outcome: string): void {
    this.db.prepare("UPDATE portal_form_nonces SET outcome = ? WHERE nonce_hash = ?").run(outcome, tokenDigest(nonce));
  }

  /** Makes a claimed nonce fresh again: its submission failed, and the form may be sent again. */
  releaseNonce(nonce: string): void {
    this.db
      .prepare("UPDATE portal_form_nonces SET used_at = NULL, outcome = NULL WHERE nonce_hash = ?")
      .run(tokenDigest(nonce));
  }

  /**
   * The address of the last service that started its portal on this data dir, so
   * `mdps admin portal-link` can print a whole link (kept in `meta`; the newest wins
   * when several processes serve one data dir, and any of them serves the portal).
   */
  recordUrl(url: string): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('portal_url', ?)").run(url);
  }

  /** Forgets the address when its service stops, unless another one has recorded its own since. */
  forgetUrl(url: string): void {
    this.db.prepare("DELETE FROM meta WHERE key = 'portal_url' AND value = ?").run(url);
  }

  lastUrl(): string | undefined {
    return (this.db.prepare("SELECT value FROM meta WHERE key = 'portal_url'").get() as { value: string } | undefined)
      ?.value;
  }

  models(): ModelRow[] {
    return this.db
      .prepare("SELECT id AS model_id, name, created_at FROM models ORDER BY created_at DESC, id")
      .all() as ModelRow[];
  }

  model(modelId: string): ModelRow | undefined {
    return this.db.prepare("SELECT id AS model_id, name, created_at FROM models WHERE id = ?").get(modelId) as
      ModelRow | undefined;
  }

  /** Application counts per model, for the models list. */
  applicationCounts(): Map<string, number> {
    const rows = this.db.prepare("SELECT model_id, COUNT(*) AS n FROM applications GROUP BY model_id").all() as Array<{
      model_id: string;
      n: number;
    }>;
    return new Map(rows.map((r) => [r.model_id, r.n]));
  }

  /** A model's applications, oldest first, never with their secret hashes. */
  applications(modelId: string): ApplicationListing[] {
    const rows = this.db
      .prepare(
        `SELECT client_id, name, scopes, created_at, secret_updated_at FROM applications
         WHERE model_id = ? ORDER BY created_at, client_id`,
      )
      .all(modelId) as Array<Omit<ApplicationListing, "scopes"> & { scopes: string }>;
    return rows.map((r) => ({ ...r, scopes: r.scopes.split(" ").filter(Boolean) }));
  }

  /** A model's jobs, newest first: the job list endpoint's first page (docs/contract.md#extensions). */
  jobs(modelId: string, limit = 100): JobListing[] {
    return listJobs(this.db, modelId, { limit }).rows;
  }

  /** A model's blobs, newest first: the blob list endpoint's first page. */
  blobs(modelId: string, limit = 200): BlobListing[] {
    return listBlobs(this.db, modelId, { limit }).rows;
  }

  /** Counts for a model's Health page: jobs per status, blobs and their bytes, applications. */
  modelCounts(modelId: string): {
    jobs: Record<string, number>;
    blobs: number;
    blobBytes: number;
    applications: number;
  } {
    const jobs = this.db
      .prepare("SELECT status, COUNT(*) AS n FROM jobs WHERE model_id = ? GROUP BY status")
      .all(modelId) as Array<{ status: string; n: number }>;
    const blobs = this.db
      .prepare("SELECT COUNT(*) AS n, COALESCE(SUM(size_bytes), 0) AS bytes FROM blobs WHERE model_id = ?")
      .get(modelId) as { n: number; bytes: number };
    const apps = this.db.prepare("SELECT COUNT(*) AS n FROM applications WHERE model_id = ?").get(modelId) as {
      n: number;
    };
    return {
      jobs: Object.fromEntries(jobs.map((j) => [j.status, j.n])),
      blobs: blobs.n,
      blobBytes: blobs.bytes,
      applications: apps.n,
    };
  }

  application(modelId: string, clientId: string): ApplicationListing | undefined {
    return this.applications(modelId).find((a) => a.client_id === clientId);
  }
}
