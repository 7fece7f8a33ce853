import { ReplError } from "../errors.js";
import { featureColumns } from "./completers.js";
import { dataSet, pickColumn, rangesOutput } from "./job-comparison.js";
import type { Command } from "./types.js";

/**
 * `/compare j1 j2 j4 --column c`: where one column's values lie after each transform, as
 * a table (min, p1, p50, p99, max): "most values in [-2, 4], the outliers pull RobustScaler's
 * to 20" as numbers. Frames may be named too, e.g. the data before any transform.
 */
export const compareCommand: Command = {
  name: "compare",
  description: "Compare where a column's values lie after each job (min, p1, p50, p99, max); frames too.",
  usage: "/compare <job|frame> ... [--column c]",
  details: [
    "Each job's result is read (waiting for jobs still running; Ctrl+C stops waiting).",
    "--column defaults to the first feature column of the first job.",
    "Example: /compare customers j1 j2 --column spend",
  ],
  flags: { column: "value" },
  complete(ctx, args) {
    if (args[args.length - 1] === "--column") {
      const frame = args.find((a) => ctx.frameNames().includes(a));
      return frame === undefined ? [] : featureColumns(ctx, frame);
    }
    return [...ctx.jobRefs(), ...ctx.frameNames()].filter((n) => !args.includes(n));
  },
  async action(ctx, args) {
    if (args.positional.length === 0) throw new ReplError("Which jobs or frames?", `Usage: ${this.usage}`);
    const sets = [];
    // One after another: each may wait for its job, and Ctrl+C stops the wait at hand.
    for (const name of args.positional) sets.push(await dataSet(ctx, name));
    const column = pickColumn(args.flags.get("column"), sets, this.usage);
    return rangesOutput(column, sets);
  },
};
