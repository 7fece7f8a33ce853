/**
 * A service in a process of its own, for the tests of many processes on one data dir:
 * `node --import tsx test/service/serve-process.ts <dataDir> <leaseMs> <workers>`.
 * Prints `listening on <url>` when ready; SIGTERM closes it cleanly, SIGKILL is a crash.
 */
import { startService } from "../../src/service/index.js";

const [dataDir, leaseMs = "10000", workers = "1"] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: serve-process.ts <dataDir> [leaseMs] [workers]");
const service = await startService({
  dataDir,
  jobWorkers: Number(workers),
  jobLeaseMs: Number(leaseMs),
  rateLimit: false,
});
process.on("SIGTERM", () => {
  service.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
console.log(`listening on ${service.url}`);
