/**
 * What must hold after a multi-process fault run, each check returning the problems it
 * found (so a failing run names all of them): every acknowledged upload downloads whole,
 * every accepted job ended once with one committed output set, and the data dir is
 * consistent (integrity_check, one file per blob row and no other, nothing left running,
 * no temp file or lock left once the processes stopped).
 */
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { openDatabase, type Db } from "../../src/server/store/sqlite/database.js";
import type { Member } from "./multi-process-faults-fleet.js";
import { sha256, type AcceptedJob, type AckedUpload } from "./multi-process-faults-load.js";

const TERMINAL = ["succeeded", "failed", "cancelled"];

export function withDb<T>(dataDir: string, use: (db: Db) => T): T {
  const db = openDatabase(dataDir);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** Ids of the given jobs that are still queued or running. */
export function unfinished(dataDir: string, jobs: readonly AcceptedJob[]): string[] {
  const ids = new Set(jobs.map((j) => j.id));
  return withDb(dataDir, (db) =>
    (db.prepare("SELECT id FROM jobs WHERE status IN ('queued', 'running')").all() as Array<{ id: string }>)
      .map((r) => r.id)
      .filter((id) => ids.has(id)),
  );
}

/** Downloads every acknowledged upload from the serving processes in turn: its bytes must hash to the sha256 acknowledged. */
export async function checkUploads(
  uploads: readonly AckedUpload[],
  serving: readonly Member[],
  auth: { token: string; modelId: string },
): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, upload] of uploads.entries()) {
    const member = serving[i % serving.length]!;
    const got = await download(member, auth, upload.id);
    if (upload.sha256 !== upload.sent)
      problems.push(`upload ${upload.id} via ${upload.via}: acknowledged a sha256 other than the bytes sent`);
    if (got.status !== 200 || got.sha256 !== upload.sha256)
      problems.push(
        `upload ${upload.id} (acknowledged by ${upload.via}) from ${member.name}: ${got.status}, sha256 ${got.sha256} instead of ${upload.sha256}`,
      );
  }
  return problems;
}

async function download(member: Member, auth: { token: string; modelId: string }, id: string) {
  try {
    const response = await fetch(`${member.url}/api/model/${auth.modelId}/shared/blob/${id}/download`, {
      headers: { authorization: `Bearer ${auth.token}` },
      signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, sha256: sha256(Buffer.from(await response.arrayBuffer())) };
  } catch (err) {
    return { status: 0, sha256: `(no answer: ${(err as Error).message})` };
  }
}

interface JobFacts {
  id: string;
  status: string;
  attempts: number;
  error: string | null;
  result: string | null;
  finished_at: string | null;
  terminalEvents: number;
  runningEvents: number;
  outputsByName: number;
}

/**
 * Each accepted job, from the database: ended, with exactly one terminal event and one
 * `running` event per attempt; succeeded with exactly one committed output blob (found
 * by its unique name), or failed for an allowed reason: keys lost only after the process
 * holding them was killed or stopped (never while it was frozen), interrupted too often
 * only after three attempts.
 */
export function checkJobs(dataDir: string, jobs: readonly AcceptedJob[]): string[] {
  const problems: string[] = [];
  withDb(dataDir, (db) => {
    const facts = db.prepare(
      `SELECT id, status, attempts, error, result, finished_at,
         (SELECT COUNT(*) FROM job_events e WHERE e.job_id = jobs.id AND e.status IN ('succeeded', 'failed', 'cancelled')) AS terminalEvents,
         (SELECT COUNT(*) FROM job_events e WHERE e.job_id = jobs.id AND e.status = 'running' AND e.message LIKE 'attempt %') AS runningEvents,
         (SELECT COUNT(*) FROM blobs b WHERE b.name = ?) AS outputsByName
       FROM jobs WHERE id = ?`,
    );
    for (const job of jobs) {
      const f = facts.get(job.outputName, job.id) as JobFacts | undefined;
      const name = `job ${job.id} (${job.keyed ? "keyed, " : ""}accepted by ${job.via.name}, now ${job.via.fate})`;
      if (!f) {
        problems.push(`${name}: acknowledged but not in the database`);
        continue;
      }
      if (!TERMINAL.includes(f.status)) problems.push(`${name}: still ${f.status}`);
      if (f.terminalEvents !== 1) problems.push(`${name}: ${f.terminalEvents} terminal events`);
      if (f.runningEvents !== f.attempts)
        problems.push(`${name}: ${f.runningEvents} claims for ${f.attempts} attempts`);
      const outputs = f.status === "succeeded" ? 1 : 0;
      if (f.outputsByName !== outputs) problems.push(`${name}: ${f.status} with ${f.outputsByName} committed outputs`);
      if (f.status === "succeeded") {
        const result = JSON.parse(f.result ?? "{}") as { outputs?: unknown[] };
        if (result.outputs?.length !== 1) problems.push(`${name}: a result with ${result.outputs?.length} outputs`);
      }
      if (f.status === "failed") {
        const title = (JSON.parse(f.error ?? "{}") as { title?: string }).title;
        // Failed after the test killed or stopped the holder: a frozen holder keeps its keys.
        const goneAt = job.via.goneAt;
        const holderGone = goneAt !== undefined && Date.parse(f.finished_at ?? "") >= goneAt;
        const allowed =
          (title === "Encryption keys lost" && job.keyed && holderGone) ||
          (title === "Interrupted too often" && f.attempts >= 3);
        if (!allowed) problems.push(`${name}: failed (${f.error}) after ${f.attempts} attempt(s)`);
      }
    }
  });
  return problems;
}

/** Once every process stopped and one started alone (its sweep ran): the data dir is whole and holds nothing stray. */
export function checkDataDir(dataDir: string): string[] {
  const problems: string[] = [];
  withDb(dataDir, (db) => {
    const integrity = (db.prepare("PRAGMA integrity_check").all() as Array<{ integrity_check: string }>).map(
      (r) => r.integrity_check,
    );
    if (integrity.join() !== "ok") problems.push(`integrity_check: ${integrity.join("; ")}`);
    const open = db.prepare("SELECT id, status FROM jobs WHERE status IN ('queued', 'running')").all() as Array<{
      id: string;
      status: string;
    }>;
    for (const j of open) problems.push(`job ${j.id} still ${j.status} after every process stopped`);
    const rows = new Set(
      (db.prepare("SELECT id, revision FROM blobs").all() as Array<{ id: string; revision: number }>).map(
        (r) => `${r.id}.${r.revision}`,
      ),
    );
    const files = new Set(readdirSync(join(dataDir, "blobs")));
    for (const row of rows) if (!files.has(row)) problems.push(`blob row ${row} has no file`);
    for (const file of files) if (!rows.has(file)) problems.push(`blob file ${file} has no row`);
  });
  for (const dir of ["tmp", "locks"]) {
    const left = existsSync(join(dataDir, dir)) ? readdirSync(join(dataDir, dir)) : [];
    if (left.length > 0) problems.push(`${dir}/ still holds ${left.join(", ")}`);
  }
  return problems;
}
