/**
 * The formats' pandas fidelity through the user's path (Session.local(), the real service):
 * boolean feature columns in every input format against scikit-learn 1.2.1
 * (test/fixtures/pandas-fidelity/booleans.golden.json), an empty column name beside a real
 * "null" column in every format and in job.table() / job.dataframe(), numbers with spaces
 * around them, and 17-digit numbers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dataFrameFromTable } from "../../src/core/formats/danfo.js";
import { formatOf, readTable, writeTable, type Table, type TableRecordType } from "../../src/core/formats/index.js";
import { tempDir, useLocalSession } from "../session/session-fixture.js";
import { collect } from "./byte-sources.js";

const session = useLocalSession();
const dir = tempDir("mdps-fidelity-");
afterAll(() => dir.remove());

interface BooleanGolden {
  readonly sklearn: string;
  readonly frame: { flag: boolean[]; x: number[]; label: string[] };
  readonly missing_frame: { flag: (boolean | null)[]; x: number[] };
  readonly StandardScaler: number[][];
  readonly MinMaxScaler: number[][];
  readonly StandardScaler_missing: (number | null)[][];
}
const golden = JSON.parse(
  readFileSync(join(import.meta.dirname, "../fixtures/pandas-fidelity/booleans.golden.json"), "utf8"),
) as BooleanGolden;

const FORMATS: readonly TableRecordType[] = ["csv", "json", "arrow", "parquet"];
const extensionOf = (type: TableRecordType): string => formatOf(type).extensions[0].slice(1);

function booleanTable(flag: readonly (boolean | null)[], x: readonly number[], label?: readonly string[]): Table {
  return {
    rowCount: flag.length,
    columns: [
      { name: "flag", kind: "boolean", values: flag },
      { name: "x", kind: "number", values: Float64Array.from(x) },
      ...(label ? [{ name: "label", kind: "string" as const, values: label }] : []),
    ],
  };
}

async function fileOf(table: Table, type: TableRecordType, name: string): Promise<string> {
  const path = join(dir.path, `${name}.${extensionOf(type)}`);
  writeFileSync(path, await collect(writeTable(type, table)));
  return path;
}

/** The job's output column as numbers (the output is read in the input's format). */
async function outputColumn(path: string, type: TableRecordType, name: string): Promise<Table["columns"][number]> {
  const table = await readTable(type, readFileSync(path));
  const column = table.columns.find((c) => c.name === name);
  if (column === undefined) throw new Error(`no column ${name}`);
  return column;
}

function expectClose(got: ArrayLike<number>, want: readonly (number | null)[], label: string): void {
  expect(got.length, label).toBe(want.length);
  want.forEach((w, i) => {
    const g = got[i] as number;
    if (w === null) expect(Number.isNaN(g), `${label}[${i}]`).toBe(true);
    else expect(Math.abs(g - w), `${label}[${i}]: ${g} vs ${w}`).toBeLessThanOrEqual(4e-16 * Math.max(1, Math.abs(w)));
  });
}

describe(`boolean feature columns, as scikit-learn ${golden.sklearn} takes them`, () => {
  const { flag, x, label } = golden.frame;

  for (const type of FORMATS) {
    it(`${type}: a named boolean column is transformed as 1/0 (StandardScaler, MinMaxScaler)`, async () => {
      const input = await fileOf(booleanTable(flag, x, label), type, `bool-${type}`);
      for (const [kind, want] of [
        ["StandardScaler", golden.StandardScaler],
        ["MinMaxScaler", golden.MinMaxScaler],
      ] as const) {
        const job = await session().preprocess(input, { type: kind, columns: ["flag", "x"] });
        await job.wait();
        const out = join(dir.path, `bool-${type}-${kind}-out.${extensionOf(type)}`);
        await job.download(out);
        const transformed = await outputColumn(out, type, "flag");
        // The transformed column holds floats, as scikit-learn returns.
        expect(transformed.kind, `${type} ${kind}`).toBe("number");
        expectClose(transformed.values as Float64Array, want[0] as number[], `${type} ${kind} flag`);
        expectClose((await outputColumn(out, type, "x")).values as Float64Array, want[1] as number[], `${type} x`);
      }
    });

    it(`${type}: a boolean column with a missing value; a passed-through one stays booleans`, async () => {
      const missing = golden.missing_frame;
      const input = await fileOf(booleanTable(missing.flag, missing.x), type, `bool-missing-${type}`);
      const job = await session().preprocess(input, { type: "StandardScaler", columns: ["flag", "x"] });
      await job.wait();
      const out = join(dir.path, `bool-missing-${type}-out.${extensionOf(type)}`);
      await job.download(out);
      const want = golden.StandardScaler_missing;
      expectClose((await outputColumn(out, type, "flag")).values as Float64Array, want[0] ?? [], `${type} flag`);

      const through = await session().preprocess(input, { type: "StandardScaler", columns: ["x"] });
      await through.wait();
      const back = join(dir.path, `bool-through-${type}-out.${extensionOf(type)}`);
      await through.download(back);
      const passed = await outputColumn(back, type, "flag");
      expect(passed.kind).toBe("boolean");
      expect(passed.values).toEqual(missing.flag);
    });
  }

  it("danfo: a boolean column of a DataFrame is a 0/1 feature", async () => {
    const df = dataFrameFromTable(booleanTable(flag, x, label));
    const job = await session().preprocess(df, { type: "StandardScaler", columns: ["flag", "x"] });
    const frame = await job.dataframe();
    expectClose(frame.column("flag").values as number[], golden.StandardScaler[0] as number[], "danfo flag");
    expect(frame.column("label").values).toEqual(label);
  });

  it("session.check takes a named boolean column as a feature; job.transformer() applies the fit to new booleans", async () => {
    const path = await fileOf(booleanTable(flag, x, label), "csv", "bool-check");
    const report = await session().check(path, { type: "StandardScaler", columns: ["flag", "x"] });
    expect(report.problems).toEqual([]);
    expect(report.features).toEqual(["flag", "x"]);
    expect(report.columns.find((c) => c.name === "flag")).toMatchObject({ feature: true, min: 0, max: 1 });
    const job = await session().preprocess(path, { type: "StandardScaler", columns: ["flag", "x"] });
    const transformer = await job.transformer();
    const fresh = dataFrameFromTable(booleanTable([true, false], [1.5, 2.0]));
    const out = transformer.transform(fresh);
    // The same mean and scale as the fit: rows 0 and 1 of the golden output.
    expectClose(out.column("flag").values as number[], (golden.StandardScaler[0] ?? []).slice(0, 2), "transform flag");
  });

  it("CSV: a file spelling true/false in lower case keeps that spelling through a CSV output", async () => {
    const path = join(dir.path, "lower.csv");
    writeFileSync(path, "flag,x\ntrue,1.5\nfalse,2.5\n");
    const job = await session().preprocess(path, {
      type: "MinMaxScaler",
      columns: ["x"],
      outputs: { recordType: "csv" },
    });
    await job.wait();
    const out = join(dir.path, "lower-out.csv");
    await job.download(out);
    expect(readFileSync(out, "utf8")).toBe("flag,x\ntrue,0.0\nfalse,1.0\n");
    // Through another format the spelling is pandas' (Arrow has booleans, not their text).
    const arrow = await session().preprocess(path, { type: "MinMaxScaler", columns: ["x"] });
    await arrow.download(join(dir.path, "lower-arrow-out.csv"));
    expect(readFileSync(join(dir.path, "lower-arrow-out.csv"), "utf8")).toBe("flag,x\nTrue,0.0\nFalse,1.0\n");
  });
});

describe('an empty column name stays "" beside a real column named "null"', () => {
  // pandas' default to_csv() writes its index as a column with an empty name.
  const csv = ",null,x\n0,7,1.5\n1,8,2.5\n2,9,4.0\n";

  for (const type of FORMATS) {
    it(`${type}: in the output file, job.table() and job.dataframe()`, async () => {
      const source = await readTable("csv", csv);
      expect(source.columns.map((c) => c.name)).toEqual(["", "null", "x"]);
      const input = await fileOf(source, type, `names-${type}`);
      const back = await readTable(type, readFileSync(input));
      expect(
        back.columns.map((c) => c.name),
        type,
      ).toEqual(["", "null", "x"]);

      const job = await session().preprocess(input, { type: "StandardScaler", columns: ["x"] });
      await job.wait();
      const arrow = await job.table();
      expect(
        arrow.schema.fields.map((f) => f.name),
        `${type} job.table()`,
      ).toEqual(["", "null", "x"]);
      expect(Array.from(arrow.getChild("")?.toArray() as Float64Array)).toEqual([0, 1, 2]);
      expect(Array.from(arrow.getChild("null")?.toArray() as Float64Array)).toEqual([7, 8, 9]);
      const frame = await job.dataframe();
      expect(frame.columns, `${type} job.dataframe()`).toEqual(["", "null", "x"]);
      expect(frame.column("null").values).toEqual([7, 8, 9]);
    });
  }
});

describe("CSV numbers as pandas reads them, through the Session", () => {
  it("session.check sees a column of numbers with spaces around them as numeric, and the job transforms it", async () => {
    const path = join(dir.path, "spaced.csv");
    writeFileSync(path, "a, b, c\n1, 2.5, x\n2,3.5 , y\n3, 4.5,z\n");
    const report = await session().check(path);
    const b = report.columns.find((c) => c.name === " b");
    expect(b?.dtype).toBe("float64");
    expect(report.features).toEqual(["a", " b"]);
    const notices: string[] = [];
    const off = session().onNotice((m) => notices.push(m));
    try {
      const job = await session().preprocess(path, { type: "MinMaxScaler" });
      const frame = await job.dataframe();
      expect(frame.column(" b").values).toEqual([0, 0.5, 1]);
      expect(frame.column(" c").values).toEqual([" x", " y", "z"]);
    } finally {
      off();
    }
    expect(notices.join("\n")).toMatch(/3 numbers with spaces around them/);
  });

  it("reads 17-digit numbers (%.17g) as float64 and transforms them; an integer beyond 2^53 is refused naming its value", async () => {
    const path = join(dir.path, "digits.csv");
    const rows = ["a,id"];
    for (let i = 0; i < 40; i++)
      rows.push(`${(Math.sin(i) * 50).toPrecision(17)},${9007199254740993n + 2n * BigInt(i)}`);
    rows[5] = "43.925381463197915,12345678901234567891";
    writeFileSync(path, rows.join("\n") + "\n");
    const job = await session().preprocess(path, { type: "StandardScaler", columns: ["a"] });
    const frame = await job.dataframe();
    expect((frame.column("a").values as number[]).every((v) => Number.isFinite(v))).toBe(true);
    await expect(session().preprocess(path, { type: "StandardScaler", columns: ["id"] })).rejects.toThrow(
      /integers beyond ±2\^53[^"]*"9007199254740993" \(data row 1\)/,
    );
  });
});
