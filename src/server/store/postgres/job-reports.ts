/**
 * What a running attempt writes beside its state (events, log lines, progress) and how a
 * job's record and logs are read back, for PgJobStore.
 */
import type {
  JobExecutionLogContainer,
  JobExecutionLogDetails,
  JobRecord,
  LogLevel,
} from "../../../core/contract/index.js";
import { nowIso } from "../../domain/clock.js";
import { jobFields, type JobRow, type RunReport } from "../../domain/job-rows.js";
import type { PgDb } from "./connection.js";

export async function insertEvent(
  db: PgDb,
  event: { id: string; status: string; phase: string | null; progress: number; message: string | null; at: string },
): Promise<void> {
  await db.run(
    "INSERT INTO job_events (job_id, timestamp, status, phase, progress, message) VALUES ($1, $2, $3, $4, $5, $6)",
    [event.id, event.at, event.status, event.phase, event.progress, event.message],
  );
}

interface LogRow {
  id: string;
  at: string;
  level: LogLevel;
  message: string;
  container: JobExecutionLogContainer;
}

/** Log lines in one statement, in their order (a column array each, unnested together). */
export async function insertLogs(db: PgDb, lines: readonly LogRow[]): Promise<void> {
  if (lines.length === 0) return;
  const column = <T>(of: (line: LogRow) => T) => lines.map(of);
  await db.run(
    `INSERT INTO job_logs (job_id, timestamp, level, message, hostname, replica_name, process_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[])`,
    [
      column((l) => l.id),
      column((l) => l.at),
      column((l) => l.level),
      column((l) => l.message),
      column((l) => l.container.hostname),
      column((l) => l.container.replicaName),
      column((l) => String(l.container.processId)),
    ],
  );
}

/**
 * Writes a running attempt's log lines and progress reports in one relaxed transaction
 * (inside a caller's transaction, as part of it). Progress counts only while `owner`
 * holds the lease, read with the row locked so a takeover cannot slip in between: a new
 * phase becomes an event, and the row keeps the batch's last report. Log lines are kept
 * whoever holds the lease, as the SQLite store keeps them. The row's change, if it changed.
 */
export async function writeRunReports(
  db: PgDb,
  batch: { id: string; owner: string; entries: readonly RunReport[] },
): Promise<{ id: string; status: "running"; revision: number } | undefined> {
  const { id, owner, entries } = batch;
  if (entries.length === 0) return undefined;
  return db.relaxed(async () => {
    let held: boolean | undefined;
    let phase: string | null = null;
    let last: { phase: string; progress: number } | undefined;
    let before: { phase: string | null; progress: number; revision: number } | undefined;
    const logs: LogRow[] = [];
    for (const entry of entries) {
      if (entry.kind === "log") {
        logs.push({ id, at: entry.at, level: entry.level, message: entry.message, container: entry.container });
        continue;
      }
      if (held === undefined) {
        const row = await db.one<{
          status: string;
          lease_owner: string | null;
          phase: string | null;
          progress: number;
          revision: number;
        }>("SELECT status, lease_owner, phase, progress, revision FROM jobs WHERE id = $1 FOR UPDATE", [id]);
        held = row !== undefined && row.status === "running" && row.lease_owner === owner;
        if (row) before = row;
        phase = row?.phase ?? null;
      }
      if (!held) continue;
      if (entry.phase !== phase)
        await insertEvent(db, {
          id,
          status: "running",
          phase: entry.phase,
          progress: entry.progress,
          message: null,
          at: nowIso(),
        });
      phase = entry.phase;
      last = entry;
    }
    await insertLogs(db, logs);
    if (!last || !before || (before.phase === last.phase && before.progress === last.progress)) return undefined;
    await db.run("UPDATE jobs SET phase = $1, progress = $2, revision = revision + 1 WHERE id = $3", [
      last.phase,
      last.progress,
      id,
    ]);
    // Locked since it was read: the update made the next revision.
    return { id, status: "running", revision: before.revision + 1 };
  });
}

export async function jobRecord(db: PgDb, row: JobRow, limit: number): Promise<JobRecord> {
  const events = await db.rows<NonNullable<JobRecord["events"]>[number]>(
    `SELECT timestamp, status, phase, progress, message FROM
       (SELECT * FROM job_events WHERE job_id = $1 ORDER BY seq DESC LIMIT $2) AS last ORDER BY seq`,
    [row.id, limit],
  );
  return { ...jobFields(row), events };
}

export async function jobLogs(db: PgDb, row: JobRow, limit: number): Promise<JobExecutionLogDetails> {
  const messages = await db.rows<{
    timestamp: string;
    level: string;
    message: string;
    hostname: string;
    replica_name: string;
    process_id: number;
  }>(
    `SELECT timestamp, level, message, hostname, replica_name, process_id FROM
       (SELECT * FROM job_logs WHERE job_id = $1 ORDER BY seq DESC LIMIT $2) AS last ORDER BY seq`,
    [row.id, limit],
  );
  const total = (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM job_logs WHERE job_id = $1", [row.id]))!.n;
  return {
    job_id: row.id,
    status: row.status,
    messages: messages.map((m) => ({
      timestamp: m.timestamp,
      level: m.level,
      message: m.message,
      container: { hostname: m.hostname, replicaName: m.replica_name, processId: m.process_id },
    })),
    truncated: total > messages.length,
  };
}
