import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { dataFrameFromTable } from "../../src/internal/index.js";
import { readTable } from "../../src/internal/index.js";
import { recordTypeOfPath } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";
import { previewTable, shapeText } from "../format/frame-preview.js";
import { checkFrameName, frameNameFromPath } from "../workspace/frame-names.js";
import { dataFiles } from "./completers.js";
import { message, type Command } from "./types.js";

export const loadCommand: Command = {
  name: "load",
  aliases: ["read"],
  description: "Read a CSV, JSON or Arrow file into a named frame.",
  usage: "/load <file> [as <name>]",
  details: [
    "The name defaults to the file's name (data/sales 2024.csv -> sales_2024).",
    "CSV: header row, empty field = missing. JSON: an array of row objects.",
  ],
  complete: (ctx, args, partial) => (args.length === 0 ? dataFiles(ctx, partial) : args.length === 1 ? ["as"] : []),
  async action(ctx, args) {
    const [file, as, given, ...extra] = args.positional;
    if (file === undefined || (as !== undefined && (as !== "as" || given === undefined)) || extra.length > 0) {
      throw new ReplError("Which file, and which name?", `Usage: ${this.usage}`);
    }
    const path = resolve(ctx.workspace.cwd, file);
    const type = recordTypeOfPath(path);
    if (type === undefined) throw new ReplError(`Cannot tell the format of ${file}.`, "Name it .csv, .json or .arrow.");
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile())
      throw new ReplError(`No file ${file}.`, "Tab completes file names; paths are relative to where mdps started.");
    const name = checkFrameName(given ?? frameNameFromPath(file));
    const table = await readTable(type, createReadStream(path, { highWaterMark: 1 << 20, signal: ctx.signal }));
    ctx.workspace.setFrame(name, dataFrameFromTable(table), { origin: file });
    return {
      type: "group",
      items: [message(`Loaded ${file} into frame ${name}: ${shapeText(table)}.`, "success"), previewTable(table, 5)],
    };
  },
};
