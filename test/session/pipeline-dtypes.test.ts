/**
 * A pipeline's output keeps the input's column types, against the real reference
 * service: fitTransform on a CSV file gives its numeric passthrough columns as numbers
 * (text as text, digits a double cannot hold as their exact text); `columns: []` is
 * refused; a DECIMAL or BIGINT feature column is refused saying what it holds and how
 * to cast it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PreflightError, Session } from "../../src/index.js";
import { openDuckDb } from "../formats/parquet-duckdb.js";
import { column, tempDir } from "./session-fixture.js";

const dir = tempDir("mdps-pipeline-dtypes-");
let session: Session;

beforeAll(async () => {
  session = await Session.local({ dataDir: join(dir.path, "data"), service: { jobWorkers: 1 } });
});

afterAll(async () => {
  await session.close();
  dir.remove();
});

describe("pipeline output types", () => {
  it("fitTransform on a CSV path gives numeric passthrough columns as numbers", async () => {
    const csv = join(dir.path, "input.csv");
    writeFileSync(
      csv,
      "id,x,y,code,big\nr1,1.5,10,007,12345678901234567890\nr2,2.5,20,008,2\nr3,4,,009,3\nr4,8,30,010,4\n",
    );
    const df = await session.pipeline([{ type: "StandardScaler", columns: ["x"] }]).fitTransform(csv, {
      progress: false,
    });
    expect(column(df, "y")).toEqual([10, 20, NaN, 30]);
    expect(df.column("y").mean()).toBe(20);
    expect(column(df, "code")).toEqual([7, 8, 9, 10]);
    expect(column(df, "id")).toEqual(["r1", "r2", "r3", "r4"]);
    expect(column(df, "big")).toEqual(["12345678901234567890", "2", "3", "4"]);
    expect((column(df, "x") as number[]).every((v) => typeof v === "number")).toBe(true);
  });

  it("refuses columns: [] (no column, in scikit-learn's ColumnTransformer) and says to leave it out", () => {
    let error: unknown;
    try {
      session.pipeline([{ type: "StandardScaler" }, { type: "MinMaxScaler", columns: [] }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PreflightError);
    const [problem] = (error as PreflightError).problems;
    expect(problem?.field).toBe("steps[2].columns");
    expect(problem?.message).toMatch(
      /step 2: `columns` is empty.*leave `columns` out to transform every numeric column/,
    );
  });

  it("refuses a DECIMAL or BIGINT feature column saying what it holds and how to cast it", async () => {
    const db = await openDuckDb();
    const file = join(dir.path, "exact.parquet");
    try {
      await db.connection.run(
        `COPY (SELECT i::DOUBLE AS x, (i * 1.25)::DECIMAL(12,2) AS amount, (9007199254740993 + i)::BIGINT AS big
         FROM range(20) t(i)) TO '${file}' (FORMAT parquet)`,
      );
    } finally {
      db.close();
    }
    const report = await session.check(file, { type: "StandardScaler", columns: ["amount", "big"] });
    const messages = report.problems.map((p) => p.message);
    expect(messages[0]).toMatch(/column "amount" is not numeric: it holds DECIMAL\(12,2\) values \(exact decimals\)/);
    expect(messages[0]).toMatch(/CAST\(col AS DOUBLE\).*astype\(float\)/);
    expect(messages[1]).toMatch(/column "big" is not numeric: it holds INT64.* beyond ±2\^53/);
    expect(messages.join(" ")).not.toMatch(/holds text/);
  });
});
