import { z } from "zod";
import { normalizeHealth } from "./normalize.js";

/**
 * The extensions of docs/contract.md#extensions: the reference service offers
 * every one and lists them in health's `capabilities`; a client relies on one only when
 * it is declared there (or the user's profile says so). Another service may declare
 * other names, which are kept but unused.
 */
export const CAPABILITIES = [
  "cancel",
  "wait",
  "blob-list",
  "job-list",
  "arrow",
  "parquet",
  "json",
  "envelope-v1",
  "idempotent-job-send",
  "empty-scope-all",
  "shared-job-reads",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Health. The reference service sends every field (docs/contract.md#health); the interface
 * shows none, so another service may send only `{status: "Healthy"}`: `status` is read
 * lower-cased, the rest is optional. No `capabilities`: the interface alone.
 */
export const health = z.preprocess(
  normalizeHealth,
  z.looseObject({
    /** `healthy` or `degraded` from the reference service; another service's word, lower-cased. */
    status: z.string(),
    region: z.string().optional(),
    version: z.string().optional(),
    uptime_seconds: z.number().optional(),
    checks: z.record(z.string(), z.unknown()).optional(),
    /** Extensions the service offers (docs/contract.md#extensions); absent: the interface alone. */
    capabilities: z.array(z.string()).optional(),
  }),
);
export type Health = z.infer<typeof health>;

/** Health as the reference service sends it. */
export type ReferenceHealth = { [K in keyof Health]-?: Exclude<Health[K], undefined> };
