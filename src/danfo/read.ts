/**
 * `readCsv` and `readFile`: a file (or CSV text) to a danfo DataFrame, read the way
 * `pandas.read_csv` reads it, with the readers the Session uses for uploads. danfo's own
 * `dfd.readCSV` keeps "NA", "n/a", "null" and the like as text, so a numeric column with
 * one such cell becomes a text column that no transform takes.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { DataFrame } from "danfojs-node";
import { PANDAS_NA_VALUES, type CsvDelimiter } from "../core/formats/csv-dialect.js";
import { PANDAS_CSV, readCsv as readCsvTable } from "../core/formats/csv.js";
import { dataFrameFromTable } from "../core/formats/danfo.js";
import { FormatError } from "../core/formats/format-error.js";
import { extensionChoices } from "../core/formats/registry.js";
import { parseNumberText } from "../core/formats/number-text.js";
import { readTable } from "../core/formats/index.js";
import type { Source } from "../core/formats/source.js";
import type { Table } from "../core/formats/table.js";
import { rememberFrameOrigin } from "../session/frame-origin.js";
import { assertFrameFits } from "../session/frame-size.js";
import { recordTypeOfPath } from "../session/table-io.js";

export interface ReadCsvOptions {
  /** The field separator: `","`, `";"`, `"\t"` or `"|"`; default `"auto"`, detected from the first lines as pandas' sniffing does. */
  readonly delimiter?: CsvDelimiter | "auto";
  /** More words read as missing values, beside pandas' own (pandas' `na_values`). */
  readonly naValues?: readonly string[];
  /** `false`: only `naValues` and empty fields are missing, not pandas' default words (pandas' `keep_default_na`). */
  readonly keepDefaultNa?: boolean;
  /**
   * pandas' `thousands`: a character skipped after each digit of a number's integer part,
   * `","` reads `"1,065"` as 1065 (in a comma-separated file such fields are quoted).
   */
  readonly thousands?: string;
  /** pandas' `decimal`: the decimal point's character, `","` reads `2,5` as 2.5 (with `delimiter: ";"`). */
  readonly decimal?: string;
}

/** The frame's source: "data/wine.csv", or "the CSV text" for text passed in. */
type Named = { readonly source: Source; readonly what: string; readonly path?: string };

const INSTEAD =
  "Preprocess the file without a frame (session.preprocess(path), then job.download(path)), " +
  "or give Node more heap: node --max-old-space-size=<MiB>.";

function frameOf(table: Table, what: string, path?: string): DataFrame {
  assertFrameFits({ rows: table.rowCount, columns: table.columns.length }, what, INSTEAD);
  const frame = dataFrameFromTable(table);
  // An upload of the frame is named after its file.
  if (path !== undefined) rememberFrameOrigin(frame, path);
  return frame;
}

async function openFile(path: string, caller: string): Promise<Named> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) {
    throw new FormatError(`${caller}: no such file ${path} (paths are relative to ${process.cwd()})`);
  }
  if (!info.isFile()) throw new FormatError(`${caller}: ${path} is a folder, not a file`);
  return { source: createReadStream(resolve(path), { highWaterMark: 1 << 20 }), what: path, path };
}

/** Text with a line break is CSV text; any other string names a file. */
async function csvSource(input: string | Uint8Array): Promise<Named> {
  if (input instanceof Uint8Array) return { source: input, what: "the CSV bytes" };
  if (/[\r\n]/.test(input)) return { source: input, what: "the CSV text" };
  return openFile(input, "readCsv");
}

async function csvFrame(named: Named, options: ReadCsvOptions): Promise<DataFrame> {
  const words = [...(options.keepDefaultNa === false ? [""] : PANDAS_NA_VALUES), ...(options.naValues ?? [])];
  const table = await readCsvTable(named.source, {
    ...PANDAS_CSV,
    delimiter: options.delimiter ?? "auto",
    naValues: words,
    ...(options.thousands === undefined ? {} : { thousands: options.thousands }),
    ...(options.decimal === undefined ? {} : { decimal: options.decimal }),
  });
  return frameOf(numericNaValues(table, options.naValues ?? []), named.what, named.path);
}

/**
 * The CSV reader applies missing-value words to text; a word that is a number ("-999")
 * also marks that number missing in numeric columns, as pandas' `na_values` does.
 */
function numericNaValues(table: Table, words: readonly string[]): Table {
  const numbers = new Set(words.map(parseNumberText).filter((x): x is number => x !== undefined));
  if (numbers.size === 0) return table;
  for (const column of table.columns) {
    if (column.kind !== "number") continue;
    const values = column.values;
    for (let i = 0; i < values.length; i++) if (numbers.has(values[i] as number)) values[i] = NaN;
  }
  return table;
}

/**
 * A CSV file, or CSV text, as a danfo DataFrame, read as `pandas.read_csv` reads it: the
 * separator detected among `,` `;` tab and `|`, pandas' missing-value words ("NA", "N/A",
 * "null", "NaN", "#N/A", ...) and empty fields as missing, short rows filled with missing
 * values, numbers with spaces around them as numbers, `True`/`False` as booleans, a UTF-8
 * BOM dropped; `thousands` and `decimal` as pandas' options. A column is numeric when every value is a number or missing;
 * numbers keep all their digits (float64). A string with a line break is read as CSV text,
 * any other string as a path.
 *
 * @example
 * import { readCsv } from "mdps/danfo";
 * const wine = await readCsv("data/wine.csv");
 * const small = await readCsv("x,label\n1.5,a\nNA,b\n"); // x: 1.5, NaN
 * const sales = await readCsv('item,units\nbolts,"1,065"\n', { thousands: "," }); // units: 1065
 */
export async function readCsv(input: string | Uint8Array, options: ReadCsvOptions = {}): Promise<DataFrame> {
  return csvFrame(await csvSource(input), options);
}

/**
 * A data file as a danfo DataFrame, by its extension: `.csv` as `readCsv` reads it,
 * `.json` (an array of row objects), `.arrow`/`.feather`/`.ipc` and `.parquet`/`.pq`.
 *
 * @example
 * import { readFile } from "mdps/danfo";
 * const frame = await readFile("data/sensors.parquet");
 */
export async function readFile(path: string, options: ReadCsvOptions = {}): Promise<DataFrame> {
  const type = recordTypeOfPath(path);
  if (type === undefined) {
    throw new FormatError(
      `readFile: cannot tell the format of ${path} from its extension; name it ${extensionChoices()}`,
    );
  }
  const named = await openFile(path, "readFile");
  if (type === "csv") return csvFrame(named, options);
  return frameOf(await readTable(type, named.source), path, path);
}
