/**
 * What the PostgreSQL server did over a bench run, read from its own statistics: commits
 * from pg_stat_database, and statements from pg_stat_statements where that extension is
 * installed (`shared_preload_libraries = 'pg_stat_statements'`, then `CREATE EXTENSION
 * pg_stat_statements`). Read after the replicas have exited: a backend reports its
 * counters when its session ends, so none is missing then.
 */
import pg from "pg";

export interface PgCounters {
  commits: number;
  /** Calls per statement text (normalized by the server), or undefined without pg_stat_statements. */
  statements: Map<string, number> | undefined;
}

/** Statements that are only a transaction's frame: counted apart from those that do the work. */
const FRAME = /^(BEGIN|COMMIT|ROLLBACK|SET LOCAL|SAVEPOINT|RELEASE)/i;

export async function readPgCounters(url: string): Promise<PgCounters> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A snapshot taken in this transaction would hide what other sessions reported since.
    await client.query("SELECT pg_stat_clear_snapshot()");
    const db = await client.query<{ commits: string }>(
      "SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = current_database()",
    );
    let statements: Map<string, number> | undefined;
    try {
      const rows = await client.query<{ query: string; calls: string }>(
        `SELECT query, calls::text AS calls FROM pg_stat_statements
           WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      statements = new Map(rows.rows.map((r) => [r.query, Number(r.calls)]));
    } catch {
      statements = undefined;
    }
    return { commits: Number(db.rows[0]?.commits ?? 0), statements };
  } finally {
    await client.end();
  }
}

/** Per job between two readings: commits, statements, and the statements by kind, most frequent first. */
export function perJob(
  before: PgCounters,
  after: PgCounters,
  jobs: number,
): { commits: number; statements?: number; frame?: number; top?: Array<[string, number]> } {
  const commits = (after.commits - before.commits) / jobs;
  if (!before.statements || !after.statements) return { commits };
  const delta: Array<[string, number]> = [];
  for (const [query, calls] of after.statements) {
    const n = calls - (before.statements.get(query) ?? 0);
    if (n > 0 && !query.includes("pg_stat_statements") && !query.includes("pg_stat_database"))
      delta.push([query.replace(/\s+/g, " "), n / jobs]);
  }
  delta.sort((a, b) => b[1] - a[1]);
  const sum = (rows: Array<[string, number]>) => rows.reduce((s, [, n]) => s + n, 0);
  return { commits, statements: sum(delta), frame: sum(delta.filter(([q]) => FRAME.test(q))), top: delta };
}
