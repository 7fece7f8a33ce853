import { randomBytes } from "node:crypto";
import { tokenDigest } from "../../domain/secrets.js";
import { nowIso } from "../../domain/clock.js";
import {
  FORM_NONCE_TTL_MS,
  LOGIN_TOKEN_TTL_MS,
  PORTAL_SESSION_TTL_MS,
  type ApplicationListing,
  type BlobListing,
  type JobListing,
  type ModelRow,
  type NonceState,
} from "../../domain/portal.js";
import { DB_NOW_MS, type PgDb } from "./connection.js";
import { pgListBlobs, pgListJobs } from "./listing.js";

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * What the application portal keeps, as PortalStore (../sqlite/portal.ts) does: one-time login
 * tokens, sessions and one-time form nonces, as sha256 digests only. Each expires by the
 * database server's clock (DB_NOW_MS), so replicas whose clocks disagree agree on it.
 */
export class PgPortalStore {
  constructor(private readonly db: PgDb) {}

  /** A fresh one-time login token (the value printed in `portal: <url>/login?token=...`). */
  async createLoginToken(ttlMs = LOGIN_TOKEN_TTL_MS): Promise<string> {
    const token = newToken();
    await this.db.run(`DELETE FROM portal_login_tokens WHERE expires_at <= ${DB_NOW_MS}`);
    await this.db.run(
      `INSERT INTO portal_login_tokens (token_hash, expires_at) VALUES ($1, ${DB_NOW_MS} + $2::bigint)`,
      [tokenDigest(token), ttlMs],
    );
    return token;
  }

  /** Uses up a login token: true once for a live token, false ever after. */
  async consumeLoginToken(token: string): Promise<boolean> {
    const changed = await this.db.run(
      `DELETE FROM portal_login_tokens WHERE token_hash = $1 AND expires_at > ${DB_NOW_MS}`,
      [tokenDigest(token)],
    );
    return changed === 1;
  }

  /** Opens a session; the returned value goes into the session cookie only. */
  async createSession(ttlMs = PORTAL_SESSION_TTL_MS): Promise<string> {
    const session = newToken();
    await this.db.run(`DELETE FROM portal_sessions WHERE expires_at <= ${DB_NOW_MS}`);
    await this.db.run(
      `INSERT INTO portal_sessions (session_hash, created_at, expires_at) VALUES ($1, $2, ${DB_NOW_MS} + $3::bigint)`,
      [tokenDigest(session), nowIso(), ttlMs],
    );
    return session;
  }

  async sessionIsLive(session: string): Promise<boolean> {
    const row = await this.db.one(
      `SELECT 1 FROM portal_sessions WHERE session_hash = $1 AND expires_at > ${DB_NOW_MS}`,
      [tokenDigest(session)],
    );
    return row !== undefined;
  }

  async endSession(session: string): Promise<void> {
    await this.db.run("DELETE FROM portal_sessions WHERE session_hash = $1", [tokenDigest(session)]);
  }

  /** A one-time nonce for a form that changes state (`action` on `target`); see `consumeNonce`. */
  async issueNonce(action: string, target: string, ttlMs = FORM_NONCE_TTL_MS): Promise<string> {
    const nonce = newToken();
    await this.db.run(`DELETE FROM portal_form_nonces WHERE expires_at <= ${DB_NOW_MS}`);
    await this.db.run(
      `INSERT INTO portal_form_nonces (nonce_hash, action, target, expires_at) VALUES ($1, $2, $3, ${DB_NOW_MS} + $4::bigint)`,
      [tokenDigest(nonce), action, target, ttlMs],
    );
    return nonce;
  }

  /** Where a nonce stands, without using it: for a form page that is opened again (back, reload). */
  async nonceState(
    nonce: string,
    action: string,
    target: string,
    options: { lock?: boolean } = {},
  ): Promise<NonceState> {
    const row = await this.db.one<{
      action: string;
      target: string;
      expires_at: number;
      db_now: number;
      used_at: string | null;
      outcome: string | null;
    }>(
      `SELECT action, target, expires_at, ${DB_NOW_MS} AS db_now, used_at, outcome FROM portal_form_nonces WHERE nonce_hash = $1${options.lock ? " FOR UPDATE" : ""}`,
      [tokenDigest(nonce)],
    );
    if (!row || row.action !== action || row.target !== target) return { kind: "unknown" };
    if (row.used_at !== null) return { kind: "used", usedAt: row.used_at, outcome: row.outcome };
    if (row.expires_at <= row.db_now) return { kind: "unknown" };
    return { kind: "fresh" };
  }

  /**
   * Takes a fresh nonce for one submission: marks it used, with no outcome yet, and answers
   * `fresh`; of two submissions of the same form (on any replicas) exactly one gets `fresh`:
   * the nonce's row is locked, and the other waits, then sees `used`.
   */
  async claimNonce(nonce: string, action: string, target: string): Promise<NonceState> {
    return this.db.transaction(async (): Promise<NonceState> => {
      const state = await this.nonceState(nonce, action, target, { lock: true });
      if (state.kind === "fresh")
        await this.db.run("UPDATE portal_form_nonces SET used_at = $1 WHERE nonce_hash = $2", [
          nowIso(),
          tokenDigest(nonce),
        ]);
      return state;
    });
  }

  /** Records what a claimed nonce's submission did (shown to a later submission of the same form). */
  async settleNonce(nonce: string, outcome: string): Promise<void> {
    await this.db.run("UPDATE portal_form_nonces SET outcome = $1 WHERE nonce_hash = $2", [
      outcome,
      tokenDigest(nonce),
    ]);
  }

  /** Makes a claimed nonce fresh again: its submission failed, and the form may be sent again. */
  async releaseNonce(nonce: string): Promise<void> {
    await this.db.run("UPDATE portal_form_nonces SET used_at = NULL, outcome = NULL WHERE nonce_hash = $1", [
      tokenDigest(nonce),
    ]);
  }

  /** The address of the last service that started its portal on this database (the newest wins). */
  async recordUrl(url: string): Promise<void> {
    await this.db.run(
      "INSERT INTO meta (key, value) VALUES ('portal_url', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
      [url],
    );
  }

  /** Forgets the address when its service stops, unless another one has recorded its own since. */
  async forgetUrl(url: string): Promise<void> {
    await this.db.run("DELETE FROM meta WHERE key = 'portal_url' AND value = $1", [url]);
  }

  async lastUrl(): Promise<string | undefined> {
    return (await this.db.one<{ value: string }>("SELECT value FROM meta WHERE key = 'portal_url'"))?.value;
  }

  async models(): Promise<ModelRow[]> {
    return this.db.rows<ModelRow>("SELECT id AS model_id, name, created_at FROM models ORDER BY created_at DESC, id");
  }

  async model(modelId: string): Promise<ModelRow | undefined> {
    return this.db.one<ModelRow>("SELECT id AS model_id, name, created_at FROM models WHERE id = $1", [modelId]);
  }

  /** Application counts per model, for the models list. */
  async applicationCounts(): Promise<Map<string, number>> {
    const rows = await this.db.rows<{ model_id: string; n: number }>(
      "SELECT model_id, COUNT(*) AS n FROM applications GROUP BY model_id",
    );
    return new Map(rows.map((r) => [r.model_id, r.n]));
  }

  /** A model's applications, oldest first, never with their secret hashes. */
  async applications(modelId: string): Promise<ApplicationListing[]> {
    const rows = await this.db.rows<Omit<ApplicationListing, "scopes"> & { scopes: string }>(
      `SELECT client_id, name, scopes, created_at, secret_updated_at FROM applications
         WHERE model_id = $1 ORDER BY created_at, client_id`,
      [modelId],
    );
    return rows.map((r) => ({ ...r, scopes: r.scopes.split(" ").filter(Boolean) }));
  }

  /** A model's jobs, newest first: the job list endpoint's first page. */
  async jobs(modelId: string, limit = 100): Promise<JobListing[]> {
    return (await pgListJobs(this.db, modelId, { limit })).rows;
  }

  /** A model's blobs, newest first: the blob list endpoint's first page. */
  async blobs(modelId: string, limit = 200): Promise<BlobListing[]> {
    return (await pgListBlobs(this.db, modelId, { limit })).rows;
  }

  /** Counts for a model's Health page: jobs per status, blobs and their bytes, applications. */
  async modelCounts(
    modelId: string,
  ): Promise<{ jobs: Record<string, number>; blobs: number; blobBytes: number; applications: number }> {
    const jobs = await this.db.rows<{ status: string; n: number }>(
      "SELECT status, COUNT(*) AS n FROM jobs WHERE model_id = $1 GROUP BY status",
      [modelId],
    );
    const blobs = (await this.db.one<{ n: number; bytes: number }>(
      "SELECT COUNT(*) AS n, COALESCE(SUM(size_bytes), 0)::bigint AS bytes FROM blobs WHERE model_id = $1",
      [modelId],
    ))!;
    const apps = (await this.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM applications WHERE model_id = $1", [
      modelId,
    ]))!;
    return {
      jobs: Object.fromEntries(jobs.map((j) => [j.status, j.n])),
      blobs: blobs.n,
      blobBytes: blobs.bytes,
      applications: apps.n,
    };
  }

  async application(modelId: string, clientId: string): Promise<ApplicationListing | undefined> {
    return (await this.applications(modelId)).find((a) => a.client_id === clientId);
  }
}
