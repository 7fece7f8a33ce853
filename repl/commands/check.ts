import { createReadStream, existsSync } from "node:fs";
import { resolve } from "node:path";
import {
  didYouMean,
  isPreprocessingType,
  PANDAS_CSV,
  preflightRows,
  PREFLIGHT_HEADER,
  readCsv,
  recordTypeOfPath,
} from "../../src/internal/index.js";
import type { Table } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { splitList } from "./args.js";
import { columnList, dataFiles, featureColumns, transforms } from "./completers.js";
import { parseParams, resolveTransform } from "./transform-params.js";
import { message, type Command, type CommandContext, type Output } from "./types.js";
import { foundWords, naFlag, numericTextColumns, numericTextMessage } from "../workspace/numeric-text.js";

/**
 * `/check`: the pre-flight report of `session.check` for a frame or a file, before
 * anything is uploaded: per column dtype, missing, constant, id-like, min/max, and what
 * the job would warn about or refuse.
 */
export const checkCommand: Command = {
  name: "check",
  aliases: ["preflight"],
  description: "Check a frame or file for a transform before anything is uploaded.",
  usage: "/check <frame|file> [Type] [param=value ...] [--columns a,b] [--delimiter ;]",
  details: [
    "Per column: dtype, missing values, constant, id-like (unique increasing whole numbers), min and max.",
    "With a transform: the problems that would stop the job (a missing or text column, box-cox on",
    "data that is not strictly positive, missing values for Normalizer or Binarizer, a bad parameter)",
    "and the warnings it would give (n_quantiles above the row count, an id-like column transformed).",
    "A text column that is numbers but for a few words (? or -) is named, with the /load --na that reads them as missing.",
    "Nothing is sent to the service.",
  ],
  flags: { columns: "value", delimiter: "value" },
  complete(ctx, args, partial) {
    if (args[args.length - 1] === "--columns") {
      const source = args[0];
      return source && ctx.frameNames().includes(source) ? columnList(featureColumns(ctx, source), partial) : [];
    }
    if (args.length === 0) return [...ctx.frameNames(), ...dataFiles(ctx, partial)];
    if (args.length === 1) return transforms();
    return [];
  },
  async action(ctx, args) {
    const [source, typeName, ...paramWords] = args.positional;
    if (source === undefined) throw new ReplError("Which frame or file?", `Usage: ${this.usage}`);
    const ws = ctx.workspace;
    const type =
      typeName === undefined ? undefined : isPreprocessingType(typeName) ? typeName : resolveTransform(typeName);
    const params = type === undefined ? undefined : parseParams(type, paramWords);
    const columns = args.flags.has("columns") ? splitList(String(args.flags.get("columns"))) : undefined;
    const delimiter = args.flags.has("delimiter") ? readDelimiter(String(args.flags.get("delimiter"))) : undefined;
    const path = resolve(ws.cwd, source);
    if (!ws.hasFrame(source) && !existsSync(path)) {
      throw new ReplError(
        `No frame or file "${source}"${didYouMean(source, ws.frameNames())}.`,
        `Frames: ${ws.frameNames().join(", ") || "none"}; a file path is relative to where mdps started.`,
      );
    }
    const input = ws.hasFrame(source) ? ws.frame(source) : path;
    const report = await ws.session.check(input, { type, params, columns, delimiter });
    const items: Output[] = [
      {
        type: "table",
        title: `${source}: ${report.rows} rows${type ? `, checked for ${type}` : ""} (nothing was sent)`,
        columns: PREFLIGHT_HEADER,
        rows: preflightRows(report),
        numeric: [false, false, true, false, false, true, true, false, false],
      },
      ...report.warnings.map((w) => message(w.message, "warning")),
      ...(await numericTextNotes({ ctx, source, path, delimiter })),
    ];
    if (report.problems.length > 0) {
      items.push({
        type: "error",
        title: `The job would not be sent: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}.`,
        fields: report.problems.map((p) => `${p.field}: ${p.message}`),
      });
    } else if (type !== undefined) {
      items.push(message(`/preprocess ${source} ${type} would be sent.`, "success"));
    }
    return { type: "group", items };
  },
};

const DELIMITERS: Readonly<Record<string, "," | ";" | "\t" | "|">> = {
  ",": ",",
  ";": ";",
  "|": "|",
  tab: "\t",
  "\\t": "\t",
  "\t": "\t",
};

/** The text columns of the frame or CSV file that are numbers but for a few words, with the /load that fixes them. */
async function numericTextNotes(args: {
  ctx: CommandContext;
  source: string;
  path: string;
  delimiter: "," | ";" | "\t" | "|" | undefined;
}): Promise<Output[]> {
  const { ctx, source, path, delimiter } = args;
  const ws = ctx.workspace;
  let table: Table;
  let load: string;
  if (ws.hasFrame(source)) {
    table = ws.table(source);
    const origin = ws.frameInfo(source).origin;
    load = recordTypeOfPath(origin) === "csv" ? `/load ${origin} as ${source}` : "";
  } else {
    if (recordTypeOfPath(path) !== "csv") return [];
    table = await readCsv(createReadStream(path, { signal: ctx.signal }), {
      ...PANDAS_CSV,
      ...(delimiter ? { delimiter } : {}),
    });
    load = `/load ${source}`;
  }
  const found = numericTextColumns(table);
  if (found.length === 0) return [];
  const hint = load
    ? `${load} ${naFlag(foundWords(found))} reads them as missing.`
    : "replace them with missing values (NaN) before a transform.";
  return found.map((f) => message(numericTextMessage(f, hint), "warning"));
}

/** `--delimiter` as typed: `,` `;` `|` or `tab`. */
export function readDelimiter(text: string): "," | ";" | "\t" | "|" {
  const delimiter = DELIMITERS[text.toLowerCase()];
  if (delimiter === undefined) throw new ReplError(`Unknown delimiter "${text}".`, "Use , ; | or tab.");
  return delimiter;
}
