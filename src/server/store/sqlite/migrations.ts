/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many ran.
 * Append new steps, never edit a released one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE models (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  CREATE TABLE applications (
    client_id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    secret_updated_at TEXT NOT NULL
  );

  -- Tokens are kept only as sha256 digests; the token itself is never stored.
  CREATE TABLE tokens (
    token_hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES applications(client_id) ON DELETE CASCADE,
    model_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    region TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX tokens_expiry ON tokens(expires_at);

  CREATE TABLE blobs (
    id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL REFERENCES models(id),
    revision INTEGER NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    record_type TEXT NOT NULL,
    access_tier TEXT NOT NULL,
    tags TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    encrypted INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX blobs_model ON blobs(model_id);

  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL REFERENCES models(id),
    job_type TEXT NOT NULL,
    status TEXT NOT NULL,
    progress REAL NOT NULL,
    phase TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    attempts INTEGER NOT NULL,
    error TEXT,
    request TEXT NOT NULL,
    request_digest TEXT NOT NULL,
    had_keys INTEGER NOT NULL,
    result TEXT
  );
  CREATE INDEX jobs_status ON jobs(status, created_at);

  CREATE TABLE job_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    timestamp TEXT NOT NULL,
    status TEXT NOT NULL,
    phase TEXT,
    progress REAL NOT NULL,
    message TEXT
  );
  CREATE INDEX job_events_job ON job_events(job_id, seq);

  CREATE TABLE job_logs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    timestamp TEXT NOT NULL,
    level TEXT NOT NULL,
    message TEXT NOT NULL,
    hostname TEXT NOT NULL,
    replica_name TEXT NOT NULL,
    process_id INTEGER NOT NULL
  );
  CREATE INDEX job_logs_job ON job_logs(job_id, seq);
  `,
  // Many service processes on one data dir: each registers itself and
  // heartbeats; a job runs under a lease (owner, expiry in ms since the epoch) that
  // its process renews; a job with keys names the process holding them in memory.
  `
  CREATE TABLE service_processes (
    owner_id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    process_id INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    heartbeat_at INTEGER NOT NULL
  );

  ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
  ALTER TABLE jobs ADD COLUMN lease_expires_at INTEGER;
  ALTER TABLE jobs ADD COLUMN key_holder TEXT;
  `,
  // The application portal (src/server/portal/): login links, sessions and one-time
  // form nonces, each kept only as a sha256 digest.
  `
  CREATE TABLE portal_login_tokens (
    token_hash TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );

  CREATE TABLE portal_sessions (
    session_hash TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );

  CREATE TABLE portal_form_nonces (
    nonce_hash TEXT PRIMARY KEY,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at TEXT,
    outcome TEXT
  );
  `,
  // Waiting without polling (docs/contract.md#extensions): a job's revision grows with every
  // change of its status, phase or progress; job get with `wait` answers when it passes `since`.
  `
  ALTER TABLE jobs ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
  `,
  // Blob files found damaged (a sha256 or size that is not the row's, or no file): health
  // reports those whose blob still has that revision.
  `
  CREATE TABLE damaged_blobs (
    blob_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    reason TEXT NOT NULL,
    found_at TEXT NOT NULL,
    PRIMARY KEY (blob_id, revision)
  );
  `,
];
