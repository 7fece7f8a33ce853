/**
 * The CSV rule for numbers, against pandas (test/fixtures/csv-dtypes/make_golden.py):
 * a column whose every non-empty value is a number is numeric, with pandas' values,
 * whether or not it is a feature column; a column of integers a double cannot hold
 * (pandas: uint64) is text, its digits exact; a decimal of any length is pandas' float.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readCsv } from "../../src/core/formats/csv.js";
import type { Column } from "../../src/core/formats/table.js";

interface Golden {
  kind: "number" | "text";
  pandas_dtype: string;
  values: Array<number | string | null>;
  exact: boolean;
}

const here = new URL("../fixtures/csv-dtypes/", import.meta.url);
const input = readFileSync(new URL("input.csv", here));
const golden = JSON.parse(readFileSync(new URL("golden.json", here), "utf8")) as { columns: Record<string, Golden> };

const decode = (v: number | string | null): number | string =>
  v === null ? NaN : v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : v;

function check(column: Column | undefined, want: Golden, name: string): void {
  if (want.exact) {
    expect(column?.kind, name).toBe("string");
    const text = readFileSync(new URL("input.csv", here), "utf8").split("\n").slice(1, -1);
    const k = Object.keys(golden.columns).indexOf(name);
    expect(column?.values, name).toEqual(text.map((line) => line.split(",")[k]));
    return;
  }
  expect(column?.kind, name).toBe(want.kind === "number" ? "number" : "string");
  const values: unknown[] = Array.from<unknown>(column?.values ?? []);
  const expected = want.values.map(decode);
  expect(values.length, name).toBe(expected.length);
  // == also takes -0 for pandas' int64 0 (it has no -0); NaN compared on its own
  values.forEach((v, i) => {
    const e = expected[i];
    expect(Number.isNaN(e) ? Number.isNaN(v as number) : v == e, `${name}[${i}]: ${String(v)} vs ${String(e)}`).toBe(
      true,
    );
  });
}

describe("CSV columns are numbers as pandas reads them", () => {
  it.each([["auto" as const], [["x"]]])("numericColumns %j", async (numericColumns) => {
    const table = await readCsv(input, { numericColumns });
    for (const [name, want] of Object.entries(golden.columns)) {
      check(
        table.columns.find((c) => c.name === name),
        want,
        name,
      );
    }
  });
});
