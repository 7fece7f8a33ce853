/**
 * The service's health checks, in one home for GET /api/shared/health and the portal's
 * Health page: the database answers, the data dir takes a file, no blob is known damaged,
 * every job worker is alive.
 */
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";

export interface Check {
  status: "pass" | "fail";
  detail?: string;
  [detail: string]: unknown;
}

/** At most this many damaged blobs are named in the answer; `mdps admin verify` lists them all. */
const DAMAGED_NAMED = 20;

export async function healthChecks(app: FastifyInstance): Promise<Record<string, Check>> {
  const { store } = app;
  const checks: Record<string, Check> = {};
  try {
    await store.ping();
    checks.database = { status: "pass" };
  } catch (err) {
    checks.database = { status: "fail", detail: (err as Error).message };
  }
  const probe = join(store.files.tmpDir, `health-${randomUUID()}.probe`);
  try {
    await store.files.ensureTemp();
    await writeFile(probe, "ok");
    await rm(probe, { force: true });
    checks.data_dir = { status: "pass" };
  } catch (err) {
    checks.data_dir = { status: "fail", detail: `not writable: ${(err as NodeJS.ErrnoException).code ?? "error"}` };
  }
  try {
    const damaged = await store.damage.list();
    checks.blobs =
      damaged.length === 0
        ? { status: "pass" }
        : {
            status: "fail",
            damaged: damaged.length,
            blob_ids: damaged.slice(0, DAMAGED_NAMED).map((d) => d.blob_id),
            detail: `${damaged.length} blob file(s) found damaged (not the bytes their sha256 names, or missing); they are not served. List them all with mdps admin verify; upload those datasets again.`,
          };
  } catch (err) {
    checks.blobs = { status: "fail", detail: (err as Error).message };
  }
  const stats = await app.jobRunner.stats();
  checks.workers = { status: stats.alive === stats.workers ? "pass" : "fail", ...stats };
  return checks;
}

/** One line for a person: what a check found (the portal's Health page). */
export function checkSummary(name: string, check: Check): string {
  if (name === "workers") {
    const { alive, workers, queued } = check as Check & { alive: number; workers: number; queued: number };
    return `${alive} of ${workers} alive, ${queued} job(s) queued`;
  }
  if (check.status === "fail") return check.detail ?? "failed";
  return PASS_SUMMARY[name] ?? "pass";
}

const PASS_SUMMARY: Record<string, string> = {
  database: "answers",
  data_dir: "writable",
  blobs: "no damaged file found",
};
