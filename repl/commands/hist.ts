import { findColumn } from "../../src/internal/index.js";
import type { Table } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { featureColumns } from "./completers.js";
import { binValues, valueRange } from "../format/histogram.js";
import type { Workspace } from "../workspace/workspace.js";
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
  usage: "/hist <frame> <column> [--bins n] [--vs <frame>] [--shared-x]",
  details: [
    "A frame made by /fetch is compared with the frame its job ran on (before / after), side by side when the terminal is wide enough.",
    "--vs <frame> compares with any other frame that has the column; each panel is named after its frame.",
    "--shared-x bins both panels over one range (the smallest to the largest value of either), so their x axes agree.",
  ],
  flags: { bins: "value", vs: "value", "shared-x": "boolean" },
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
      const other = numericValues(before, ws.table(before), column);
      const range = args.flags.has("shared-x") ? sharedRange(other, after) : undefined;
      // --vs names both panels by their frames; a fetched result's are its input and itself.
      const named = typeof vs === "string";
      const first = binValues(
        named ? after : other,
        bins,
        named ? panelName(ws, frame, column) : `before: ${before}.${column}`,
        range,
      );
      const second = binValues(
        named ? other : after,
        bins,
        named ? panelName(ws, before, column) : `after: ${frame}.${column}`,
        range,
      );
      panels.push(first, second);
    } else {
      panels.push(binValues(after, bins, `${frame}.${column}`));
    }
    const how = info.job !== undefined && before === info.parent && typeof vs !== "string" ? ` (${info.origin})` : "";
    return { type: "histogram", title: `Histogram of ${column}${how}`, panels };
  },
};

/** `customers_robust.spend (j2 RobustScaler on customers)`: a frame and, for a result, the job that made it. */
function panelName(ws: Workspace, frame: string, column: string): string {
  const info = ws.frameInfo(frame);
  return `${frame}.${column}${info.job !== undefined ? ` (${info.origin})` : ""}`;
}

function sharedRange(a: Float64Array, b: Float64Array): { min: number; max: number } {
  const [x, y] = [valueRange(a), valueRange(b)];
  return { min: Math.min(x.min, y.min), max: Math.max(x.max, y.max) };
}
