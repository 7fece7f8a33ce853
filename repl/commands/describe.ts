import { displayedDtype } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";
import { previewTable, shapeText, statsTable } from "../format/frame-preview.js";
import { message, type Command } from "./types.js";

export const describeCommand: Command = {
  name: "describe",
  aliases: ["info"],
  description: "Shape, dtypes, first rows and summary statistics of a frame.",
  usage: "/describe <frame>",
  details: ["Statistics as pandas computes them: missing values skipped, std with ddof 1, linear quartiles."],
  complete: (ctx, args) => (args.length === 0 ? ctx.frameNames() : []),
  action(ctx, args) {
    const [name] = args.positional;
    if (name === undefined) throw new ReplError("Which frame?", `Usage: ${this.usage}`);
    const df = ctx.workspace.frame(name);
    const table = ctx.workspace.table(name);
    const info = ctx.workspace.frameInfo(name);
    return {
      type: "group",
      items: [
        message(`${name}: ${shapeText(table)}, from ${info.origin}`),
        previewTable(table, 5),
        statsTable(table, df.dtypes.map(displayedDtype)),
      ],
    };
  },
};
