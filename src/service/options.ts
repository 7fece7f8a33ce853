import { availableParallelism } from "node:os";
import { resolve } from "node:path";

export interface ServiceOptions {
  /** Where the SQLite database and the blob files live; created if missing. */
  dataDir: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port, shown in `RunningService.url`. */
  port?: number;
  /** Region id reported by health; tokens are valid only at their region. Default "local". */
  region?: string;
  /** Access token lifetime. Default 3600. */
  tokenTtlSeconds?: number;
  /** Size limit of one uploaded file. Default 1 GiB. */
  maxBlobBytes?: number;
  /** Worker threads running jobs. Default: cores - 1, at least 1. */
  jobWorkers?: number;
  /** Log requests with pino (secrets redacted). Default false. */
  logger?: boolean;
  /** Where log lines go when `logger` is on. Default: stderr. */
  logDestination?: { write(line: string): unknown };
}

export interface ResolvedOptions {
  dataDir: string;
  host: string;
  port: number;
  region: string;
  tokenTtlSeconds: number;
  maxBlobBytes: number;
  jobWorkers: number;
  logger: boolean;
  logDestination: { write(line: string): unknown } | undefined;
}

export const GiB = 1024 ** 3;

export function resolveOptions(options: ServiceOptions): ResolvedOptions {
  if (!options.dataDir) throw new TypeError("startService needs a dataDir");
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
    return v;
  };
  return {
    dataDir: resolve(options.dataDir),
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    region: options.region ?? "local",
    tokenTtlSeconds: Math.floor(positive("tokenTtlSeconds", options.tokenTtlSeconds, 3600)),
    maxBlobBytes: Math.floor(positive("maxBlobBytes", options.maxBlobBytes, GiB)),
    jobWorkers: Math.floor(positive("jobWorkers", options.jobWorkers, Math.max(1, availableParallelism() - 1))),
    logger: options.logger ?? false,
    logDestination: options.logDestination,
  };
}
