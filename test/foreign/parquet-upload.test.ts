/**
 * A Session job on a Parquet file against a service that does not declare `parquet`
 * (test/foreign-service declares nothing): the Session reads the file here, uploads what
 * that service reads (CSV), says so in one notice, and the job's output can be saved as
 * Parquet again. Expected values are DuckDB's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../src/index.js";
import { useForeignServices } from "../foreign-service/calls.js";
import { JOB_INPUT_QUERY, closeTo, openDuckDb, standardScaledQuery, type DuckDb } from "../formats/parquet-duckdb.js";
import { connectTo } from "./foreign-helpers.js";

const start = useForeignServices({ jobDelayMs: 20 });
let db: DuckDb | undefined;
let dir: string | undefined;

function opened(): { db: DuckDb; path: (name: string) => string } {
  if (db === undefined || dir === undefined) throw new Error("beforeAll did not finish");
  const base = dir;
  return { db, path: (name) => join(base, name) };
}

beforeAll(async () => {
  db = await openDuckDb();
  dir = mkdtempSync(join(tmpdir(), "mdps-foreign-parquet-"));
  await db.connection.run(`COPY (${JOB_INPUT_QUERY}) TO '${join(dir, "input.parquet")}' (FORMAT parquet)`);
});
afterAll(() => {
  db?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe("a Parquet file against a service that does not declare parquet", () => {
  it("is read on this machine, uploaded as CSV with one notice, and the output saves as Parquet", async () => {
    const { db, path } = opened();
    const service = await start();
    let session: Session | undefined;
    try {
      session = await connectTo(service);
      expect((await session.health()).capabilities ?? []).not.toContain("parquet");
      const notices: string[] = [];
      session.onNotice((m) => notices.push(m));
      const job = await session.preprocess(path("input.parquet"), { type: "StandardScaler", columns: ["x", "y"] });
      await job.wait({ pollIntervalMs: 20, progress: "none", timeoutMs: 20_000 });
      const parquetNotices = notices.filter((n) => n.includes("Parquet"));
      expect(parquetNotices).toEqual([
        `input.parquet is Parquet, which this service does not declare it reads (no "parquet" in health's capabilities); read on this machine, uploading it as csv.`,
      ]);
      // What went up is CSV, named for what it is.
      const input = session.blobs().find((b) => b.id === service.jobs()[0]?.inputBlobId);
      expect([input?.name, input?.recordType, input?.record.record_type]).toEqual(["input.csv", "csv", "Csv"]);

      const file = await job.download(path("scaled.parquet"));
      expect(file).toMatchObject({ recordType: "parquet", copied: false });
      const source = path("input.parquet");
      const scaled = await db.columns(`SELECT x, y, name FROM read_parquet('${file.path}') ORDER BY n`);
      const golden = await db.columns(standardScaledQuery(source));
      expect(closeTo(scaled["x"] as Array<number | null>, golden["x"] ?? [])).toBe(true);
      expect(closeTo(scaled["y"] as Array<number | null>, golden["y"] ?? [])).toBe(true);
      const names = await db.columns(`SELECT name FROM read_parquet('${source}') ORDER BY n`);
      expect(scaled["name"]).toEqual(names["name"]);
    } finally {
      await session?.close();
    }
  });
});
