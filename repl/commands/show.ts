import { ReplError } from "../errors.js";
import { previewTable } from "../format/frame-preview.js";
import type { Command } from "./types.js";

export const showCommand: Command = {
  name: "show",
  aliases: ["head"],
  description: "Show the first rows of a frame (10 unless told).",
  usage: "/show <frame> [rows]",
  complete: (ctx, args) => (args.length === 0 ? ctx.frameNames() : []),
  action(ctx, args) {
    const [name, count] = args.positional;
    if (name === undefined)
      throw new ReplError(
        "Which frame?",
        `Usage: ${this.usage}. Frames: ${ctx.workspace.frameNames().join(", ") || "none yet"}.`,
      );
    const rows = count === undefined ? 10 : Number(count);
    if (!Number.isInteger(rows) || rows < 1)
      throw new ReplError(`"${count}" is not a number of rows.`, `Usage: ${this.usage}`);
    return previewTable(ctx.workspace.table(name), rows, name);
  },
};
