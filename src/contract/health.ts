import { z } from "zod";

export const health = z.looseObject({
  status: z.enum(["healthy", "degraded"]),
  region: z.string(),
  version: z.string(),
  uptime_seconds: z.number(),
  checks: z.record(z.string(), z.unknown()),
  /** Extensions the service offers (CONTRACT: Extensions); absent: the interface alone. */
  capabilities: z.array(z.string()).optional(),
});
export type Health = z.infer<typeof health>;
