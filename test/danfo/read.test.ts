/**
 * mdps/danfo's readers and describe: files on disk in each format, read as pandas reads
 * them (NA words missing, numbers float64), and describe's numbers as pandas gives them.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe as group, expect, it } from "vitest";
import { describe, dfd, readCsv, readFile } from "../../src/danfo/index.js";
import { writeTable } from "../../src/core/formats/index.js";
import type { Table } from "../../src/core/formats/table.js";
import { tempDir } from "../session/session-fixture.js";

const dir = tempDir("mdps-danfo-read-");
afterAll(() => dir.remove());

const values = (df: dfd.DataFrame, name: string) => df.column(name).values as unknown[];

async function writeAs(type: "json" | "arrow" | "parquet", table: Table, name: string): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of writeTable(type, table)) parts.push(chunk);
  const path = join(dir.path, name);
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

group("readCsv", () => {
  it("reads pandas' missing-value words as missing, so a numeric column stays numeric", async () => {
    const path = join(dir.path, "wine.csv");
    writeFileSync(path, "alcohol,ash,label\n14.23,2.43,a\nNA,n/a,b\n13.2,,c\n0.1,-0,NULL\n");
    const df = await readCsv(path);
    expect(df.columns).toEqual(["alcohol", "ash", "label"]);
    expect(values(df, "alcohol")).toEqual([14.23, NaN, 13.2, 0.1]);
    expect(Object.is(values(df, "ash")[3], -0)).toBe(true);
    expect(values(df, "label")).toEqual(["a", "b", "c", null]);
    // danfo's own reader keeps "NA" as text: the column is not numeric there.
    const danfo = await dfd.readCSV(path);
    expect(danfo.column("alcohol").values).toContain("NA");
  });

  it("reads text with a line break as CSV, detects the separator, keeps 17 digits", async () => {
    const df = await readCsv("x;big;t\n0.1;9007199254740993;1e-300\n0.30000000000000004;2;x\n");
    expect(values(df, "x")).toEqual([0.1, 0.30000000000000004]);
    expect(values(df, "t")).toEqual(["1e-300", "x"]);
  });

  it("takes extra NA words, or only them", async () => {
    const text = "a,b\n-999,NA\n1,2\n";
    expect(values(await readCsv(text, { naValues: ["-999"] }), "a")).toEqual([NaN, 1]);
    expect(values(await readCsv(text, { keepDefaultNa: false }), "b")).toEqual(["NA", "2"]);
  });

  it("says which file is missing, relative to where", async () => {
    await expect(readCsv("data/no-such.csv")).rejects.toThrow(
      /readCsv: no such file data\/no-such\.csv \(paths are relative to /,
    );
    await expect(readCsv(dir.path)).rejects.toThrow(/is a folder, not a file/);
  });

  it("takes pandas' thousands and decimal options, as pandas.read_csv reads them", async () => {
    // pandas 1.5.3: thousands="," gives 1065 and 12345678.5; ",1" and "1,,0" stay text.
    const df = await readCsv('units,price,odd\n"1,065","12,345,678.5",",1"\n7,2,"1,,0"\n', { thousands: "," });
    expect(values(df, "units")).toEqual([1065, 7]);
    expect(values(df, "price")).toEqual([12345678.5, 2]);
    expect(values(df, "odd")).toEqual([",1", "1,,0"]);
    const european = await readCsv("a;b\n1.065,5;x\n2,25;y\n", { delimiter: ";", thousands: ".", decimal: "," });
    expect(values(european, "a")).toEqual([1065.5, 2.25]);
    // Without the option "1,065" is text, as in pandas.
    expect(values(await readCsv('units\n"1,065"\n'), "units")).toEqual(["1,065"]);
  });

  it("reads numbers with spaces around them as numbers and True/False as booleans, as pandas does", async () => {
    const df = await readCsv("a, b, c\n1, 2.5, True\n2,3 ,false\n");
    expect(df.columns).toEqual(["a", " b", " c"]);
    expect(values(df, " b")).toEqual([2.5, 3]);
    // " True" has a space: text to pandas too.
    expect(values(df, " c")).toEqual([" True", "false"]);
    const flags = await readCsv("flag\nTrue\nFALSE\nNA\nfalse\n");
    expect(values(flags, "flag")).toEqual([true, false, null, false]);
    expect(flags.dtypes).toEqual(["boolean"]);
  });
});

group("readFile", () => {
  const table: Table = {
    rowCount: 3,
    columns: [
      { name: "x", kind: "number", values: Float64Array.from([1.5, NaN, 1e300]) },
      { name: "s", kind: "string", values: ["a", null, "NA"] },
    ],
  };

  it.each(["json", "arrow", "parquet"] as const)("reads %s by its extension", async (type) => {
    const df = await readFile(await writeAs(type, table, `t.${type}`));
    expect(values(df, "x")).toEqual([1.5, NaN, 1e300]);
    expect(values(df, "s")).toEqual(["a", null, "NA"]);
  });

  it("reads .csv as readCsv does and names an unknown extension", async () => {
    const path = join(dir.path, "t.csv");
    writeFileSync(path, "x\n1\nNA\n");
    expect(values(await readFile(path), "x")).toEqual([1, NaN]);
    await expect(readFile(join(dir.path, "t.xlsx"))).rejects.toThrow(/name it \.csv, \.json, \.arrow or \.parquet/);
  });
});

group("describe", () => {
  it("skips missing values as pandas does (danfo's own gives NaN)", async () => {
    const df = await readCsv("x,y,label\n1.5,10,a\nNA,20,b\n3,30,a\n4,,a\n");
    const stats = describe(df);
    expect(stats.index).toEqual(["count", "mean", "std", "min", "25%", "50%", "75%", "max"]);
    expect(stats.columns).toEqual(["x", "y"]);
    // pandas: pd.read_csv(...).describe(): x count 3, mean 2.833333, std 1.258306, 25% 2.25, 75% 3.5
    expect(values(stats, "x")).toEqual([3, 8.5 / 3, expect.closeTo(1.2583057392117916, 15), 1.5, 2.25, 3, 3.5, 4]);
    expect(values(stats, "y")).toEqual([3, 20, 10, 10, 15, 20, 25, 30]);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- danfo's describe builds its frame through danfo's base class
    const danfos: dfd.DataFrame = df.describe();
    expect(danfos.column("x").values[1]).toBeNaN();
  });

  it("describes text columns when there is no numeric one (count, unique, top, freq)", () => {
    const stats = describe(new dfd.DataFrame({ s: ["a", "b", "a"] }));
    expect(stats.index).toEqual(["count", "unique", "top", "freq"]);
    expect(values(stats, "s")).toEqual([3, 2, "a", 2]);
  });
});
