/**
 * The PostgreSQL schema: SQLite's MIGRATIONS (../sqlite/migrations.ts) folded into PostgreSQL
 * DDL, with the same tables and columns, so records read the same from both stores.
 * Times the SQLite store keeps as ISO text stay TEXT, in byte order (COLLATE "C", as SQLite
 * compares text) so they sort and compare as times whatever the database's locale; epoch-ms integers are BIGINT; REAL
 * is DOUBLE PRECISION; SQLite's 0/1 flags stay SMALLINT so rows keep their number type.
 * Append new steps, never edit a released one.
 */
import type pg from "pg";
import { withTransaction } from "./connection.js";

/**
 * Any fixed 64-bit key that no other user of the database takes: the transaction lock that
 * makes replicas starting at once apply each step exactly once ("mdps" in ASCII, then 1).
 */
export const MIGRATION_LOCK_KEY = 0x6d_64_70_73_00_00_00_01n;

/**
 * `seq` (blobs, jobs): the insertion order SQLite's rowid gives, which listing cursors and
 * the claim order break ties on. PostgreSQL has no rowid; this identity column is it.
 */
export const PG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE models (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
  );

  CREATE TABLE applications (
    client_id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    secret_updated_at TEXT COLLATE "C" NOT NULL
  );

  -- Tokens are kept only as sha256 digests; the token itself is never stored.
  CREATE TABLE tokens (
    token_hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES applications(client_id) ON DELETE CASCADE,
    model_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    region TEXT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX tokens_expiry ON tokens(expires_at);

  CREATE TABLE blobs (
    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL REFERENCES models(id),
    revision BIGINT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    record_type TEXT NOT NULL,
    access_tier TEXT NOT NULL,
    tags TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size_bytes BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    encrypted SMALLINT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX blobs_model ON blobs(model_id, created_at, seq);

  -- progress: PostgreSQL stores NaN where SQLite turns it into NULL and refuses the row
  -- (NOT NULL); the CHECK refuses it here too.
  CREATE TABLE jobs (
    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL REFERENCES models(id),
    job_type TEXT NOT NULL,
    status TEXT NOT NULL,
    progress DOUBLE PRECISION NOT NULL CHECK (progress <> 'NaN'),
    phase TEXT,
    created_at TEXT COLLATE "C" NOT NULL,
    started_at TEXT COLLATE "C",
    finished_at TEXT COLLATE "C",
    attempts INTEGER NOT NULL,
    error TEXT,
    request TEXT NOT NULL,
    request_digest TEXT NOT NULL,
    had_keys SMALLINT NOT NULL,
    result TEXT,
    lease_owner TEXT,
    lease_expires_at BIGINT,
    key_holder TEXT,
    revision BIGINT NOT NULL DEFAULT 0
  );
  CREATE INDEX jobs_status ON jobs(status, created_at, seq);
  CREATE INDEX jobs_model ON jobs(model_id, created_at, seq);

  CREATE TABLE job_events (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    timestamp TEXT COLLATE "C" NOT NULL,
    status TEXT NOT NULL,
    phase TEXT,
    progress DOUBLE PRECISION NOT NULL CHECK (progress <> 'NaN'),
    message TEXT
  );
  CREATE INDEX job_events_job ON job_events(job_id, seq);

  CREATE TABLE job_logs (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    timestamp TEXT COLLATE "C" NOT NULL,
    level TEXT NOT NULL,
    message TEXT NOT NULL,
    hostname TEXT NOT NULL,
    replica_name TEXT NOT NULL,
    process_id INTEGER NOT NULL
  );
  CREATE INDEX job_logs_job ON job_logs(job_id, seq);

  CREATE TABLE service_processes (
    owner_id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    process_id INTEGER NOT NULL,
    started_at TEXT COLLATE "C" NOT NULL,
    heartbeat_at BIGINT NOT NULL
  );

  CREATE TABLE portal_login_tokens (
    token_hash TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
  );

  CREATE TABLE portal_sessions (
    session_hash TEXT PRIMARY KEY,
    created_at TEXT COLLATE "C" NOT NULL,
    expires_at BIGINT NOT NULL
  );

  CREATE TABLE portal_form_nonces (
    nonce_hash TEXT PRIMARY KEY,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at TEXT COLLATE "C",
    outcome TEXT
  );

  CREATE TABLE damaged_blobs (
    blob_id TEXT NOT NULL,
    revision BIGINT NOT NULL,
    reason TEXT NOT NULL,
    found_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (blob_id, revision)
  );
  `,
  // Every change of a job's revision is announced on the channel CHANGE_CHANNEL (change-feed.ts)
  // at its commit, so replicas hear of queued jobs and job get's waiters of changes
  // without reading the rows in a loop. application_name says which process wrote it.
  `
  CREATE FUNCTION mdps_announce_job_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('mdps_jobs', json_build_object(
      'id', NEW.id, 'status', NEW.status, 'revision', NEW.revision,
      'from', current_setting('application_name'))::text);
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER jobs_announce_insert AFTER INSERT ON jobs
    FOR EACH ROW EXECUTE FUNCTION mdps_announce_job_change();
  CREATE TRIGGER jobs_announce_update AFTER UPDATE OF revision ON jobs
    FOR EACH ROW WHEN (NEW.revision IS DISTINCT FROM OLD.revision) EXECUTE FUNCTION mdps_announce_job_change();
  `,
];

/**
 * Applies the steps this database lacks, in one transaction under a transaction-level
 * advisory lock: a replica that starts while another migrates waits for it, then finds
 * the steps recorded and applies none. The versions it applied (empty when up to date).
 */
export async function migratePg(pool: pg.Pool): Promise<number[]> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK_KEY.toString()]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    );
    const done = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const have = new Set(done.rows.map((r) => r.version));
    refuseNewerSchema(have);
    const applied: number[] = [];
    for (const [i, step] of PG_MIGRATIONS.entries()) {
      const version = i + 1;
      if (have.has(version)) continue;
      await client.query(step);
      await client.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [
        version,
        new Date().toISOString(),
      ]);
      applied.push(version);
    }
    return applied;
  });
}

/** The error of a replica older than its database's schema; see refuseNewerSchema. */
export class NewerSchemaError extends Error {
  override readonly name = "NewerSchemaError";
}

/**
 * Refuses a database that a newer version of mdps migrated past the steps this one knows:
 * this version would not know its tables' new columns or rules, and could write rows the
 * newer replicas misread. Upgrade this replica instead (its schema is never rolled back).
 */
function refuseNewerSchema(have: ReadonlySet<number>): void {
  const newest = Math.max(0, ...have);
  if (newest > PG_MIGRATIONS.length)
    throw new NewerSchemaError(
      `the PostgreSQL database's schema is at version ${newest}, newer than this mdps knows (up to ${PG_MIGRATIONS.length}): a newer mdps migrated it. Run the newer version on every replica (upgrade this one); an older one does not start on it`,
    );
}
