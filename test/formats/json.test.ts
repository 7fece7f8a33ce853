import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readJson, writeJson } from "../../src/core/formats/json.js";
import type { Table } from "../../src/core/formats/table.js";
import {
  collect,
  formatError,
  hardDoubles,
  numberColumn,
  pieces,
  sameDoubles,
  textColumn,
  utf8,
} from "./byte-sources.js";

async function readAllWays(text: string, options: Parameters<typeof readJson>[1] = {}): Promise<Table> {
  const bytes = utf8(text);
  const whole = await readJson(bytes, options);
  expect(await readJson(text, options)).toEqual(whole);
  for (const size of [1, 3, 16]) expect(await readJson(pieces(bytes, size), options)).toEqual(whole);
  return whole;
}

describe("readJson", () => {
  it("reads row objects into typed columns, null and absent keys as missing", async () => {
    const t = await readAllWays(
      '[{"x": 1.5, "s": "a \\"quoted\\" \\\\ {not a brace}", "b": true},\n {"x": null, "s": null, "b": false, "late": 3},\n {"s": "Zoë 🗼"}]',
    );
    expect(t.columns.map((c) => [c.name, c.kind])).toEqual([
      ["x", "number"],
      ["s", "string"],
      ["b", "boolean"],
      ["late", "number"],
    ]);
    expect(Array.from(numberColumn(t, "x"))).toEqual([1.5, NaN, NaN]);
    expect(textColumn(t, "s")).toEqual(['a "quoted" \\ {not a brace}', null, "Zoë 🗼"]);
    expect(t.columns[2]?.values).toEqual([true, false, null]);
    expect(Array.from(numberColumn(t, "late"))).toEqual([NaN, 3, NaN]);
  });

  it("reads an empty array and rejects what is not an array of objects", async () => {
    expect(await readAllWays(" [ ] ")).toEqual({ columns: [], rowCount: 0 });
    expect((await formatError(readJson('{"a": 1}'))).message).toMatch(/array of row objects/);
    expect((await formatError(readJson("[1, 2]"))).message).toMatch(/element 1 is not an object/);
    expect((await formatError(readJson('[{"a": 1}'))).message).toMatch(/truncated/);
    expect((await formatError(readJson('[{"a": 1}] x'))).message).toMatch(/after the end/);
    expect((await formatError(readJson('[{"a": 1,}]'))).message).toMatch(/invalid JSON/);
    for (const bad of ['[{"a": 1},]', '[,{"a": 1}]', '[{"a": 1},,{"a": 2}]', '[{"a": 1} {"a": 2}]', "[,]"]) {
      expect((await formatError(readJson(bad))).message).toMatch(/invalid JSON/);
    }
  });

  it("names column, row and value for a value of the wrong type", async () => {
    const err = await formatError(readJson('[{"x": 1}, {"x": 2}, {"x": "abc"}]', { numericColumns: ["x"] }));
    expect(err).toMatchObject({ column: "x", row: 3, value: "abc" });
    const mixed = await formatError(readJson('[{"x": "a"}, {"x": 2}]'));
    expect(mixed).toMatchObject({ column: "x", row: 2, value: "2" });
    const nested = await formatError(readJson('[{"x": [1, 2]}]'));
    expect(nested.message).toMatch(/nested/);
    const missing = await formatError(readJson('[{"x": 1}]', { numericColumns: ["y"] }));
    expect(missing.message).toMatch(/"y" not found.*"x"/);
  });
});

describe("writeJson", () => {
  it("round-trips hard doubles bit for bit, NaN as null, infinities as 1e999", async () => {
    const values = hardDoubles(5_000);
    values[100] = NaN;
    values[101] = Infinity;
    values[102] = -Infinity;
    const table: Table = {
      rowCount: values.length,
      columns: [
        { name: "x", kind: "number", values },
        { name: "s", kind: "string", values: Array.from(values, (_, i) => (i % 5 === 0 ? null : `v"${i}\n`)) },
      ],
    };
    const text = (await collect(writeJson(table))).toString("utf8");
    const rows = z.array(z.unknown()).parse(JSON.parse(text));
    expect(rows[100]).toEqual({ x: null, s: null });
    expect(rows[101]).toEqual({ x: Infinity, s: 'v"101\n' });
    expect(text).toContain('"x":1e999');
    const back = await readJson(utf8(text));
    expect(sameDoubles(numberColumn(back, "x"), values)).toBe(true);
    expect(textColumn(back, "s")).toEqual(table.columns[1]?.values);
  });

  it("writes valid JSON for empty and one-row tables", async () => {
    const empty = (await collect(writeJson({ rowCount: 0, columns: [] }))).toString();
    expect(JSON.parse(empty)).toEqual([]);
    const one: Table = { rowCount: 1, columns: [{ name: "b", kind: "boolean", values: [null] }] };
    expect(JSON.parse((await collect(writeJson(one))).toString())).toEqual([{ b: null }]);
  });
});
