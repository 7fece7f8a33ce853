import { createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { resolve } from "node:path";
import { writeTable } from "../../src/internal/index.js";
import { extensionChoices, formatLabels, recordTypeOfPath } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";
import { formatBytes } from "../format/cells.js";
import { dataFiles } from "./completers.js";
import { message, type Command } from "./types.js";

export const saveCommand: Command = {
  name: "save",
  aliases: ["write"],
  description: `Write a frame to a ${formatLabels()} file (format from the extension).`,
  usage: "/save <frame> <file> [--force]",
  details: [
    "An existing file is kept unless --force is given; a failed write leaves no partial file.",
    "Parquet is written snappy-compressed: numbers as DOUBLE, text as STRING, booleans as BOOLEAN.",
  ],
  flags: { force: "boolean" },
  complete: (ctx, args, partial) =>
    args.length === 0 ? ctx.frameNames() : args.length === 1 ? dataFiles(ctx, partial) : [],
  async action(ctx, args) {
    const [name, file] = args.positional;
    if (name === undefined || file === undefined)
      throw new ReplError("Which frame, and which file?", `Usage: ${this.usage}`);
    const path = resolve(ctx.workspace.cwd, file);
    const type = recordTypeOfPath(path);
    if (type === undefined)
      throw new ReplError(`Cannot tell the format of ${file}.`, `End the name in ${extensionChoices()}.`);
    const table = ctx.workspace.table(name);
    if (!args.flags.has("force") && (await stat(path).catch(() => undefined)) !== undefined) {
      throw new ReplError(`${file} exists.`, "Add --force to replace it, or pick another name.");
    }
    // Write beside the target, then rename: the file is either old or complete.
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      await pipeline(Readable.from(writeTable(type, table)), createWriteStream(tmp, { mode: 0o644 }), {
        signal: ctx.signal,
      });
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    const size = (await stat(path)).size;
    return message(`Saved ${name} to ${file} (${type}, ${table.rowCount} rows, ${formatBytes(size)}).`, "success");
  },
};
