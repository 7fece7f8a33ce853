import { createHash, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEFAULT_ACCESS_TIER,
  isTerminalStatus,
  PREPROCESSING_TYPES,
  SCOPES,
  type BlobDeleted,
  type ProblemDetails,
  // The demo talks only to the reference service, which sends every field.
  type ReferenceBlobRecord as BlobRecord,
  type ReferenceHealth as Health,
  type ReferenceLogDetails as JobExecutionLogDetails,
  type ReferenceJobRecord as JobRecord,
  type ReferenceJobResult as JobResult,
} from "../core/contract/index.js";
import { decryptBuffer, encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../core/crypto/index.js";
import { demoInput } from "./demo-input.js";
import { demoHttp, exchangeToken, type DemoHttp, type Reply } from "./demo-http.js";
import { columnNames, detail, firstLines, fittedSummary, fittedTable, step } from "./demo-print.js";

/** Binarizer and Normalizer refuse missing values (as scikit-learn does): the tour gives them complete columns. */
const REFUSE_MISSING = new Set(["Binarizer", "Normalizer"]);

/** Polls a job, printing a line whenever its status, phase or progress changes. */
async function waitForJob(http: DemoHttp, jobId: string, print: boolean): Promise<JobRecord> {
  let last = "";
  for (let i = 0; i < 6000; i++) {
    const { body: job } = (await http.json(
      "GET",
      `/api/ml/preprocessing/job/${jobId}/get?limit=1`,
    )) as Reply<JobRecord>;
    const line = `${job.status} · ${job.phase ?? "-"} ${Math.round(job.progress * 100)}%`;
    if (print && line !== last) detail(line);
    last = line;
    if (isTerminalStatus(job.status)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${jobId} did not finish within 5 minutes`);
}

function expectStatus(what: string, actual: number, expected: number, body: unknown): void {
  if (actual !== expected) {
    throw new Error(`${what}: expected HTTP ${expected}, got ${actual}: ${JSON.stringify(body)}`);
  }
}

function preprocessing(
  modelId: string,
  blobId: string,
  type: string,
  outputName: string,
  features: readonly string[],
  extra: Record<string, unknown> = {},
) {
  return {
    model_id: modelId,
    input_blob_id: blobId,
    preprocessing_type: type,
    feature_columns: features,
    request_timeout_seconds: 120,
    output: [
      { name: outputName, record_type: "csv", access_tier: DEFAULT_ACCESS_TIER, tags: ["demo", `transform=${type}`] },
    ],
    ...extra,
  };
}

export async function runDemo(options: { dataDir?: string; data?: string }): Promise<void> {
  const started = Date.now();
  // The user's file is read before anything starts: a wrong path fails at once.
  const data = await demoInput(options.data);
  const { name, features, complete } = data;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "mdps-demo-")));
  const { openAdmin, startService } = await import("../server/index.js");
  const service = await startService({ dataDir });
  try {
    console.log("mdps demo: the Model Data Preprocessing workflow against the embedded reference service\n");
    step("service", `listening on ${service.url} (region ${service.region}, data dir ${dataDir})`);

    const admin = openAdmin(dataDir);
    const { model_id: modelId } = admin.createModel("demo-churn");
    const app = admin.addApp({ modelId, name: "demo-notebook", scopes: [...SCOPES] });
    admin.close();
    step("portal", `model demo-churn ${modelId}; application demo-notebook ${app.client_id} (${SCOPES.length} scopes)`);

    const token = await exchangeToken(service.url, app.client_id, app.client_secret);
    step("token", `Bearer token issued (expires in ${token.expiresIn} s) with scope: ${token.scope}`);
    const http = demoHttp(service.url, token.token);

    const csv = data.csv;
    const blobs = `/api/model/${modelId}/shared/blob`;
    const up = (await http.upload("POST", `${blobs}/upload`, csv, {
      Name: name,
      Description: options.data === undefined ? "demo customers" : `${name}, sent by mdps demo`,
      RecordType: "csv",
      AccessTier: DEFAULT_ACCESS_TIER,
      Tags: ["demo", options.data === undefined ? "source=generated" : "source=file"],
    })) as Reply<BlobRecord>;
    expectStatus("upload", up.status, 200, up.body);
    const input = up.body;
    step(
      "upload",
      `${name} -> blob ${input.id} (${input.size_bytes} bytes, sha256 ${input.sha256.slice(0, 12)}…, tags ${input.tags.join(", ")})`,
    );
    if (data.note !== undefined) detail(data.note);
    detail(firstLines(csv.toString("utf8"), 4));

    const sent = (await http.json(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessing(modelId, input.id, "StandardScaler", `${stem(name)}-standardized.csv`, features),
    )) as Reply<JobRecord>;
    expectStatus("preprocessing send", sent.status, 200, sent.body);
    step("preprocess", `StandardScaler on ${columnNames(features)} -> job ${sent.body.id}`);
    const job = await waitForJob(http, sent.body.id, true);
    if (job.status !== "succeeded")
      throw new Error(`the StandardScaler job ended ${job.status}: ${JSON.stringify(job.error)}`);

    const logs = (await http.json("GET", `/api/ml/preprocessing/job/${job.id}/logs`)) as Reply<JobExecutionLogDetails>;
    step("logs", `${logs.body.messages.length} lines${logs.body.truncated ? " (truncated)" : ""}`);
    for (const m of logs.body.messages)
      detail(
        `${m.timestamp} ${m.level.padEnd(7)} [${m.container.replicaName} pid ${m.container.processId}] ${m.message}`,
      );

    const result = (await http.json("GET", `/api/ml/preprocessing/job/${job.id}/result`)) as Reply<JobResult>;
    expectStatus("result", result.status, 200, result.body);
    const output = result.body.outputs[0]!;
    step(
      "result",
      `${result.body.rows} rows, columns ${result.body.columns.join(", ")}; ${result.body.duration_ms} ms`,
    );
    detail(`fitted ${result.body.fitted.type} (mean_ and scale_ per feature; apply them to new data):`);
    detail(fittedTable(result.body.fitted));
    const scaled = await http.download(`${blobs}/${output.id}/download`);
    step("output", `${output.name} = blob ${output.id} (${output.size_bytes} bytes); first rows:`);
    detail(firstLines(scaled.bytes.toString("utf8"), 6));

    step("transforms", `every preprocessing type on ${columnNames(features)} (generic /api/job/send):`);
    for (const type of PREPROCESSING_TYPES) {
      const columns = REFUSE_MISSING.has(type) ? complete : features;
      if (columns.length === 0) {
        detail(`${type.padEnd(20)} skipped: it refuses missing values, and every numeric column has some`);
        continue;
      }
      const jobId = randomUUID();
      const body = {
        job_id: jobId,
        model_id: modelId,
        job_type: "preprocessing",
        payload: preprocessing(modelId, input.id, type, `${stem(name)}-${type}.csv`, columns),
      };
      const sentJob = (await http.json("POST", "/api/job/send", body)) as Reply<JobRecord>;
      expectStatus(`${type} send`, sentJob.status, 200, sentJob.body);
      const done = await waitForJob(http, jobId, false);
      if (done.status === "succeeded") {
        const r = (await http.json("GET", `/api/job/${jobId}/result`)) as Reply<JobResult>;
        const on = columns.length === features.length ? "" : ` (on ${columnNames(columns)}: it refuses missing values)`;
        detail(`${type.padEnd(20)} succeeded  ${fittedSummary(r.body.fitted)}${on}`);
      } else {
        throw new Error(`${type} ended ${done.status}: ${done.error?.title}: ${done.error?.detail}`);
      }
    }

    await encryptedRoundTrip(http, blobs, modelId, { csv, name, features });
    await blobLifecycle(http, blobs, input, { csv, name, extraRow: data.extraRow });

    const health = (await http.json("GET", "/api/shared/health")) as Reply<Health>;
    expectStatus("health", health.status, 200, health.body);
    const checks = Object.entries(health.body.checks)
      .map(([k, v]) => `${k} ${(v as { status: string }).status}`)
      .join(", ");
    step(
      "health",
      `${health.body.status} (region ${health.body.region}, version ${health.body.version}, up ${health.body.uptime_seconds} s): ${checks}`,
    );
    console.log(`\ndemo finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await service.close();
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

/** Client-side encryption: the service decrypts the input and encrypts the output with keys it never stores. */
async function encryptedRoundTrip(
  http: DemoHttp,
  blobs: string,
  modelId: string,
  { csv, name, features }: { csv: Buffer; name: string; features: readonly string[] },
): Promise<void> {
  const inputKey = generateEncryptionKey();
  const outputKey = generateEncryptionKey();
  const up = (await http.upload("POST", `${blobs}/upload`, encryptBuffer(parseEncryptionKey(inputKey), csv), {
    Name: `${name}.enc`,
    RecordType: "csv",
    AccessTier: "cool",
  })) as Reply<BlobRecord>;
  expectStatus("encrypted upload", up.status, 200, up.body);
  const body = preprocessing(modelId, up.body.id, "StandardScaler", `${stem(name)}-standardized.csv.enc`, features, {
    input_encryption_key: inputKey,
  });
  body.output[0] = { ...body.output[0]!, encryption_key: outputKey } as (typeof body.output)[0];
  const sent = (await http.json("POST", "/api/ml/preprocessing/job/send", body)) as Reply<JobRecord>;
  expectStatus("encrypted send", sent.status, 200, sent.body);
  const done = await waitForJob(http, sent.body.id, false);
  if (done.status !== "succeeded") throw new Error(`encrypted job ended ${done.status}: ${JSON.stringify(done.error)}`);
  const result = (await http.json("GET", `/api/ml/preprocessing/job/${done.id}/result`)) as Reply<JobResult>;
  const out = result.body.outputs[0]!;
  const cipher = await http.download(`${blobs}/${out.id}/download`);
  const plain = decryptBuffer(parseEncryptionKey(outputKey), cipher.bytes);
  const stored = JSON.stringify((done.request as { input_encryption_key?: string }).input_encryption_key);
  step(
    "encrypted",
    `uploaded an encrypted copy (encrypted: ${up.body.encrypted}); job ${done.id} ${done.status}; the job record shows the key as ${stored}`,
  );
  detail(
    `output blob ${out.id} encrypted: ${out.encrypted}; decrypted locally: ${plain.toString("utf8").split("\n")[1]}`,
  );
}

/** Download with a Range and an integrity check, update with If-Match, a stale If-Match, delete. */
async function blobLifecycle(
  http: DemoHttp,
  blobs: string,
  input: BlobRecord,
  { csv, name, extraRow }: { csv: Buffer; name: string; extraRow: string },
): Promise<void> {
  const whole = await http.download(`${blobs}/${input.id}/download`);
  const sha = createHash("sha256").update(whole.bytes).digest("hex");
  const part = await http.download(`${blobs}/${input.id}/download`, { range: "bytes=0-11" });
  step(
    "download",
    `${whole.bytes.length} bytes, ETag ${whole.headers.get("etag")?.slice(0, 14)}…", sha256 ${sha === input.sha256 ? "matches" : "DIFFERS"}; Range bytes=0-11 -> ${part.status} "${part.bytes.toString("utf8")}"`,
  );

  const updatedCsv = Buffer.concat([csv, Buffer.from(extraRow)]);
  const fields = {
    Name: name,
    Description: `${name}, one row added`,
    RecordType: "csv",
    AccessTier: "cool",
    Tags: ["demo", "version=2"],
  };
  const updated = (await http.upload("PUT", `${blobs}/${input.id}/update`, updatedCsv, fields, {
    "if-match": `"${input.sha256}"`,
  })) as Reply<BlobRecord>;
  expectStatus("update", updated.status, 200, updated.body);
  step(
    "update",
    `If-Match current ETag -> 200: ${updated.body.size_bytes} bytes, access tier ${updated.body.access_tier}, tags ${updated.body.tags.join(", ")}`,
  );
  const stale = (await http.upload("PUT", `${blobs}/${input.id}/update`, csv, fields, {
    "if-match": `"${input.sha256}"`,
  })) as Reply<ProblemDetails>;
  expectStatus("stale update", stale.status, 412, stale.body);
  detail(`If-Match old ETag -> ${stale.status} ${stale.body.title}: ${stale.body.detail}`);

  const deleted = (await http.json("DELETE", `${blobs}/${input.id}/delete`)) as Reply<BlobDeleted>;
  expectStatus("delete", deleted.status, 200, deleted.body);
  const gone = await http.download(`${blobs}/${input.id}/download`);
  step("delete", `${JSON.stringify(deleted.body)}; download afterwards -> ${gone.status}`);
}

/** `sales 2024.csv` -> `sales 2024`: output names follow the input's. */
function stem(name: string): string {
  return name.replace(/\.[^.]*$/, "");
}
