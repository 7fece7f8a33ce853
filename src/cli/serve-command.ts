import type { Command } from "commander";
import { defaultDataDir, integerOption } from "./cli-options.js";
import { warnOfArgvPassword } from "./store-password.js";

interface ServeFlags {
  port: number;
  host: string;
  dataDir: string;
  store?: string;
  region: string;
  tokenTtl?: number;
  maxBlobBytes?: number;
  workers?: number;
  tokenRateLimit?: number;
  tokenAddressRateLimit?: number;
  apiRateLimit?: number;
  log?: boolean;
}

/** `mdps serve`: prints one line `listening on <url>` when ready; SIGINT/SIGTERM stop it cleanly. */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("run the reference Model Data Preprocessing Service (portal, auth and model API on one origin)")
    .option("--port <port>", "TCP port; 0 picks a free one", integerOption("--port", 0, 65535), 0)
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option(
      "--data-dir <dir>",
      "blob files, and the SQLite database unless --store names one ($MDPS_DATA_DIR)",
      defaultDataDir(),
    )
    .option(
      "--store <url>",
      "keep the records in PostgreSQL (postgres://user:password@host:5432/db) to run replicas; default the data dir's SQLite ($MDPS_STORE)",
    )
    .option("--region <id>", "region id reported by health; tokens are valid only here", "local")
    .option("--token-ttl <seconds>", "access token lifetime", integerOption("--token-ttl", 1))
    .option("--max-blob-bytes <bytes>", "largest accepted file (default 1 GiB)", integerOption("--max-blob-bytes", 1))
    .option("--workers <n>", "job worker threads (default: cores - 1)", integerOption("--workers", 1, 64))
    .option(
      "--token-rate-limit <n>",
      "token requests per minute per client_id and IP; 0 disables (default 120)",
      integerOption("--token-rate-limit", 0),
    )
    .option(
      "--token-address-rate-limit <n>",
      "token requests per minute per IP, all client_ids together; 0 disables (default 300)",
      integerOption("--token-address-rate-limit", 0),
    )
    .option(
      "--api-rate-limit <n>",
      "model API calls per minute per access token; 0 disables (default 6000)",
      integerOption("--api-rate-limit", 0),
    )
    .option("--log", "log requests to stderr as JSON lines (secrets redacted)")
    .action(async (flags: ServeFlags) => {
      warnOfArgvPassword("--store", flags.store, "MDPS_STORE");
      const { startService } = await import("../server/index.js");
      const service = await startService({
        dataDir: flags.dataDir,
        ...(flags.store !== undefined ? { store: flags.store } : {}),
        host: flags.host,
        port: flags.port,
        region: flags.region,
        logger: flags.log ?? false,
        ...(flags.tokenTtl !== undefined ? { tokenTtlSeconds: flags.tokenTtl } : {}),
        ...(flags.maxBlobBytes !== undefined ? { maxBlobBytes: flags.maxBlobBytes } : {}),
        ...(flags.workers !== undefined ? { jobWorkers: flags.workers } : {}),
        rateLimit: {
          ...(flags.tokenRateLimit !== undefined ? { tokenPerMinute: flags.tokenRateLimit } : {}),
          ...(flags.tokenAddressRateLimit !== undefined
            ? { tokenPerAddressPerMinute: flags.tokenAddressRateLimit }
            : {}),
          ...(flags.apiRateLimit !== undefined ? { apiPerMinute: flags.apiRateLimit } : {}),
        },
      });
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) {
          process.stderr.write(`mdps serve: second ${signal}, exiting now\n`);
          process.exit(1);
        }
        stopping = true;
        service.close().then(
          () => process.exit(0),
          (err: unknown) => {
            process.stderr.write(`mdps serve: error while stopping: ${(err as Error).message}\n`);
            process.exit(1);
          },
        );
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      // The application portal's one-time login link (docs/contract.md#application-portal),
      // kept in the service's own store (only as a hash). Made before the lines are printed.
      const portalLink = await service.portalLoginLink();
      // Printed last: whoever waits for these lines may signal the process at once.
      console.log(`listening on ${service.url}`);
      console.log(`portal: ${portalLink}`);
    });
}
