import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import {
  CAPABILITIES as CONTRACT_CAPABILITIES,
  ENDPOINT_SCOPES,
  type Capability,
  type Health,
} from "../../contract/index.js";
import { damagedBlobs } from "../blob-check.js";
import { packageVersion } from "../version.js";

interface Check {
  status: "pass" | "fail";
  [detail: string]: unknown;
}

/**
 * The extensions of the interface this service offers (docs/contract.md#extensions); a
 * client uses one only when it is listed here.
 */
export const CAPABILITIES: readonly Capability[] = CONTRACT_CAPABILITIES;

/** GET /api/shared/health: the availability check, with what was checked and the extensions offered. */
function registerHealthRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  const version = packageVersion();
  const startedAt = Date.now();

  app.get("/api/shared/health", { config: { scope: ENDPOINT_SCOPES.health } }, async (): Promise<Health> => {
    const checks: Record<string, Check> = {};
    try {
      app.store.db.prepare("SELECT 1").get();
      checks.database = { status: "pass" };
    } catch (err) {
      checks.database = { status: "fail", detail: (err as Error).message };
    }
    const probe = join(app.store.files.tmpDir, `health-${randomUUID()}.probe`);
    try {
      await app.store.files.ensureTemp();
      await writeFile(probe, "ok");
      await rm(probe, { force: true });
      checks.data_dir = { status: "pass" };
    } catch (err) {
      checks.data_dir = { status: "fail", detail: `not writable: ${(err as NodeJS.ErrnoException).code ?? "error"}` };
    }
    try {
      const damaged = damagedBlobs(app.store.db);
      checks.blobs =
        damaged.length === 0
          ? { status: "pass" }
          : {
              status: "fail",
              damaged: damaged.length,
              blob_ids: damaged.slice(0, 20).map((d) => d.blob_id),
              detail: `${damaged.length} blob file(s) found damaged (not the bytes their sha256 names, or missing); they are not served. List them all with mdps admin verify; upload those datasets again.`,
            };
    } catch (err) {
      checks.blobs = { status: "fail", detail: (err as Error).message };
    }
    const stats = app.jobRunner.stats();
    checks.workers = { status: stats.alive === stats.workers ? "pass" : "fail", ...stats };
    const healthy = Object.values(checks).every((c) => c.status === "pass");
    return {
      status: healthy ? "healthy" : "degraded",
      region: app.serviceOptions.region,
      version,
      uptime_seconds: Math.round((Date.now() - startedAt) / 100) / 10,
      checks,
      capabilities: [...CAPABILITIES],
    };
  });
  done();
}

export const healthRoutes = fp(registerHealthRoutes, {
  name: "mdps-health-routes",
  fastify: "5.x",
  dependencies: ["mdps-auth", "mdps-store", "mdps-jobs"],
  encapsulate: true,
});
