/**
 * Which store keeps the service's records: the data dir's SQLite file (the default, and
 * what `Session.local()` uses), or a PostgreSQL database that several `mdps serve`
 * replicas share. Chosen once, when the options are resolved.
 */
import { chooseSqliteDriver, type SqliteDriverName } from "./sqlite/sqlite.js";

/** The environment variable that names the store (`mdps serve --store` wins over it). */
export const STORE_ENV = "MDPS_STORE";

export type StoreChoice = { kind: "sqlite"; driver: SqliteDriverName } | { kind: "postgres"; url: string };

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;

/**
 * The store `store` names (a `postgres://` URL, or `sqlite`), else `MDPS_STORE`, else the
 * data dir's SQLite on `sqliteDriver` (see chooseSqliteDriver). Anything else is an error
 * that shows the accepted forms; it never repeats a password the value may hold.
 */
export function chooseStore(options: {
  store?: string | undefined;
  sqliteDriver?: SqliteDriverName | undefined;
  env?: NodeJS.ProcessEnv;
}): StoreChoice {
  const named = options.store ?? (options.env ?? process.env)[STORE_ENV];
  const value = named?.trim();
  if (!value || value.toLowerCase() === "sqlite")
    return { kind: "sqlite", driver: chooseSqliteDriver(options.sqliteDriver) };
  if (POSTGRES_URL.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new RangeError(
        `the store ${redactedUrl(value)} is not a valid URL: write postgres://user:password@host:5432/database`,
      );
    }
    return { kind: "postgres", url: value };
  }
  throw new RangeError(
    `the store must be a postgres:// URL (postgres://user:password@host:5432/database) or "sqlite", got ${redactedUrl(value)}`,
  );
}

/** The store as logs, health and errors may show it: a URL without its password. */
export function describeStore(choice: StoreChoice): string {
  return choice.kind === "sqlite" ? `sqlite (${choice.driver})` : redactedUrl(choice.url);
}

/** `value` with the password of a `scheme://user:password@host` form replaced by `***`. */
export function redactedUrl(value: string): string {
  // Greedy to the authority's last `@`: a password with a raw `@` is hidden whole.
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^/?#]*@/i, "$1:***@");
}
