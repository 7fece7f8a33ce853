import type { FastifyInstance } from "fastify";
import { checkSummary, healthChecks } from "../../health-checks.js";
import { CAPABILITIES } from "../../http/routes/health.js";
import { packageVersion } from "../../version.js";
import { frameFor, type PortalContext } from "../context.js";
import { HealthPage, type HealthCheck } from "../pages/health.js";
import { sendPage } from "../render.js";
import { modelFromParams } from "./models.js";

/** The checks as a person reads them. */
const CHECK_NAMES: Record<string, string> = { data_dir: "data dir", workers: "job workers" };

/** A model's Health page: the service's own checks, read in this process, and the model's numbers. */
export function healthRoutes(app: FastifyInstance, ctx: PortalContext): void {
  const startedAt = Date.now();
  const version = packageVersion();

  app.get<{ Params: { modelId: string } }>("/models/:modelId/health", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    const checks: HealthCheck[] = Object.entries(await healthChecks(app)).map(([name, check]) => ({
      name: CHECK_NAMES[name] ?? name,
      pass: check.status === "pass",
      detail: checkSummary(name, check),
    }));
    return sendPage(
      reply,
      <HealthPage
        frame={frameFor(ctx, reply)}
        model={model}
        version={version}
        uptimeMs={Date.now() - startedAt}
        capabilities={CAPABILITIES}
        checks={checks}
        counts={await ctx.portal.modelCounts(model.model_id)}
      />,
    );
  });
}
