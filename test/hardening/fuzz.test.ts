/**
 * The fuzz run against `mdps serve`: 2,000 generated requests here (npm test);
 * `npm run fuzz` sets MDPS_FUZZ_REQUESTS=20000 (and MDPS_FUZZ_SEED to vary the run).
 * After the run the server's open fds and its tmp/ files are back to their baseline.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { fuzz, type FuzzTarget } from "./fuzz.js";
import {
  multipartBody,
  openFds,
  rawRequest,
  registerApp,
  ServeHarness,
  tmpFiles,
  tokenOf,
  until,
  type Served,
} from "./serve-harness.js";

const REQUESTS = Number(process.env.MDPS_FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.MDPS_FUZZ_SEED ?? 18);

const h = new ServeHarness();
let served: Served;
let target: FuzzTarget;

beforeAll(async () => {
  served = await h.serve(undefined, ["--workers", "1"]);
  const app = registerApp(served.dataDir);
  const token = await tokenOf(served.url, app);
  const body = multipartBody(
    "b",
    [
      ["Name", "a.csv"],
      ["RecordType", "csv"],
      ["AccessTier", "hot"],
    ],
    "a,b\n1,2\n3,5\n",
  );
  const upload = await rawRequest(
    served.port,
    `POST /api/model/${app.modelId}/shared/blob/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${body.length}\r\n\r\n`,
    body,
  );
  const blobId = (JSON.parse(upload.body) as { id: string }).id;
  const sent = await fetch(`${served.url}/api/ml/preprocessing/job/send`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      model_id: app.modelId,
      input_blob_id: blobId,
      preprocessing_type: "StandardScaler",
      output: [{ name: "o.csv" }],
    }),
  });
  const jobId = ((await sent.json()) as { id: string }).id;
  target = { url: served.url, port: served.port, dataDir: served.dataDir, modelId: app.modelId, token, blobId, jobId };
}, 90_000);
afterAll(() => h.cleanup());

it(
  `${REQUESTS} fuzzed requests: no 5xx, no hang, problem+json errors without leaks, fds and tmp/ back to baseline`,
  async () => {
    // Warm up (lazy modules, the worker pool), then take the baseline.
    await fetch(`${served.url}/api/shared/health`, { headers: { authorization: `Bearer ${target.token}` } });
    await new Promise((r) => setTimeout(r, 500));
    const fdBaseline = openFds(served.pid);
    const started = Date.now();
    const figures = await fuzz(target, REQUESTS, SEED);
    const settled = await until(
      () => openFds(served.pid) <= fdBaseline && tmpFiles(served.dataDir).length === 0,
      15_000,
    );
    const report = {
      ...figures,
      seconds: (Date.now() - started) / 1000,
      fdBaseline,
      fdsAfter: openFds(served.pid),
      tmpFilesAfter: tmpFiles(served.dataDir).length,
    };
    console.log(`fuzz figures: ${JSON.stringify(report)}`);
    expect(figures.failures).toEqual([]);
    expect(figures.serverErrors).toBe(0);
    expect(figures.hangs).toBe(0);
    expect(figures.requests).toBe(REQUESTS);
    expect(settled).toBe(true);
    expect(served.log()).not.toContain(target.token);
  },
  Math.max(120_000, REQUESTS * 60),
);
