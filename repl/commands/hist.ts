import { findColumn } from "../../src/internal/index.js";
import type { Table } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { featureColumns } from "./completers.js";
import { binValues } from "../format/histogram.js";
import type { Command, HistogramPanel } from "./types.js";

function numericValues(frame: string, table: Table, column: string): Float64Array {
  const found = findColumn(table, column);
  const numeric = table.columns.filter((c) => c.kind === "number").map((c) => c.name);
  if (found === undefined)
    throw new ReplError(`${frame} has no column "${column}".`, `Numeric columns: ${numeric.join(", ") || "none"}.`);
  if (found.kind !== "number")
    throw new ReplError(`${frame}.${column} is not numeric.`, `Numeric columns: ${numeric.join(", ") || "none"}.`);
  return found.values;
}

export const histCommand: Command = {
  name: "hist",
  aliases: ["histogram"],
  description: "Draw a histogram of a column; for a fetched result, before and after the transform.",
  usage: "/hist <frame> <column> [--bins n] [--vs <frame>]",
  details: [
    "A frame made by /fetch is compared with the frame its job ran on, side by side when the terminal is wide enough.",
    "--vs <frame> compares with any other frame that has the column.",
  ],
  flags: { bins: "value", vs: "value" },
  complete(ctx, args) {
    if (args[args.length - 1] === "--vs") return ctx.frameNames();
    if (args.length === 0) return ctx.frameNames();
    if (args.length === 1) return featureColumns(ctx, args[0]!);
    return [];
  },
  action(ctx, args) {
    const [frame, column] = args.positional;
    if (frame === undefined || column === undefined)
      throw new ReplError("Which frame and column?", `Usage: ${this.usage}`);
    const bins = args.flags.has("bins") ? Number(args.flags.get("bins")) : 12;
    if (!Number.isInteger(bins) || bins < 1 || bins > 100)
      throw new ReplError("--bins takes a whole number from 1 to 100.", `Usage: ${this.usage}`);
    const ws = ctx.workspace;
    const after = numericValues(frame, ws.table(frame), column);
    const info = ws.frameInfo(frame);
    const vs = args.flags.get("vs");
    let before: string | undefined;
    if (typeof vs === "string") before = vs;
    else if (
      info.parent !== undefined &&
      ws.hasFrame(info.parent) &&
      (info.features === undefined || info.features.includes(column))
    ) {
      before = info.parent;
    }
    const panels: HistogramPanel[] = [];
    if (before !== undefined) {
      panels.push(binValues(numericValues(before, ws.table(before), column), bins, `before: ${before}.${column}`));
      panels.push(binValues(after, bins, `after: ${frame}.${column}`));
    } else {
      panels.push(binValues(after, bins, `${frame}.${column}`));
    }
    const how = info.job !== undefined && before === info.parent ? ` (${info.origin})` : "";
    return { type: "histogram", title: `Histogram of ${column}${how}`, panels };
  },
};
