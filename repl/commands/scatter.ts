import { findColumn } from "../../src/internal/index.js";
import { featureColumns } from "./completers.js";
import { percentiles } from "../../src/display/render/plot-data.js";
import { ReplError } from "../errors.js";
import { scatterGrid } from "../format/scatter-grid.js";
import type { Command } from "./types.js";

function column(
  frame: string,
  table: ReturnType<Parameters<Command["action"]>[0]["workspace"]["table"]>,
  name: string,
  numeric: boolean,
) {
  const found = findColumn(table, name);
  const names = table.columns.filter((c) => !numeric || c.kind === "number").map((c) => c.name);
  if (found === undefined)
    throw new ReplError(`${frame} has no column "${name}".`, `Columns: ${names.join(", ") || "none"}.`);
  if (numeric && found.kind !== "number")
    throw new ReplError(`${frame}.${name} is not numeric.`, `Numeric columns: ${names.join(", ")}.`);
  return found;
}

export const scatterCommand: Command = {
  name: "scatter",
  description: "Draw one column against another as a text density grid, optionally marked by a third column.",
  usage: "/scatter <frame> <x> <y> [--color column] [--clip low,high]",
  details: [
    "Each character is a cell of the plane: denser cells darker, or with --color the letter of the value most rows there have.",
    "--clip 0,99 keeps the rows inside those percentiles of both columns (a zoom past the outliers).",
  ],
  flags: { color: "value", clip: "value" },
  complete(ctx, args) {
    if (args.length === 0) return ctx.frameNames();
    if (args[args.length - 1] === "--color") return ctx.columnNames(args[0]!);
    return args.length <= 2 ? featureColumns(ctx, args[0]!) : [];
  },
  action(ctx, args) {
    const [frame, xName, yName] = args.positional;
    if (frame === undefined || xName === undefined || yName === undefined)
      throw new ReplError("Which frame and which two columns?", `Usage: ${this.usage}`);
    const table = ctx.workspace.table(frame);
    let x = column(frame, table, xName, true).values as Float64Array;
    let y = column(frame, table, yName, true).values as Float64Array;
    const colorName = args.flags.get("color");
    let groups =
      typeof colorName === "string"
        ? Array.from(column(frame, table, colorName, false).values as ArrayLike<unknown>)
        : undefined;
    const clip = args.flags.get("clip");
    let note = "";
    if (typeof clip === "string") {
      const bounds = clip.split(",").map(Number);
      if (bounds.length !== 2 || !bounds.every((b) => b >= 0 && b <= 100) || !(bounds[0]! < bounds[1]!))
        throw new ReplError(
          `--clip takes two percentiles, low below high, such as 0,99; got "${clip}".`,
          `Usage: ${this.usage}`,
        );
      const [xl, xh] = percentiles(x, bounds);
      const [yl, yh] = percentiles(y, bounds);
      const keep = Array.from(x.keys()).filter((i) => x[i]! >= xl! && x[i]! <= xh! && y[i]! >= yl! && y[i]! <= yh!);
      note = ` (rows inside p${bounds[0]}-p${bounds[1]} of both: ${keep.length} of ${x.length})`;
      x = Float64Array.from(keep, (i) => x[i]!);
      y = Float64Array.from(keep, (i) => y[i]!);
      if (groups) groups = keep.map((i) => groups![i]);
    }
    const width = Math.max(20, Math.min(100, (process.stdout.columns || Number(process.env.COLUMNS) || 80) - 20));
    const lines = scatterGrid({ x, y, groups, width, height: 20, xName, yName });
    // The summary line (above the legend) says what the clip kept.
    lines[lines.length - 2] = `${lines[lines.length - 2] ?? ""}${note}`;
    return { type: "value", text: lines.join("\n") };
  },
};
