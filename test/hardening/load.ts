/**
 * Load on `mdps serve` (npm run load): uploads and small jobs at once, with autocannon.
 * Prints, for each, requests, non-2xx answers, errors and timeouts, and latencies, then
 * waits for every job to end and checks the server's fds and tmp/ are back to baseline.
 *
 *   npm run load                      # 400 uploads + 200 jobs, 32 + 16 connections
 *   MDPS_LOAD_UPLOADS=2000 MDPS_LOAD_JOBS=1000 npm run load
 */
import { createRequire } from "node:module";
import { multipartBody, openFds, registerApp, ServeHarness, tmpFiles, tokenOf, until } from "./serve-harness.js";

interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;

const autocannon = createRequire(import.meta.url)("autocannon") as Cannon;
const UPLOADS = Number(process.env.MDPS_LOAD_UPLOADS ?? 400);
const JOBS = Number(process.env.MDPS_LOAD_JOBS ?? 200);

const h = new ServeHarness();
try {
  const served = await h.serve(undefined, ["--workers", "1"]);
  const app = registerApp(served.dataDir);
  const token = await tokenOf(served.url, app);
  const csv = `a,b,c\n${Array.from({ length: 200 }, (_, i) => `${i},${(i * 7) % 13},${Math.sin(i)}`).join("\n")}\n`;
  const form = multipartBody(
    "loadboundary",
    [
      ["Name", "load.csv"],
      ["RecordType", "csv"],
      ["AccessTier", "hot"],
    ],
    csv,
  );
  const first = await fetch(`${served.url}/api/model/${app.modelId}/shared/blob/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=loadboundary" },
    body: form,
  });
  const blobId = ((await first.json()) as { id: string }).id;
  await new Promise((r) => setTimeout(r, 300));
  const fdBaseline = openFds(served.pid);

  const uploads = autocannon({
    url: `${served.url}/api/model/${app.modelId}/shared/blob/upload`,
    method: "POST",
    connections: 32,
    amount: UPLOADS,
    timeout: 30,
    headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=loadboundary" },
    body: form,
  });
  const jobs = autocannon({
    url: `${served.url}/api/ml/preprocessing/job/send`,
    method: "POST",
    connections: 16,
    amount: JOBS,
    timeout: 30,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    // No job_id: the service gives each send its own job.
    body: JSON.stringify({
      model_id: app.modelId,
      input_blob_id: blobId,
      preprocessing_type: "StandardScaler",
      output: [{ name: "o.csv" }],
    }),
  });
  const [u, j] = await Promise.all([uploads, jobs]);
  const line = (name: string, r: CannonResult) =>
    `${name}: ${r.requests.total} requests in ${r.duration.toFixed(1)} s, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; latency ms p50 ${r.latency.p50} p90 ${r.latency.p90} p99 ${r.latency.p99} max ${r.latency.max}`;
  console.log(line("uploads", u));
  console.log(line("job sends", j));

  const settled = await until(
    () => openFds(served.pid) <= fdBaseline + 2 && tmpFiles(served.dataDir).length === 0,
    30_000,
  );
  console.log(
    `after: fds ${openFds(served.pid)} (baseline ${fdBaseline}), tmp files ${tmpFiles(served.dataDir).length}, 5xx in log ${(served.log().match(/"statusCode":5\d\d/g) ?? []).length}`,
  );
  process.exitCode = u.non2xx + u.errors + j.non2xx + j.errors === 0 && settled ? 0 : 1;
} finally {
  await h.cleanup();
}
