import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import {
  assertFrameFits,
  dataFrameFromTable,
  describeReport,
  emptyCsvReadReport,
  isContractClean,
  PANDAS_CSV,
  readCsv,
} from "../../src/internal/index.js";
import { readTable } from "../../src/internal/index.js";
import { extensionChoices, formatLabels, recordTypeOfPath } from "../../src/internal/index.js";
import { isAbort, ReplError } from "../errors.js";
import { previewTable, shapeText } from "../format/frame-preview.js";
import { checkFrameName, frameNameFromPath } from "../workspace/frame-names.js";
import { readDelimiter } from "./check.js";
import { dataFiles } from "./completers.js";
import { message, type Command, type Output } from "./types.js";
import { foundWords, naFlag, numericTextColumns, numericTextMessage } from "../workspace/numeric-text.js";

/** `--na ?,-` as its words; a flag given without words is a mistake, said so. */
function naWords(value: string | true | undefined): string[] {
  const words = typeof value === "string" ? value.split(",").filter((w) => w !== "") : [];
  if (words.length === 0) throw new ReplError("--na needs the words to read as missing.", "For example: --na ?,-");
  return words;
}

export const loadCommand: Command = {
  name: "load",
  aliases: ["read"],
  description: `Read a ${formatLabels()} file into a named frame.`,
  usage: "/load <file> [as <name>] [--delimiter ;] [--na ?,-]",
  details: [
    "The name defaults to the file's name (data/sales 2024.csv -> sales_2024).",
    "CSV is read as pandas.read_csv reads it: the separator detected among , ; | and tab (--delimiter",
    "to choose), pandas' missing-value words (NA, N/A, null, NaN, #N/A, ...) and empty fields as missing,",
    "short rows filled with missing values, a UTF-8 BOM dropped. --na ?,- adds words read as missing",
    "(pandas' na_values). A column of numbers with a few such words is named, with the --na to use.",
    "JSON: an array of row objects.",
    "Parquet (.parquet): any codec; ints and floats are numbers, nulls missing; dates, timestamps, decimals",
    "and lists are read as their text (a frame has no Parquet types).",
  ],
  flags: { delimiter: "value", na: "value" },
  complete: (ctx, args, partial) => (args.length === 0 ? dataFiles(ctx, partial) : args.length === 1 ? ["as"] : []),
  async action(ctx, args) {
    const [file, as, given, ...extra] = args.positional;
    if (file === undefined || (as !== undefined && (as !== "as" || given === undefined)) || extra.length > 0) {
      throw new ReplError("Which file, and which name?", `Usage: ${this.usage}`);
    }
    const path = resolve(ctx.workspace.cwd, file);
    const type = recordTypeOfPath(path);
    if (type === undefined) throw new ReplError(`Cannot tell the format of ${file}.`, `Name it ${extensionChoices()}.`);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile())
      throw new ReplError(`No file ${file}.`, "Tab completes file names; paths are relative to where mdps started.");
    const name = checkFrameName(given ?? frameNameFromPath(file));
    const stream = createReadStream(path, { highWaterMark: 1 << 20, signal: ctx.signal });
    const report = emptyCsvReadReport();
    const delimiter = args.flags.has("delimiter") ? readDelimiter(String(args.flags.get("delimiter"))) : undefined;
    const na = args.flags.has("na") ? naWords(args.flags.get("na")) : [];
    if (na.length > 0 && type !== "csv") {
      throw new ReplError(
        `--na is for CSV files; ${file} is ${type}.`,
        "Its missing values are the format's own nulls.",
      );
    }
    const naValues = [...(PANDAS_CSV.naValues ?? []), ...na];
    const table = await (
      type === "csv"
        ? readCsv(stream, { ...PANDAS_CSV, naValues, ...(delimiter ? { delimiter } : {}), report })
        : readTable(type, stream)
    ).catch((error: unknown) => {
      // Ctrl+C while reading: a file on this machine, so nothing was sent anywhere.
      if (isAbort(error) && ctx.signal.aborted)
        throw new ReplError(`Stopped reading ${file}; no frame ${name} was made.`, `/load ${file} reads it again.`);
      throw error;
    });
    // A frame larger than the heap would end the REPL with a fatal out-of-memory: refuse it first.
    try {
      assertFrameFits(
        { rows: table.rowCount, columns: table.columns.length },
        file,
        "Preprocess the file without a frame from a script or notebook (session.preprocess(path), then job.download(path)), or start mdps with more heap: NODE_OPTIONS=--max-old-space-size=<MiB>.",
      );
    } catch (error) {
      if (error instanceof Error) throw new ReplError(`${file} is too large for a frame.`, error.message);
      throw error;
    }
    ctx.workspace.setFrame(name, dataFrameFromTable(table), { origin: file });
    const items: Output[] = [message(`Loaded ${file} into frame ${name}: ${shapeText(table)}.`, "success")];
    if (type === "csv" && !isContractClean(report)) {
      items.push(message(`Read as pandas.read_csv reads it: ${describeReport(report)}.`, "muted"));
    }
    if (na.length > 0) items.push(message(`Also read as missing: ${na.map((w) => `"${w}"`).join(", ")}.`, "muted"));
    const numericText = type === "csv" ? numericTextColumns(table) : [];
    const again = `/load ${file}${given ? ` as ${given}` : ""} ${naFlag([...na, ...foundWords(numericText)])} reads them as missing.`;
    for (const found of numericText) items.push(message(numericTextMessage(found, again), "warning"));
    return { type: "group", items: [...items, previewTable(table, 5)] };
  },
};
