/**
 * CSV (RFC 4180, header row, UTF-8, empty field = missing) <-> Table, streaming both
 * ways. Exact rules: docs/formats.md.
 */
import { AutoColumnBuilder, NumberColumnBuilder, TextArchive, type CsvColumnBuilder } from "./csv-columns.js";
import { csvCellWriter, csvField } from "./csv-cells.js";
import { CsvTokenizer } from "./csv-parser.js";
import {
  CSV_DELIMITERS,
  delimiterName,
  emptyCsvReadReport,
  PANDAS_NA_VALUES,
  sniffDelimiter,
  type CsvDelimiter,
  type CsvReadReport,
} from "./csv-dialect.js";
import { ByteChunker } from "./byte-chunker.js";
import type { TableCodec, TableWriteOptions } from "./codec.js";
import { FormatError } from "./format-error.js";
import { parseNumberRange } from "./number-text.js";
import { numberFieldParser, type NumberFieldParser } from "./pandas-number.js";
import { byteChunks, type Source } from "./source.js";
import type { Table } from "./table.js";

/** Text is decoded and tokenized in pieces of at most this many bytes (or characters). */
const PIECE = 1 << 20;

export interface CsvReadOptions {
  /**
   * Which columns are numbers (Float64Array, NaN = missing). `"auto"` (default): every
   * column whose non-empty fields all parse as numbers, as pandas reads it, unless a
   * field's digits are more than a double holds (then the column is text, digits kept).
   * A list: those columns must be numbers (a non-numeric value is a FormatError), and
   * every other column is read as `"auto"` reads it.
   */
  readonly numericColumns?: "auto" | readonly string[];
  /**
   * The field separator: `,` (default, the contract's CSV), `;`, tab or `|`, or
   * `"auto"` to detect it from the first lines (see sniffDelimiter).
   */
  readonly delimiter?: CsvDelimiter | "auto";
  /** Fields spelling one of these words are missing values too (default none: only empty fields). */
  readonly naValues?: readonly string[];
  /** A data row with fewer fields than the header: an error (default), or filled with missing values (pandas). */
  readonly shortRows?: "error" | "missing";
  /** Read numbers with spaces around them (`" 2.5"`, `"2.5 "`) as numbers, as pandas does (default false). */
  readonly spacedNumbers?: boolean;
  /** pandas' `thousands`: `","` reads `"1,065"` as 1065 (a comma-separated file must quote such fields). */
  readonly thousands?: string;
  /** pandas' `decimal`: `","` reads `"2,5"` as 2.5 (default `"."`). */
  readonly decimal?: string;
  /** Filled in while reading: what the file holds beyond the contract's CSV. */
  readonly report?: CsvReadReport;
}

/**
 * `pandas.read_csv`'s defaults: separator detected among `,` `;` tab `|`, pandas 1.5.3's
 * missing-value words, short rows filled with missing values. The BOM is dropped always.
 */
export const PANDAS_CSV: Pick<CsvReadOptions, "delimiter" | "naValues" | "shortRows" | "spacedNumbers"> = {
  delimiter: "auto",
  naValues: PANDAS_NA_VALUES,
  shortRows: "missing",
  spacedNumbers: true,
};

/** Bytes of text detection looks at before choosing the separator. */
const SNIFF_CHARS = 1 << 16;

export type CsvWriteOptions = TableWriteOptions;

interface BuilderSetup {
  readonly numericColumns: "auto" | readonly string[];
  /** The tokenizer's per-column hint to parse numbers while scanning (left false when the parser reads more). */
  readonly hint: boolean[];
  readonly fastPath: boolean;
  readonly archive: TextArchive;
  readonly parse: NumberFieldParser;
}

function makeBuilders(header: string[], setup: BuilderSetup): CsvColumnBuilder[] {
  const { numericColumns, archive, parse } = setup;
  const hint = setup.fastPath ? setup.hint : [];
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) {
      throw new FormatError(`CSV header names column "${name}" twice; column names must be unique`, { column: name });
    }
    seen.add(name);
  }
  if (numericColumns === "auto") {
    header.forEach((_, k) => (hint[k] = true));
    let numeric = header.length;
    return header.map(
      (name, k) =>
        new AutoColumnBuilder(name, archive, parse, () => {
          hint[k] = false;
          // No column left that may need its texts back: stop keeping the text.
          if (--numeric === 0) archive.release();
        }),
    );
  }
  const missing = numericColumns.filter((name) => !seen.has(name));
  if (missing.length > 0) {
    throw new FormatError(
      `column${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")} not found; ` +
        `the CSV has columns ${header.map((h) => `"${h}"`).join(", ")}`,
      { column: missing[0] as string },
    );
  }
  // The named columns must be numbers; every other column is numeric when its values all are.
  const numeric = new Set(numericColumns);
  header.forEach((_, k) => (hint[k] = true));
  let undecided = header.filter((name) => !numeric.has(name)).length;
  if (undecided === 0) archive.release();
  return header.map((name, k) =>
    numeric.has(name)
      ? new NumberColumnBuilder(name, parse)
      : new AutoColumnBuilder(name, archive, parse, () => {
          hint[k] = false;
          if (--undecided === 0) archive.release();
        }),
  );
}

/**
 * Reads CSV into a Table, piece by piece: feature columns go straight into
 * Float64Arrays, the text is never held whole.
 *
 * @example const table = await readCsv(fs.createReadStream("data.csv"), { numericColumns: ["x", "y"] });
 */
export async function readCsv(source: Source, options: CsvReadOptions = {}): Promise<Table> {
  const numericColumns = options.numericColumns ?? "auto";
  const report = options.report ?? emptyCsvReadReport();
  const na = options.naValues && options.naValues.length > 0 ? new Set(options.naValues) : undefined;
  const naMax = na ? Math.max(...[...na].map((w) => w.length)) : 0;
  const fillShort = options.shortRows === "missing";
  const parse = countingSpaced(
    numberFieldParser({
      spaces: options.spacedNumbers,
      thousands: options.thousands,
      decimal: options.decimal,
    }),
    report,
  );
  const fastPath = options.thousands === undefined && (options.decimal ?? ".") === ".";
  let delimiter = options.delimiter === "auto" ? undefined : (options.delimiter ?? ",");
  if (delimiter !== undefined && !(CSV_DELIMITERS as readonly string[]).includes(delimiter)) {
    throw new FormatError(`unknown CSV delimiter ${JSON.stringify(delimiter)}; use ",", ";", "\t" or "|"`);
  }
  /** What the first lines look like, to name another separator in an error. */
  let sniffed: CsvDelimiter = ",";
  let builders: CsvColumnBuilder[] | undefined;
  const archive = new TextArchive();
  let width = 0;
  let rows = 0;
  const tokenizer: CsvTokenizer = new CsvTokenizer(() => {
    const { fieldSrc, fieldStart, fieldEnd, fieldCount, fieldIsNumber, fieldNumber, fieldIsInteger } = tokenizer;
    if (builders === undefined) {
      const header = fieldSrc.slice(0, fieldCount).map((src, k) => src.slice(fieldStart[k], fieldEnd[k]));
      if (header.length === 1 && header[0] === "") {
        throw new FormatError("the CSV starts with an empty line; the first line must be the header row");
      }
      builders = makeBuilders(header, { numericColumns, hint: tokenizer.numberHint, fastPath, archive, parse });
      width = fieldCount;
      return;
    }
    let given = width;
    if (fieldCount !== width) {
      // A blank line is a record of one empty field: a missing value when the table has
      // one column, skipped otherwise (as pandas does).
      if (fieldCount === 1 && fieldStart[0] === fieldEnd[0]) return;
      if (fieldCount > width || !fillShort)
        throw fieldCountError(rows + 1, fieldCount, width, delimiter ?? ",", sniffed);
      given = fieldCount;
      report.shortRows++;
      report.firstShortRow ??= rows + 1;
    }
    rows++;
    for (let c = 0; c < given; c++) {
      const builder = builders[c] as CsvColumnBuilder;
      if (fieldIsNumber[c] === true) {
        builder.addNumber(
          fieldNumber[c] as number,
          fieldSrc[c] as string,
          fieldStart[c] as number,
          fieldEnd[c] as number,
          fieldIsInteger[c] === true,
        );
      } else {
        const src = fieldSrc[c] as string;
        const start = fieldStart[c] as number;
        let end = fieldEnd[c] as number;
        // Only fields that did not parse as numbers on the fly get here: the fast path pays nothing.
        if (na !== undefined && end > start && end - start <= naMax) {
          const text = src.slice(start, end);
          if (na.has(text)) {
            end = start;
            report.missingWords++;
            report.wordsSeen.add(text);
          }
        }
        builder.add(src, start, end, rows);
      }
    }
    for (let c = given; c < width; c++) (builders[c] as CsvColumnBuilder).add("", 0, 0, rows);
  });

  let head = "";
  const start = (text: string, complete: boolean) => {
    sniffed = sniffDelimiter(text, complete);
    delimiter ??= sniffed;
    report.delimiter = delimiter;
    tokenizer.separator = delimiter.charCodeAt(0);
  };

  let started = false;
  const feed = (piece: string) => {
    if (!started) {
      // Hold the first characters back until there are enough to see the separator.
      head += piece;
      if (head.length < SNIFF_CHARS) return;
      start(head, false);
      started = true;
      piece = head;
      head = "";
    }
    archive.add(piece);
    tokenizer.feed(piece);
  };
  const flush = () => {
    if (started) return;
    start(head, true);
    started = true;
    if (head !== "") {
      archive.add(head);
      tokenizer.feed(head);
    }
    head = "";
  };
  if (typeof source === "string") {
    const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
    for (let i = 0; i < text.length; i += PIECE) feed(text.slice(i, i + PIECE));
  } else {
    // fatal: invalid UTF-8 is an error, not U+FFFD in the data. The BOM is dropped.
    const decoder = new TextDecoder("utf-8", { fatal: true });
    try {
      for await (const chunk of byteChunks(source)) {
        for (let i = 0; i < chunk.length; i += PIECE)
          feed(decoder.decode(chunk.subarray(i, i + PIECE), { stream: true }));
      }
      feed(decoder.decode());
    } catch (err) {
      if (err instanceof TypeError && /decode|encoded|UTF-8/i.test(err.message)) {
        throw new FormatError(`the CSV is not valid UTF-8 (after data row ${rows}); save it as UTF-8`, { row: rows });
      }
      throw err;
    }
  }
  flush();
  tokenizer.end();
  if (builders === undefined) throw new FormatError("the CSV is empty; it needs at least a header row");
  return { columns: builders.map((b) => b.finish()), rowCount: rows };
}

/** A row with another number of fields than the header, with the likely cause. */
function fieldCountError(row: number, count: number, width: number, used: string, sniffed: string): FormatError {
  const counted = `CSV data row ${row} has ${count} field${count === 1 ? "" : "s"}, but the header has ${width}`;
  let cause: string;
  if (sniffed !== used) {
    cause =
      `the file looks separated by ${delimiterName(sniffed)}, not ${delimiterName(used)}: ` +
      (used === "," && width === 1
        ? `save it with commas (pandas: df.to_csv(path, index=False)), or read it with mdps's Session or REPL, which detect the separator`
        : `pass delimiter: ${JSON.stringify(sniffed)}`);
  } else if (count < width) {
    cause = `the row looks cut off (a field left out, or a line break inside an unquoted field); complete the row or leave the missing fields empty (${used}${used})`;
  } else {
    cause = `quote fields that contain ${delimiterName(used)} or line breaks, or check for a stray ${delimiterName(used)}`;
  }
  return new FormatError(`${counted}: ${cause}`, { row });
}

/** Writes a Table as CSV in chunks of about 64 KiB. */
// eslint-disable-next-line @typescript-eslint/require-await -- async by contract (writeTable's AsyncIterable); the encoding is synchronous
export async function* writeCsv(table: Table, options: CsvWriteOptions = {}): AsyncGenerator<Uint8Array> {
  const eol = options.lineEnding ?? "\n";
  const columns = table.columns;
  if (columns.length === 0) return;
  const chunker = new ByteChunker(options.chunkBytes ?? 64 * 1024);
  const single = columns.length === 1;
  chunker.push(columns.map((c) => (single && c.name === "" ? '""' : csvField(c.name))).join(",") + eol);
  const cells = columns.map((c) => csvCellWriter(c, single));
  // Rows of numbers and booleans are ASCII, which encodes faster.
  const ascii = columns.every((c) => c.kind !== "string");
  const width = cells.length;
  const first = cells[0] as (row: number) => string;
  for (let r = 0; r < table.rowCount; r++) {
    let line = first(r);
    for (let c = 1; c < width; c++) line += "," + (cells[c] as (row: number) => string)(r);
    chunker.push(line + eol, ascii);
    if (chunker.ready.length > 0) yield* chunker.drain();
  }
  chunker.finishChunk();
  yield* chunker.drain();
}

function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** The parser, counting the fields it read as numbers only because spaces around them were allowed. */
function countingSpaced(parse: NumberFieldParser, report: CsvReadReport): NumberFieldParser {
  if (parse === parseNumberRange) return parse;
  return (s, start, end) => {
    const x = parse(s, start, end);
    if (x !== undefined && (isSpaceCode(s.charCodeAt(start)) || isSpaceCode(s.charCodeAt(end - 1)))) {
      report.spacedNumbers++;
    }
    return x;
  };
}

/** CSV's reader and writer, for readTable and writeTable. */
export const codec: TableCodec = { read: readCsv, write: writeCsv };
