/**
 * Checks before the upload: each one fires before any request is sent (counted with a
 * counting undici dispatcher under the Session), names the nearest valid name, and
 * session.check describes the data without sending anything.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, type Dispatcher } from "undici";
import { DataFrame } from "danfojs-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session, ValidationError } from "../../src/index.js";
import type { Table } from "../../src/core/formats/table.js";
import { formatPreflight, preflight, PreflightError } from "../../src/session/preflight/preflight.js";
import { tempDir } from "./session-fixture.js";

/** Counts every HTTP request the Session makes. */
class CountingAgent extends Agent {
  requests = 0;
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.requests++;
    return super.dispatch(options, handler);
  }
}

const wine = (): Table => ({
  rowCount: 4,
  columns: [
    { name: "id", kind: "number", values: Float64Array.from([1, 2, 3, 4]) },
    { name: "proline", kind: "number", values: Float64Array.from([1065, 1050, NaN, 735]) },
    { name: "alcohol", kind: "number", values: Float64Array.from([14.2, -1, 13.2, 14.4]) },
    { name: "color", kind: "number", values: Float64Array.from([5, 5, 5, 5]) },
    { name: "cultivar", kind: "string", values: ["a", "a", "b", null] },
  ],
});

describe("preflight (pure)", () => {
  it("names the nearest column, refuses text columns", () => {
    const report = preflight(wine(), { type: "StandardScaler", columns: ["Proline", "cultivar", "zebra"] });
    expect(report.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/no column "Proline" \(did you mean `proline`\?\)/),
      expect.stringMatching(/column "cultivar" is not numeric: it holds text such as "a"/),
      expect.stringMatching(/no column "zebra"; the numeric columns are "id", "proline", "alcohol", "color"$/),
    ]);
  });

  it("box-cox needs strictly positive data; Normalizer and Binarizer refuse missing values", () => {
    const boxCox = preflight(wine(), { type: "PowerTransformer", params: { method: "box-cox" }, columns: ["alcohol"] });
    expect(boxCox.problems[0]?.message).toMatch(
      /box-cox needs strictly positive data, and column "alcohol" has minimum -1/,
    );
    for (const type of ["Normalizer", "Binarizer"] as const) {
      const report = preflight(wine(), { type, columns: ["proline"] });
      expect(report.problems[0]?.message).toMatch(
        new RegExp(`${type} refuses missing values, and column "proline" has 1 \\(the first in data row 3\\)`),
      );
    }
    expect(preflight(wine(), { type: "StandardScaler", columns: ["proline"] }).problems).toEqual([]);
  });

  it("checks params with did-you-mean", () => {
    const report = preflight(wine(), { type: "QuantileTransformer", params: { n_quantile: 3 } });
    expect(report.problems[0]).toMatchObject({ field: "params.n_quantile" });
    expect(report.problems[0]?.message).toMatch(/did you mean `n_quantiles`/);
  });

  it("reports per column and the warnings the job would give", () => {
    const report = preflight(wine(), { type: "QuantileTransformer" });
    expect(report.features).toEqual(["id", "proline", "alcohol", "color"]);
    expect(report.columns.map((c) => [c.name, c.dtype, c.missing, c.constant, c.idLike, c.min, c.max])).toEqual([
      ["id", "int64", 0, false, true, 1, 4],
      ["proline", "float64", 1, false, false, 735, 1065],
      ["alcohol", "float64", 0, false, false, -1, 14.4],
      ["color", "int64", 0, true, false, 5, 5],
      ["cultivar", "object", 1, false, false, null, null],
    ]);
    expect(report.warnings.map((w) => w.code)).toEqual(["id_like_column_transformed", "n_quantiles_capped"]);
    expect(report.warnings[1]?.message).toBe(
      "n_quantiles (1000) is greater than the total number of samples (4). n_quantiles is set to n_samples.",
    );
    const text = formatPreflight(report);
    expect(text).toMatch(/^4 rows, QuantileTransformer\ncolumn\s+dtype\s+missing/);
    expect(text).toMatch(/warning: column "id" looks like a row id/);
    // Columns given: the id column is not transformed, no warning.
    expect(preflight(wine(), { columns: ["proline"] }).warnings).toEqual([]);
    // Sorted data is not an id: ages 20, 30, 40, 50; but a column named like an id is.
    const sorted = (name: string): Table => ({
      rowCount: 4,
      columns: [{ name, kind: "number", values: Float64Array.from([20, 30, 40, 50]) }],
    });
    expect(preflight(sorted("age")).columns[0]?.idLike).toBe(false);
    expect(preflight(sorted("customer_id")).columns[0]?.idLike).toBe(true);
  });
});

describe("the Session checks before sending anything", () => {
  let dir: ReturnType<typeof tempDir>;
  let session: Session;
  const agent = new CountingAgent();
  const notices: string[] = [];

  beforeAll(async () => {
    dir = tempDir();
    session = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 }, dispatcher: agent });
    session.onNotice((m) => notices.push(m));
    await session.health(); // the token is fetched now, not during a check below
  });
  afterAll(async () => {
    await session.close();
    await agent.close();
    dir.remove();
  });

  const frame = () =>
    new DataFrame({ id: [1, 2, 3, 4], proline: [1065, 1050, null, 735], alcohol: [14.2, -1, 13.2, 14.4] });

  const refusals: [string, () => Promise<unknown>, RegExp][] = [
    [
      "a missing column",
      () => session.preprocess(frame(), { type: "StandardScaler", columns: ["Alcohol"] }),
      /did you mean `alcohol`/,
    ],
    [
      "box-cox on non-positive data",
      () =>
        session.preprocess(frame(), { type: "PowerTransformer", params: { method: "box-cox" }, columns: ["alcohol"] }),
      /strictly positive/,
    ],
    [
      "Normalizer with a missing value",
      () => session.preprocess(frame(), { type: "Normalizer" }),
      /refuses missing values/,
    ],
    [
      "Binarizer with a missing value",
      () => session.preprocess(frame(), { type: "Binarizer", columns: ["proline"] }),
      /refuses missing values/,
    ],
    [
      "a param typo",
      // @ts-expect-error -- a misspelt parameter
      () => session.preprocess(frame(), { type: "StandardScaler", params: { with_means: false } }),
      /did you mean `with_mean`/,
    ],
    [
      "a transform typo",
      // @ts-expect-error -- not a transform
      () => session.preprocess(frame(), { type: "StandardScalar" }),
      /did you mean `StandardScaler`/,
    ],
    [
      "an enum value typo",
      // @ts-expect-error -- not a norm
      () => session.preprocess(frame(), { type: "Normalizer", params: { norm: "L2" }, columns: ["alcohol"] }),
      /did you mean `l2`/,
    ],
  ];

  for (const [what, call, message] of refusals) {
    it(`${what}: a PreflightError, no request`, async () => {
      const before = agent.requests;
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PreflightError);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as PreflightError).code).toBe("preflight_failed");
      // No response, so no HTTP status: none is invented.
      expect((error as PreflightError).status).toBeUndefined();
      expect((error as PreflightError).requestId).toBeUndefined();
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/^Checked before sending \(nothing was sent\)/);
      expect(agent.requests).toBe(before);
    });
  }

  it("session.check describes the data and sends nothing", async () => {
    const before = agent.requests;
    const report = await session.check(frame(), { type: "QuantileTransformer", params: { n_quantiles: 10 } });
    expect(agent.requests).toBe(before);
    expect(report.ok).toBe(true);
    expect(report.columns.map((c) => c.name)).toEqual(["id", "proline", "alcohol"]);
    expect(report.columns[0]).toMatchObject({ idLike: true, dtype: "int64" });
    expect(report.warnings.map((w) => w.code)).toEqual(["id_like_column_transformed", "n_quantiles_capped"]);
    expect(report.toString()).toMatch(/warning: n_quantiles \(10\) is greater than the total number of samples \(4\)/);
    expect(report.toHTML()).toMatch(/<table/);
  });

  it("says so when an id-like column would be transformed, then runs the job", async () => {
    notices.length = 0;
    const before = agent.requests;
    const job = await session.preprocess(frame(), { type: "StandardScaler" });
    await job.wait();
    expect(agent.requests).toBeGreaterThan(before + 1); // the counter does see the upload and the send
    expect(notices).toEqual([expect.stringMatching(/column "id" looks like a row id/)]);
  });

  it("a CSV that is not the contract's is read like pandas and uploaded as a normalised copy, with one notice", async () => {
    const path = join(dir.path, "heights.csv");
    writeFileSync(path, "\uFEFFname;height;weight\nAnn;170;NA\nBob;N/A;80\nCid;165;72\n");
    notices.length = 0;
    const job = await session.preprocess(path, { type: "StandardScaler", columns: ["height", "weight"] });
    await job.wait();
    expect(notices).toEqual([
      expect.stringMatching(
        /^heights\.csv is not plain CSV \(fields separated by ";"; 2 missing values spelt "NA", "N\/A"\); read as pandas\.read_csv reads it, uploading a normalised copy/,
      ),
    ]);
    const out = await job.dataframe();
    expect(out.columns).toEqual(["name", "height", "weight"]);
    const stored = Buffer.from(await job.input!.bytes()).toString("utf8");
    expect(stored.split("\n")[0]).toBe("name,height,weight");
    expect(stored).toContain("Bob,,80");
  });
});
