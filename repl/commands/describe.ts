import { columnDtype } from "../../src/core/formats/column-dtype.js";
import { ReplError } from "../errors.js";
import { previewTable, shapeText, statsTable } from "../format/frame-preview.js";
import { message, type Command } from "./types.js";

export const describeCommand: Command = {
  name: "describe",
  aliases: ["info"],
  description: "Shape, dtypes, first rows and summary statistics of a frame.",
  usage: "/describe <frame>",
  details: [
    "Statistics as pandas computes them: missing values skipped, std with ddof 1, linear quartiles.",
    "dtypes as /check names them. A table wider than the terminal continues below, first column repeated;",
    "piped, the width is mdps repl --width, else $COLUMNS, else 100.",
  ],
  complete: (ctx, args) => (args.length === 0 ? ctx.frameNames() : []),
  action(ctx, args) {
    const [name] = args.positional;
    if (name === undefined) throw new ReplError("Which frame?", `Usage: ${this.usage}`);
    const table = ctx.workspace.table(name);
    const info = ctx.workspace.frameInfo(name);
    return {
      type: "group",
      items: [
        message(`${name}: ${shapeText(table)}, from ${info.origin}`),
        { ...previewTable(table, 5), wrap: true },
        { ...statsTable(table, table.columns.map(columnDtype)), wrap: true },
      ],
    };
  },
};
