import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { AdminError } from "../domain/admin-error.js";
import { blobFileName, isSafeBlobFile } from "../blob-bytes/blob-files.js";
import type { ModelListing } from "../domain/applications.js";
import type { PruneRows, StoreUsage } from "../domain/housekeeping.js";
import { openSqliteStores } from "../store/sqlite/index.js";
import type { SqliteDriverName } from "../store/sqlite/sqlite.js";

export { AdminError };
export type { ModelListing };

/** What a data dir holds: the store's counts and the bytes on disk (files, database, temp). */
export interface DataDirUsage extends StoreUsage {
  dataDir: string;
  diskBytes: number;
}

export interface PruneOptions {
  /** Blobs last updated, and jobs finished, longer ago than this go. */
  olderThanMs: number;
  /** Only blobs with this tag (e.g. `mdps:auto-input`); jobs are then kept. */
  tag?: string | undefined;
  dryRun?: boolean | undefined;
  now?: number | undefined;
}

export interface PruneReport extends PruneRows {
  before: string;
  bytes: number;
  dryRun: boolean;
}

export interface Admin {
  createModel(name: string): { model_id: string };
  addApp(input: { modelId: string; name: string; scopes: string[] }): { client_id: string; client_secret: string };
  regenerateSecret(clientId: string): { client_id: string; client_secret: string };
  deleteApp(clientId: string): void;
  listModels(): ModelListing[];
  /**
   * A fresh one-time login link for the application portal, at `baseUrl` or else at
   * the address the last service on this data dir recorded; `link` is null when
   * neither is known (then `token` still works with `<url>/login?token=`).
   */
  portalLink(baseUrl?: string): { link: string | null; token: string };
  /** Blobs, jobs and bytes in the data dir; `tag` also counts the blobs with that tag. */
  usage(tag?: string): DataDirUsage;
  /**
   * Removes blobs last updated before `olderThanMs` ago and jobs that finished before
   * then, never the input of a queued or running job. Safe while servers run on the dir.
   */
  prune(options: PruneOptions): PruneReport;
  close(): void;
}

/**
 * The portal's operations on a data dir. Safe while a server runs on the same dir:
 * SQLite in WAL mode with a busy timeout serialises the writers.
 *
 * @example
 * const admin = openAdmin(".mdps-data");
 * const { model_id } = admin.createModel("churn");
 * const { client_id, client_secret } = admin.addApp({ modelId: model_id, name: "nb", scopes: ["shared.health.read"] });
 * admin.close();
 */
export function openAdmin(dataDir: string, options: { sqliteDriver?: SqliteDriverName } = {}): Admin {
  const store = openSqliteStores({ dataDir, driver: options.sqliteDriver });
  const { apps, portal } = store;
  return {
    createModel: (name) => apps.createModel(name),
    addApp: (input) => apps.addApp(input),
    regenerateSecret: (clientId) => apps.regenerateSecret(clientId),
    deleteApp: (clientId) => apps.deleteApp(clientId),
    listModels: () => apps.listModels(),
    portalLink: (baseUrl) => loginLink(baseUrl ?? portal.lastUrl(), portal.createLoginToken()),
    usage: (tag) => ({ dataDir, ...store.usage(tag), diskBytes: diskBytes(dataDir) }),
    prune: (options) => {
      const query = pruneQuery(options);
      return prunedFiles(dataDir, query, store.prune(query));
    },
    close: () => store.close(),
  };
}

/** A portal login link at `base` (null without one; the token still works with `<url>/login?token=`). */
export function loginLink(base: string | undefined, token: string): { link: string | null; token: string } {
  const trimmed = base?.replace(/\/+$/, "");
  return { link: trimmed ? `${trimmed}/login?token=${token}` : null, token };
}

/** What `prune` asks the store: rows older than `olderThanMs` ago, of `tag` only if given. */
export function pruneQuery(options: PruneOptions): { before: string; tag: string | undefined; dryRun: boolean } {
  const before = new Date((options.now ?? Date.now()) - options.olderThanMs).toISOString();
  return { before, tag: options.tag, dryRun: options.dryRun === true };
}

/** Removes the files of the pruned rows (unless a dry run) and reports them. */
export function prunedFiles(dataDir: string, query: { before: string; dryRun: boolean }, rows: PruneRows): PruneReport {
  // The rows are gone (committed): now the bytes. A run reading one holds its own link.
  // An id that is not a UUID (a tampered database) never becomes a path: its row goes, no file does.
  const unsafe = rows.blobs.filter((b) => !isSafeBlobFile(b.id, b.revision));
  if (!query.dryRun)
    for (const b of rows.blobs)
      if (isSafeBlobFile(b.id, b.revision))
        rmSync(join(dataDir, "blobs", blobFileName(b.id, b.revision)), { force: true });
  if (unsafe.length > 0)
    throw new AdminError(
      `${unsafe.length} pruned blob record(s) have ids that are not UUIDs (such as ${JSON.stringify(unsafe[0]!.id.slice(0, 80))}): ${query.dryRun ? "nothing was removed" : "their records were removed, no file was deleted for them"}. The database was altered outside mdps: run mdps admin verify.`,
    );
  const bytes = rows.blobs.reduce((sum, b) => sum + b.size_bytes, 0);
  return { ...rows, before: query.before, dryRun: query.dryRun, bytes };
}

/** Bytes of every file under `dir` (blob files, temp files, the database and its WAL). */
export function diskBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0; // a temp folder removed meanwhile
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += diskBytes(path);
    else if (entry.isFile()) {
      try {
        total += statSync(path).size;
      } catch {
        // removed meanwhile (a temp file another process finished with)
      }
    }
  }
  return total;
}
