import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { CAPABILITIES } from "../../routes/health.js";
import { packageVersion } from "../../version.js";
import { frameFor, type PortalContext } from "../context.js";
import { HealthPage, type HealthCheck } from "../pages/health.js";
import { sendPage } from "../render.js";
import { modelFromParams } from "./models.js";

/** A model's Health page: the service's own checks, read in this process, and the model's numbers. */
export function healthRoutes(app: FastifyInstance, ctx: PortalContext): void {
  const startedAt = Date.now();
  const version = packageVersion();

  app.get<{ Params: { modelId: string } }>("/models/:modelId/health", async (request, reply) => {
    const model = modelFromParams(ctx, request.params);
    const checks: HealthCheck[] = [];
    try {
      ctx.db.prepare("SELECT 1").get();
      checks.push({ name: "database", pass: true, detail: "answers" });
    } catch (err) {
      checks.push({ name: "database", pass: false, detail: (err as Error).message });
    }
    const probe = join(ctx.store.files.tmpDir, `portal-health-${randomUUID()}.probe`);
    try {
      await writeFile(probe, "ok");
      await rm(probe, { force: true });
      checks.push({ name: "data dir", pass: true, detail: "writable" });
    } catch (err) {
      checks.push({
        name: "data dir",
        pass: false,
        detail: `not writable: ${(err as NodeJS.ErrnoException).code ?? "error"}`,
      });
    }
    const stats = app.jobRunner.stats();
    checks.push({
      name: "job workers",
      pass: stats.alive === stats.workers,
      detail: `${stats.alive} of ${stats.workers} alive, ${stats.queued} job(s) queued`,
    });
    return sendPage(
      reply,
      <HealthPage
        frame={frameFor(ctx, reply)}
        model={model}
        version={version}
        uptimeMs={Date.now() - startedAt}
        capabilities={CAPABILITIES}
        checks={checks}
        counts={ctx.portal.modelCounts(model.model_id)}
      />,
    );
  });
}
