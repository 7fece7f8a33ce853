/**
 * JSON records (an array of row objects) <-> Table, streaming both ways. The text is
 * split into runs of whole rows and each run goes to the native JSON.parse (exact for
 * numbers). Rules: docs/formats.md.
 */
import { ByteChunker } from "./byte-chunker.js";
import type { TableCodec } from "./codec.js";
import { FormatError, quoteValue } from "./format-error.js";
import { GrowableFloat64 } from "./growable.js";
import { JsonArrayScanner } from "./json-scanner.js";
import { formatNumber } from "./number-text.js";
import { byteChunks, type Source } from "./source.js";
import type { Column, Table } from "./table.js";

export interface JsonReadOptions {
  /**
   * `"auto"` (default): a column is numeric when its values are numbers or null. A list:
   * those columns must hold numbers or null (anything else is a FormatError naming the
   * column, row and value) and must exist.
   */
  readonly numericColumns?: "auto" | readonly string[];
}

type Kind = Column["kind"];

function kindOf(value: unknown): Kind | "null" | "other" {
  if (value === null) return "null";
  switch (typeof value) {
    case "number":
      return "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    default:
      return "other";
  }
}

/** One column being read: its kind is fixed by its first non-null value. */
class JsonColumn {
  kind: Kind | undefined;
  numbers: GrowableFloat64 | undefined;
  items: (string | boolean | null)[] | undefined;
  /** Rows filled so far (rows without the key are filled as missing). */
  length = 0;

  constructor(
    readonly name: string,
    readonly mustBeNumber: boolean,
  ) {}

  private start(kind: Kind): void {
    this.kind = kind;
    if (kind === "number") {
      this.numbers = new GrowableFloat64();
      for (let i = 0; i < this.length; i++) this.numbers.push(NaN);
    } else {
      this.items = new Array<null>(this.length).fill(null);
    }
  }

  fillTo(rows: number): void {
    while (this.length < rows) this.add(null, this.length + 1);
  }

  add(value: unknown, row: number): void {
    if (this.length !== row - 1) this.fillTo(row - 1);
    const kind = kindOf(value);
    if (kind === "null") {
      if (this.numbers !== undefined) this.numbers.push(NaN);
      else if (this.items !== undefined) this.items.push(null);
      this.length++;
      return;
    }
    if (
      kind === "other" ||
      // A feature column may be booleans, as scikit-learn takes them (1 and 0).
      (this.mustBeNumber && kind !== "number" && kind !== "boolean") ||
      (this.kind !== undefined && kind !== this.kind)
    ) {
      throw this.badValue(value, row, kind);
    }
    if (this.kind === undefined) this.start(kind);
    if (kind === "number") (this.numbers as GrowableFloat64).push(value as number);
    else (this.items as (string | boolean | null)[]).push(value as string | boolean);
    this.length++;
  }

  private badValue(value: unknown, row: number, kind: string): FormatError {
    // value came from JSON.parse, so JSON.stringify gives its text back (never undefined).
    const text = typeof value === "string" ? value : JSON.stringify(value);
    const expected = this.kind ?? (this.mustBeNumber ? "number (or boolean)" : "number, string or boolean");
    const why =
      kind === "other"
        ? "nested objects and arrays are not supported"
        : `the column holds ${expected} values; a column keeps one type (null for missing)`;
    return new FormatError(`column "${this.name}", row ${row}: unexpected value ${quoteValue(text)}; ${why}`, {
      column: this.name,
      row,
      value: text,
    });
  }

  finish(rows: number): Column {
    this.fillTo(rows);
    if (this.kind === undefined && (this.mustBeNumber || this.items === undefined)) {
      // Only nulls: numeric, as CSV does for an all-empty column.
      const values = new Float64Array(rows).fill(NaN);
      return { name: this.name, kind: "number", values };
    }
    if (this.kind === "number")
      return { name: this.name, kind: "number", values: (this.numbers as GrowableFloat64).finish() };
    if (this.kind === "boolean") return { name: this.name, kind: "boolean", values: this.items as (boolean | null)[] };
    return { name: this.name, kind: "string", values: this.items as (string | null)[] };
  }
}

/** Reads JSON records piece by piece. Column order: first appearance of each key. */
export async function readJson(source: Source, options: JsonReadOptions = {}): Promise<Table> {
  const numeric =
    options.numericColumns === undefined || options.numericColumns === "auto"
      ? undefined
      : new Set(options.numericColumns);
  const columns: JsonColumn[] = [];
  const byName = new Map<string, JsonColumn>();
  let rows = 0;
  let lastKeys: string[] = [];

  const scanner = new JsonArrayScanner((text, first) => {
    let parsed: unknown[];
    try {
      parsed = JSON.parse(`[${text}]`) as unknown[];
    } catch (err) {
      throw new FormatError(`invalid JSON in the rows from row ${first} on: ${(err as Error).message}`, { row: first });
    }
    for (const row of parsed as Record<string, unknown>[]) {
      rows++;
      const keys = Object.keys(row);
      // Rows usually share their keys in the same order: skip the map lookups then.
      const same = keys.length === lastKeys.length && keys.every((k, i) => k === lastKeys[i]);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        let column = same ? (columns[i] as JsonColumn) : byName.get(key);
        if (column === undefined) {
          column = new JsonColumn(key, numeric?.has(key) ?? false);
          byName.set(key, column);
          columns.push(column);
        }
        column.add(row[key], rows);
      }
      if (!same) lastKeys = columns.length === keys.length && keys.every((k, i) => columns[i]?.name === k) ? keys : [];
    }
  });

  const piece = 1 << 20;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    if (typeof source === "string") {
      for (let i = 0; i < source.length; i += piece) scanner.feed(source.slice(i, i + piece));
    } else {
      for await (const chunk of byteChunks(source)) {
        for (let i = 0; i < chunk.length; i += piece)
          scanner.feed(decoder.decode(chunk.subarray(i, i + piece), { stream: true }));
      }
      scanner.feed(decoder.decode());
    }
  } catch (err) {
    if (err instanceof TypeError && /decode|encoded|UTF-8/i.test(err.message)) {
      throw new FormatError(`the JSON is not valid UTF-8 (after row ${rows})`, { row: rows });
    }
    throw err;
  }
  scanner.end();
  if (numeric !== undefined) {
    const missing = [...numeric].filter((name) => !byName.has(name));
    if (missing.length > 0) {
      throw new FormatError(
        `column${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")} not found; ` +
          `the JSON rows have keys ${columns.map((c) => `"${c.name}"`).join(", ")}`,
        { column: missing[0] as string },
      );
    }
  }
  return { columns: columns.map((c) => c.finish(rows)), rowCount: rows };
}

function jsonNumber(x: number): string {
  if (x !== x) return "null";
  // JSON has no infinity; 1e999 is valid JSON that every parser reads as infinity.
  if (x === Infinity) return "1e999";
  if (x === -Infinity) return "-1e999";
  return x === 0 ? formatNumber(x) : String(x);
}

function valueWriter(column: Column): (row: number) => string {
  switch (column.kind) {
    case "number": {
      const v = column.values;
      return (r) => jsonNumber(v[r] as number);
    }
    case "string": {
      const v = column.values;
      return (r) => {
        const s = v[r];
        return s === null || s === undefined ? "null" : JSON.stringify(s);
      };
    }
    case "boolean": {
      const v = column.values;
      return (r) => {
        const b = v[r];
        return b === null || b === undefined ? "null" : b ? "true" : "false";
      };
    }
  }
}

/** Writes JSON records, one row object per line, in chunks of about 64 KiB. */
// eslint-disable-next-line @typescript-eslint/require-await -- async by contract (writeTable's AsyncIterable); the encoding is synchronous
export async function* writeJson(table: Table, options: { chunkBytes?: number } = {}): AsyncGenerator<Uint8Array> {
  const chunker = new ByteChunker(options.chunkBytes ?? 64 * 1024);
  const keys = table.columns.map((c, k) => `${k === 0 ? "{" : ","}${JSON.stringify(c.name)}:`);
  const values = table.columns.map(valueWriter);
  const ascii = table.columns.every((c) => c.kind !== "string") && keys.every((k) => /^\p{ASCII}*$/u.test(k));
  const width = keys.length;
  chunker.push("[");
  for (let r = 0; r < table.rowCount; r++) {
    let line = r === 0 ? "\n" : ",\n";
    if (width === 0) line += "{";
    for (let c = 0; c < width; c++) line += (keys[c] as string) + (values[c] as (row: number) => string)(r);
    chunker.push(line + "}", ascii);
    if (chunker.ready.length > 0) yield* chunker.drain();
  }
  chunker.push(table.rowCount > 0 ? "\n]\n" : "]\n");
  chunker.finishChunk();
  yield* chunker.drain();
}

/** JSON records' reader and writer, for readTable and writeTable. */
export const codec: TableCodec = { read: readJson, write: writeJson };
