/**
 * The reference service and the `parquet` record type over HTTP: health declares it, an
 * upload takes it in any case, a job reads a Parquet input and writes Parquet (and CSV)
 * outputs. DuckDB writes the input and reads the outputs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_INPUT_QUERY, closeTo, openDuckDb, standardScaledQuery, type DuckDb } from "../formats/parquet-duckdb.js";
import {
  Api,
  Harness,
  json,
  outputsOf,
  preprocessingBody,
  referenceBlob,
  referenceJob,
  tokenFor,
} from "./service-harness.js";

const h = new Harness();
let api: Api | undefined;
let db: DuckDb | undefined;
let dir: string | undefined;

function opened(): { api: Api; db: DuckDb; path: (name: string) => string } {
  if (api === undefined || db === undefined || dir === undefined) throw new Error("beforeAll did not finish");
  const base = dir;
  return { api, db, path: (name) => join(base, name) };
}

beforeAll(async () => {
  const service = await h.inject();
  const app = h.app(service.dataDir);
  api = new Api(service, await tokenFor(service, app), app.modelId);
  db = await openDuckDb();
  dir = mkdtempSync(join(tmpdir(), "mdps-service-parquet-"));
  await db.connection.run(
    `COPY (${JOB_INPUT_QUERY}) TO '${join(dir, "input.parquet")}' (FORMAT parquet, COMPRESSION zstd)`,
  );
});
afterAll(async () => {
  db?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  await h.cleanup();
});

describe("the parquet record type", () => {
  it("is declared in health's capabilities", async () => {
    const { api } = opened();
    const health = await api.call("GET", "/api/shared/health");
    expect((health.body as { capabilities: string[] }).capabilities).toContain("parquet");
  });

  it("is taken on upload in any case, stored byte for byte and served as application/vnd.apache.parquet", async () => {
    const { api, path } = opened();
    const bytes = readFileSync(path("input.parquet"));
    const blob = json(
      referenceBlob,
      await api.upload(bytes, { Name: "input.parquet", RecordType: "Parquet", AccessTier: "hot" }),
    );
    expect(blob).toMatchObject({ record_type: "parquet", content_type: "application/vnd.apache.parquet" });
    const download = await api.download(blob.id);
    expect(download.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(Buffer.compare(download.body, bytes)).toBe(0);
  });

  it("is a job's input and output: Parquet in, Parquet and CSV out, as DuckDB computes them", async () => {
    const { api, db, path } = opened();
    const input = path("input.parquet");
    const blob = json(
      referenceBlob,
      await api.upload(readFileSync(input), { Name: "input.parquet", RecordType: "parquet", AccessTier: "hot" }),
    );
    const sent = await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(api.modelId, blob.id, {
        feature_columns: ["x", "y"],
        output: [{ name: "scaled.parquet" }, { name: "scaled.csv", record_type: "csv" }],
      }),
    );
    const job = await api.waitForJob(json(referenceJob, sent).id);
    expect(job.status).toBe("succeeded");
    const [parquet, csv] = outputsOf(await api.call("GET", `/api/job/${job.id}/result`));
    expect([parquet?.record_type, csv?.record_type]).toEqual(["parquet", "csv"]);

    const out = path("scaled.parquet");
    writeFileSync(out, (await api.download(parquet?.id ?? "")).body);
    const types = await db.columns(`SELECT column_type FROM (DESCRIBE SELECT * FROM '${out}')`);
    expect(types["column_type"]).toEqual(["INTEGER", "DOUBLE", "DOUBLE", "VARCHAR", "DATE", "DECIMAL(12,2)", "BIGINT"]);
    const golden = await db.columns(standardScaledQuery(input));
    const scaled = await db.columns(`SELECT x, y FROM '${out}' ORDER BY n`);
    expect(closeTo(scaled["x"] as Array<number | null>, golden["x"] ?? [])).toBe(true);
    expect(closeTo(scaled["y"] as Array<number | null>, golden["y"] ?? [])).toBe(true);

    // The CSV output holds the passed-through columns as their text: dates ISO, decimals exact, big integers whole.
    const csvFile = path("scaled.csv");
    writeFileSync(csvFile, (await api.download(csv?.id ?? "")).body);
    const fromCsv = await db.columns(
      `SELECT day, amount, big FROM read_csv('${csvFile}', all_varchar = true) ORDER BY n::INTEGER`,
    );
    const fromParquet = await db.columns(
      `SELECT strftime(day, '%Y-%m-%d') AS day, amount::VARCHAR AS amount, big::VARCHAR AS big FROM '${input}' ORDER BY n`,
    );
    expect(fromCsv).toEqual(fromParquet);
  });

  it("fails a job whose Parquet input is not Parquet, saying so", async () => {
    const { api } = opened();
    const blob = json(
      referenceBlob,
      await api.upload("a,b\n1,2\n", { Name: "fake.parquet", RecordType: "parquet", AccessTier: "hot" }),
    );
    const sent = await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, blob.id));
    const job = await api.waitForJob(json(referenceJob, sent).id);
    expect(job.status).toBe("failed");
    expect(job.error?.detail).toMatch(/not a readable Parquet file/);
  });
});
