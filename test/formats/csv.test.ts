import { describe, expect, it } from "vitest";
import { readCsv, writeCsv } from "../../src/core/formats/csv.js";
import type { Table } from "../../src/core/formats/table.js";
import { seededRandom } from "../../src/core/sample-data/seeded-random.js";
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

const asText = async (table: Table, lineEnding?: "\n" | "\r\n") =>
  (await collect(writeCsv(table, lineEnding ? { lineEnding } : {}))).toString("utf8");

/** Reads the same bytes whole, as a string, and in pieces of every size given. */
async function readAllWays(
  text: string,
  options: Parameters<typeof readCsv>[1] = {},
  sizes = [1, 2, 3, 7, 64],
): Promise<Table> {
  const bytes = utf8(text);
  const whole = await readCsv(bytes, options);
  expect(await readCsv(text, options)).toEqual(whole);
  for (const size of sizes) expect(await readCsv(pieces(bytes, size), options)).toEqual(whole);
  return whole;
}

describe("readCsv: RFC 4180", () => {
  it("reads quotes, escaped quotes, embedded commas and line breaks", async () => {
    const t = await readAllWays('id,text,"a ""b"""\n1,"x, y",2\n2,"say ""hi""\nnow",3\n3,"",4\n');
    expect(t.columns.map((c) => c.name)).toEqual(["id", "text", 'a "b"']);
    expect(textColumn(t, "text")).toEqual(["x, y", 'say "hi"\nnow', null]);
    expect(Array.from(numberColumn(t, 'a "b"'))).toEqual([2, 3, 4]);
  });

  it("treats CRLF and LF alike, with or without a trailing line break", async () => {
    const expected = await readAllWays("a,b\n1,x\n2,y\n");
    for (const text of ["a,b\r\n1,x\r\n2,y\r\n", "a,b\r\n1,x\r\n2,y", "a,b\n1,x\n2,y", "a,b\r1,x\r2,y\r"]) {
      expect(await readAllWays(text)).toEqual(expected);
    }
  });

  it("strips a UTF-8 byte order mark and keeps multi-byte characters across pieces", async () => {
    const t = await readAllWays("\uFEFFname,v\nZürich €,1\n東京 🗼,2\n");
    expect(t.columns[0]?.name).toBe("name");
    expect(textColumn(t, "name")).toEqual(["Zürich €", "東京 🗼"]);
  });

  it("reads empty fields as missing", async () => {
    const t = await readAllWays("a,b,c\n,,\n1,,x\n");
    expect(Array.from(numberColumn(t, "a"))).toEqual([NaN, 1]);
    expect(Array.from(numberColumn(t, "b"))).toEqual([NaN, NaN]);
    expect(textColumn(t, "c")).toEqual([null, "x"]);
  });

  it("skips blank lines when there are several columns, reads them as missing with one", async () => {
    expect((await readAllWays("a,b\n1,2\n\n3,4\n\n")).rowCount).toBe(2);
    const one = await readAllWays('a\n1\n\n""\n2\n');
    expect(Array.from(numberColumn(one, "a"))).toEqual([1, NaN, NaN, 2]);
  });

  it("reads a header-only file as zero rows", async () => {
    const t = await readAllWays("a,b\n");
    expect(t.rowCount).toBe(0);
    expect(t.columns.map((c) => c.name)).toEqual(["a", "b"]);
  });

  it("rejects malformed input with the place named", async () => {
    expect((await formatError(readCsv(""))).message).toMatch(/empty/);
    expect((await formatError(readCsv('a,b\n1,"x\n'))).message).toMatch(/not closed/);
    expect((await formatError(readCsv('a,b\n1,"x"y\n'))).message).toMatch(/data row 1.*after a closing quote/);
    const wide = await formatError(readCsv("a,b\n1,2\n3,4,5\n"));
    expect(wide.row).toBe(2);
    expect(wide.message).toMatch(/data row 2 has 3 fields, but the header has 2/);
    expect((await formatError(readCsv("a,a\n1,2\n"))).message).toMatch(/twice/);
    expect((await formatError(readCsv(new Uint8Array([0x61, 0x0a, 0xff, 0x0a])))).message).toMatch(/UTF-8/);
  });
});

describe("readCsv: numeric columns", () => {
  it("auto: a column is numeric when every non-empty field is a number", async () => {
    const t = await readAllWays("n,s,z,inf\n1.5,a,007,inf\n-2e3,1,,-Infinity\n.5,2,1,NaN\n");
    expect(Array.from(numberColumn(t, "n"))).toEqual([1.5, -2000, 0.5]);
    expect(textColumn(t, "s")).toEqual(["a", "1", "2"]);
    expect(Array.from(numberColumn(t, "z"))).toEqual([7, NaN, 1]);
    expect(Array.from(numberColumn(t, "inf"))).toEqual([Infinity, -Infinity, NaN]);
  });

  it("auto: a column that turns out to be text keeps every field's exact text", async () => {
    const rows = ["code,x,late"];
    for (let i = 0; i < 3_000; i++)
      rows.push(`${i % 3 === 0 ? `00${i}` : `${i}.50`},${i / 7},${i === 2_000 ? "n/a" : i}`);
    rows.push("A-1,1,2");
    // Pieces of 1 and 7 bytes split fields and records; 4096 keeps most fields whole.
    const t = await readAllWays(rows.join("\n"), {}, [1, 7, 4096]);
    const field = (k: number) => rows.slice(1).map((r) => r.split(",")[k] as string);
    expect(textColumn(t, "code")).toEqual(field(0));
    expect(textColumn(t, "late")).toEqual(field(2));
    expect(Array.from(numberColumn(t, "x")).slice(0, 3)).toEqual([0, 1 / 7, 2 / 7]);
  });

  it("does not take what Number() takes but a CSV reader should not", async () => {
    const t = await readAllWays('a,b,c,d,e\n0x10," 1",1 ,0b1,1e\n');
    for (const name of ["a", "b", "c", "d", "e"]) expect(t.columns.find((c) => c.name === name)?.kind).toBe("string");
  });

  it("explicit: the named columns must be numbers, the rest are read as pandas reads them", async () => {
    const t = await readAllWays("x,id,y,code,big\n1.50,007,2,A1,12345678901234567890\n,008,3,2,1\n", {
      numericColumns: ["x", "y"],
    });
    expect(Array.from(numberColumn(t, "x"))).toEqual([1.5, NaN]);
    // every value a number: numeric, as pandas reads 007
    expect(Array.from(numberColumn(t, "id"))).toEqual([7, 8]);
    expect(textColumn(t, "code")).toEqual(["A1", "2"]);
    // digits a double cannot hold: text, kept exactly
    expect(textColumn(t, "big")).toEqual(["12345678901234567890", "1"]);
  });

  it("auto: a decimal of any length is a number (as pandas reads it); an integer a double cannot hold, or an overflow, makes the column text", async () => {
    const t = await readAllWays(
      "long,short,tiny,huge,wide,exp,dec17\n0.10000000000000000555,0.1000000000000000000,1e-400,1e400,9007199254740993,1e3,44.057560280291973\n" +
        "1,2,0,1,2,-0.0,-43.925381463197915\n",
    );
    // pandas 1.5.3: float64 0.1 and 0.0; object for 1e400 (its parser overflows); int64 for
    // 9007199254740993, which mdps keeps as its exact text.
    expect(Array.from(numberColumn(t, "long"))).toEqual([0.1, 1]);
    expect(Array.from(numberColumn(t, "short"))).toEqual([0.1, 2]);
    expect(Array.from(numberColumn(t, "tiny"))).toEqual([0, 0]);
    expect(textColumn(t, "huge")).toEqual(["1e400", "1"]);
    expect(textColumn(t, "wide")).toEqual(["9007199254740993", "2"]);
    expect(Array.from(numberColumn(t, "exp"))).toEqual([1000, -0]);
    expect(Array.from(numberColumn(t, "dec17"))).toEqual([44.057560280291973, -43.925381463197915]);
  });

  it("explicit: a non-numeric value names the column, the data row and the value", async () => {
    const err = await formatError(readCsv("x,y\n1,2\n3,abc\n", { numericColumns: ["x", "y"] }));
    expect(err).toMatchObject({ column: "y", row: 2, value: "abc" });
    expect(err.message).toContain('column "y"');
    expect(err.message).toContain("data row 2");
    expect(err.message).toContain('"abc"');
  });

  it("explicit: a missing column is named and the columns are listed", async () => {
    const err = await formatError(readCsv("x,y\n1,2\n", { numericColumns: ["x", "nope"] }));
    expect(err.column).toBe("nope");
    expect(err.message).toMatch(/"nope".*"x", "y"/);
  });
});

describe("CSV float64 exactness", () => {
  it("round-trips hard doubles, -0, subnormals and extremes bit for bit", async () => {
    const values = hardDoubles(20_000);
    const table: Table = { columns: [{ name: "x", kind: "number", values }], rowCount: values.length };
    const text = await asText(table);
    for (const options of [{}, { numericColumns: ["x"] }]) {
      const back = await readCsv(utf8(text), options);
      expect(sameDoubles(numberColumn(back, "x"), values)).toBe(true);
    }
    // Each value agrees with Number() on the text the writer produced.
    const lines = text.split("\n").slice(1, -1);
    expect(lines.filter((line, i) => !Object.is(Number(line), values[i]))).toEqual([]);
  });

  it("parses like Number() on texts written by people", async () => {
    const rand = seededRandom(7);
    const texts: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const digits = String(Math.floor(rand() * 10 ** (1 + Math.floor(rand() * 18))));
      const point = Math.floor(rand() * (digits.length + 1));
      let t = `${digits.slice(0, point)}.${digits.slice(point)}`.replace(/^\.$/, "0");
      if (rand() < 0.3) t += `e${Math.floor(rand() * 60 - 30)}`;
      if (rand() < 0.3) t = `-${t}`;
      texts.push(t);
    }
    texts.push(
      "0.1000000000000000055511151231257827",
      "9007199254740993",
      "2.4703282292062328e-324",
      "1e-400",
      "1e400",
    );
    const back = numberColumn(await readCsv(`x\n${texts.join("\n")}\n`, { numericColumns: ["x"] }), "x");
    expect(texts.filter((t, i) => !Object.is(back[i], Number(t)))).toEqual([]);
  });
});

describe("writeCsv", () => {
  it("quotes only when needed and writes missing values as empty fields", async () => {
    const table: Table = {
      rowCount: 4,
      columns: [
        { name: "n", kind: "number", values: new Float64Array([1, NaN, -0, 1e21]) },
        { name: "s,t", kind: "string", values: ["plain", 'q"uote', " lead", null] },
        { name: "b", kind: "boolean", values: [true, false, null, true] },
      ],
    };
    // Floats as pandas' to_csv writes them (Python's repr), booleans as True/False.
    expect(await asText(table)).toBe('n,"s,t",b\n1.0,plain,True\n,"q""uote",False\n-0.0," lead",\n1e+21,,True\n');
    expect(await asText(table, "\r\n")).toContain("\r\n1.0,plain,True\r\n");
  });

  it('writes a missing value of a one-column table as "" so the line is not blank', async () => {
    const table: Table = {
      rowCount: 3,
      columns: [{ name: "a", kind: "number", values: new Float64Array([1, NaN, 2]) }],
    };
    const text = await asText(table);
    expect(text).toBe('a\n1.0\n""\n2.0\n');
    expect(sameDoubles(numberColumn(await readCsv(text), "a"), new Float64Array([1, NaN, 2]))).toBe(true);
  });

  it("gives back the same bytes for passthrough text columns, and exact digits a double cannot hold", async () => {
    const original =
      'id,name,x,note\nA007,"Smith, J",1.5,"line\nbreak"\n12345678901234567890,Zoë,,\n009," spaced ",2,"say ""hi"""\n010,,3.25,plain\n';
    const table = await readCsv(utf8(original), { numericColumns: ["x"] });
    // x is float64 to pandas (1.5, a missing value): its 2 is written 2.0, as to_csv does.
    expect(await asText(table)).toBe(original.replace(",2,", ",2.0,"));
  });

  it("writes a numeric passthrough column as pandas does: int64 as integers, float64 as repr", async () => {
    const table = await readCsv(utf8("x,n\n1,007\n2,1.50\n3,1e3\n"), { numericColumns: ["x"] });
    expect(await asText(table)).toBe("x,n\n1,7.0\n2,1.5\n3,1000.0\n");
  });

  it("emits chunks of bounded size", async () => {
    const n = 50_000;
    const values = new Float64Array(n).map((_, i) => i / 7);
    const sizes: number[] = [];
    for await (const chunk of writeCsv({ rowCount: n, columns: [{ name: "x", kind: "number", values }] }))
      sizes.push(chunk.length);
    expect(sizes.length).toBeGreaterThan(5);
    expect(Math.max(...sizes)).toBeLessThan(70 * 1024);
  });
});
