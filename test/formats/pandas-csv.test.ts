/**
 * The Session's and REPL's CSV reading against pandas.read_csv itself: the golden files
 * under test/fixtures/pandas-csv/ were written by make_golden.py there (pandas 1.5.3);
 * these tests need no Python.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PANDAS_CSV, readCsv } from "../../src/core/formats/csv.js";
import {
  emptyCsvReadReport,
  isContractClean,
  PANDAS_NA_VALUES,
  sniffDelimiter,
} from "../../src/core/formats/csv-dialect.js";
import type { Column } from "../../src/core/formats/table.js";
import { formatError, pieces } from "./byte-sources.js";

const DIR = join(import.meta.dirname, "../fixtures/pandas-csv");

interface Golden {
  readonly pandas: string;
  readonly sep: string;
  readonly rows: number;
  readonly columns: readonly { name: string; dtype: string; values: (number | string | null)[] }[];
}

function plain(column: Column): (number | string | boolean | null)[] {
  if (column.kind === "number") return Array.from(column.values, (x) => (Number.isNaN(x) ? null : x));
  return [...column.values];
}

const files = readdirSync(DIR).filter((f) => f.endsWith(".csv"));

describe("reading CSV like pandas.read_csv (golden files from pandas 1.5.3)", () => {
  it("has a golden file for every CSV", () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  for (const file of files) {
    it(file, async () => {
      const golden = JSON.parse(readFileSync(join(DIR, file.replace(/\.csv$/, ".golden.json")), "utf8")) as Golden;
      expect(golden.pandas).toBe("1.5.3");
      const bytes = readFileSync(join(DIR, file));
      const report = emptyCsvReadReport();
      const table = await readCsv(bytes, { ...PANDAS_CSV, report });
      expect(report.delimiter).toBe(golden.sep);
      expect(table.rowCount).toBe(golden.rows);
      expect(table.columns.map((c) => c.name)).toEqual(golden.columns.map((c) => c.name));
      golden.columns.forEach((expected, k) => {
        const column = table.columns[k] as Column;
        expect(column.kind, expected.name).toBe(expected.dtype === "object" ? "string" : "number");
        expect(plain(column), expected.name).toEqual(expected.values);
      });
      // The same in small pieces (a separator or a missing word split across them).
      expect(await readCsv(pieces(bytes, 3), PANDAS_CSV)).toEqual(table);
    });
  }
});

describe("the missing-value words", () => {
  it("are pandas 1.5.3's STR_NA_VALUES exactly (as make_golden.py read them from pandas)", () => {
    const fromPandas = JSON.parse(readFileSync(join(DIR, "na-values.json"), "utf8")) as {
      pandas: string;
      na_values: string[];
    };
    expect(fromPandas.pandas).toBe("1.5.3");
    expect([...PANDAS_NA_VALUES].sort()).toEqual([...fromPandas.na_values].sort());
  });

  it("keep a height column with NA numeric (it was a text column before)", async () => {
    const table = await readCsv("height\n170\nNA\n165\n", PANDAS_CSV);
    expect(table.columns[0]?.kind).toBe("number");
    const contract = await readCsv("height\n170\nNA\n165\n");
    expect(contract.columns[0]?.kind).toBe("string");
  });
});

describe("delimiter detection and the report", () => {
  it("detects , ; tab | and lets an explicit delimiter override it", async () => {
    expect(sniffDelimiter("a;b\n1,5;2\n")).toBe(";");
    expect(sniffDelimiter("a\tb\n1\t2\n")).toBe("\t");
    expect(sniffDelimiter("a|b\n1|2\n")).toBe("|");
    expect(sniffDelimiter("a,b;c\n1,2;3\n")).toBe(",");
    expect(sniffDelimiter('name,"x;y;z"\n1,2\n')).toBe(",");
    expect(sniffDelimiter("single\n1\n")).toBe(",");
    const forced = await readCsv("a;b,c\n1;2,3\n", { ...PANDAS_CSV, delimiter: "," });
    expect(forced.columns.map((c) => c.name)).toEqual(["a;b", "c"]);
  });

  it("reports what is not the contract's CSV", async () => {
    const report = emptyCsvReadReport();
    await readCsv("x,y,z\n1,NA,3\n4,5\n", { ...PANDAS_CSV, report });
    expect(report).toMatchObject({ delimiter: ",", missingWords: 1, shortRows: 1, firstShortRow: 2 });
    expect(isContractClean(report)).toBe(false);
    const clean = emptyCsvReadReport();
    await readCsv("\uFEFFx,y\n1,\n", { ...PANDAS_CSV, report: clean });
    expect(isContractClean(clean)).toBe(true);
  });
});

describe("error messages name the likely cause and the row", () => {
  it("another delimiter (the contract reader)", async () => {
    const error = await formatError(readCsv("a;b;c\n1;2;3\n4,5;6;7\n"));
    expect(error.message).toMatch(/data row 2 has 2 fields, but the header has 1/);
    expect(error.message).toMatch(/looks separated by ";", not ","/);
    expect(error.message).not.toMatch(/quote fields/);
  });

  it("a cut-off row: not the quoting hint", async () => {
    const error = await formatError(readCsv("x,y,z\n1,2,3\n4,5\n"));
    expect(error.message).toMatch(/data row 2 has 2 fields, but the header has 3: the row looks cut off/);
    expect(error.message).not.toMatch(/quote fields/);
    expect(error.row).toBe(2);
  });

  it("a row with more fields: the quoting hint", async () => {
    const error = await formatError(readCsv("x;y\n1;2\n3;4;5\n", PANDAS_CSV));
    expect(error.message).toMatch(/data row 2 has 3 fields, but the header has 2: quote fields that contain ";"/);
  });

  it("an unclosed quote names the row and field where it opened", async () => {
    const error = await formatError(readCsv('a,b\n1,2\n3,"x\n4,5\n', PANDAS_CSV));
    expect(error.message).toMatch(/data row 2, field 2: a quoted field is not closed/);
  });
});
