/**
 * The built service with a job lease of its own, for tests of processes that share a
 * data dir: `mdps serve` has no lease flag, so this starts the compiled service the way
 * serve-command.ts does (SIGTERM and SIGINT close it cleanly, exit code 0) with
 * `jobLeaseMs` set. service-starter.ts runs it (`spawn({ lease })`):
 *
 * `node --import tsx serve-driver.ts <main> <dataDir> <leaseMs> <workers> [log]`
 *
 * where <main> is a build's dist/bundle/main.js (or an older build's dist/src/cli/main.js). It prints `listening on <url> pid
 * <pid>` when ready: the pid is the node process's own, which differs from the child's
 * when a wrapper such as faketime forks it. With `log`, pino's lines go to stderr.
 */
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const [main, dataDir, leaseMs = "10000", workers = "1", log] = process.argv.slice(2);
if (!main || !dataDir) throw new Error("usage: serve-driver.ts <main> <dataDir> [leaseMs] [workers] [log]");
// A bundled build's service is bundle/service.js next to its main; an unbundled one's is src/server/index.js.
const serviceModule = main.endsWith(join("bundle", "main.js"))
  ? join(dirname(main), "service.js")
  : join(dirname(dirname(main)), "server", "index.js");
const built = pathToFileURL(serviceModule).href;
const { startService } = (await import(built)) as typeof import("../../src/server/index.js");
const service = await startService({
  dataDir,
  jobWorkers: Number(workers),
  jobLeaseMs: Number(leaseMs),
  rateLimit: false,
  logger: log === "log",
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
