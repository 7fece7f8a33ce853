import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import {
  CAPABILITIES as CONTRACT_CAPABILITIES,
  ENDPOINT_SCOPES,
  type Capability,
  type Health,
} from "../../../core/contract/index.js";
import { healthChecks } from "../../health-checks.js";
import { describeStore } from "../../store/choice.js";
import { packageVersion } from "../../version.js";

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
    const checks = await healthChecks(app);
    const healthy = Object.values(checks).every((c) => c.status === "pass");
    return {
      status: healthy ? "healthy" : "degraded",
      region: app.serviceOptions.region,
      version,
      uptime_seconds: Math.round((Date.now() - startedAt) / 100) / 10,
      // Which of several replicas answered, and the store they share (without its password).
      replica: app.store.me.ownerId,
      store: describeStore(app.serviceOptions.store),
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
