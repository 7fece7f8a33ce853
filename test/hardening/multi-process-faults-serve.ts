/**
 * `mdps serve` as built (dist/), with the job lease shortened so that a pause "longer
 * than the lease" takes seconds: `mdps serve` has no lease flag, so this starts the
 * compiled service the way serve-command.ts does (SIGTERM and SIGINT close it cleanly,
 * exit code 0) with `jobLeaseMs` set.
 *
 * MDPS_HARDENING_MAIN=<another build's dist/src/cli/main.js> runs that build's service
 * instead (as serve-harness.ts does): how these tests were seen failing before the fixes.
 *
 * `node --import tsx multi-process-faults-serve.ts <dataDir> <leaseMs> <workers>`
 * prints `listening on <url> pid <pid>` when ready: the pid is the node process's own,
 * which differs from the child's when a wrapper such as faketime forks it.
 */
import { pathToFileURL } from "node:url";
import { dirname, join } from "node:path";
import { MAIN } from "../cli/built-cli.js";

const [dataDir, leaseMs = "1500", workers = "1"] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: multi-process-faults-serve.ts <dataDir> [leaseMs] [workers]");
const main = process.env["MDPS_HARDENING_MAIN"] || MAIN;
const built = pathToFileURL(join(dirname(dirname(main)), "service", "index.js")).href;
const { startService } = (await import(built)) as typeof import("../../src/service/index.js");
const service = await startService({
  dataDir,
  jobWorkers: Number(workers),
  jobLeaseMs: Number(leaseMs),
  rateLimit: false,
  logger: true,
});
let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  service.close().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`error while stopping: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
console.log(`listening on ${service.url} pid ${process.pid}`);
