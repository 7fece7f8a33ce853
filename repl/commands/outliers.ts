import type { Column, Job, Table } from "../../src/index.js";
import { dataFrameFromTable, isPreprocessingType } from "../../src/internal/index.js";
import { percentiles } from "../../src/display/render/plot-data.js";
import { ReplError } from "../errors.js";
import { formatNumberCell } from "../format/cells.js";
import { splitList } from "./args.js";
import { featureColumns } from "./completers.js";
import { fittedSideBySide } from "./job-comparison.js";
import { jobOutcome } from "./preprocess.js";
import { message, type Command, type Output } from "./types.js";

/**
 * `/outliers <frame> --percentile 99 --refit j1,j4`: which rows lie above a percentile,
 * and, with --refit, each job's transform fitted again on the frame without them, its
 * statistics beside the job's own: StandardScaler's scale falls by half, RobustScaler's
 * barely moves. That is the gallery's point, as numbers.
 */
export const outliersCommand: Command = {
  name: "outliers",
  description: "Count the rows above a percentile; --refit shows how jobs' fitted statistics move without them.",
  usage: "/outliers <frame> [--percentile 99] [--columns a,b] [--refit j1,j2]",
  details: [
    "A row is an outlier when any of the columns (--columns, else the refit jobs' features, else every numeric",
    "column) is above that column's --percentile (default 99, numpy's linear percentile).",
    "--refit sends each job's transform, parameters and columns again on the frame without those rows, waits,",
    "and shows what each job learnt beside the refit.",
  ],
  flags: { percentile: "value", columns: "value", refit: "value" },
  complete(ctx, args) {
    if (args.length === 0) return ctx.frameNames();
    if (args.at(-1) === "--refit") return ctx.jobRefs();
    if (args.at(-1) === "--columns") return featureColumns(ctx, args[0]!);
    return [];
  },
  async action(ctx, args) {
    const [frame, ...extra] = args.positional;
    if (frame === undefined || extra.length > 0) throw new ReplError("Which frame?", `Usage: ${this.usage}`);
    const percentile = args.flags.has("percentile") ? Number(args.flags.get("percentile")) : 99;
    if (!(percentile > 0 && percentile < 100))
      throw new ReplError("--percentile takes a number between 0 and 100, e.g. 99.", `Usage: ${this.usage}`);
    const ws = ctx.workspace;
    const table = ws.table(frame);
    const refits = args.flags.has("refit") ? splitList(String(args.flags.get("refit"))).map((r) => ws.findJob(r)) : [];
    for (const { job, handle } of refits) {
      if (handle.type === undefined || !isPreprocessingType(handle.type))
        throw new ReplError(`${job.ref} is not a preprocessing job, so it cannot be fitted again.`);
    }
    const given = args.flags.has("columns") ? splitList(String(args.flags.get("columns"))) : undefined;
    const fitted = await Promise.all(
      refits.map(({ job, handle }) =>
        handle.result({ signal: ctx.signal, progress: false }).catch((error: unknown) => {
          throw ws.waitStopped(error, job.ref, ctx);
        }),
      ),
    );
    const jobFeatures = fitted.flatMap((r) => r.fitted?.feature_names_in_ ?? []);
    const names = given ?? (jobFeatures.length > 0 ? [...new Set(jobFeatures)] : numericNames(table));
    const columns = names.map((name) => numericColumn(table, name, frame));
    const limits = columns.map((c) => percentiles(c.values, [percentile])[0]!);
    const keep: number[] = [];
    for (let row = 0; row < table.rowCount; row++) {
      if (columns.every((c, i) => !(c.values[row]! > limits[i]!))) keep.push(row);
    }
    const dropped = table.rowCount - keep.length;
    const items: Output[] = [
      {
        type: "table",
        title: `${frame}: ${dropped} of ${table.rowCount} rows above the ${percentile}th percentile of a column`,
        columns: ["column", `p${percentile}`, "max", "rows above"],
        rows: columns.map((c, i) => [
          c.name,
          formatNumberCell(limits[i]!),
          formatNumberCell(percentiles(c.values, [100])[0]!),
          String(c.values.reduce((n, v) => n + (v > limits[i]! ? 1 : 0), 0)),
        ]),
        numeric: [false, true, true, true],
      },
    ];
    if (refits.length === 0) return { type: "group", items };
    const source = `${frame} without outliers`;
    // One upload for every refit.
    const trimmed = await ws.session.upload(dataFrameFromTable(rowsOf(table, keep)), {
      name: `${frame}-below-p${percentile}`,
      description: `${source}, from the mdps REPL`,
      signal: ctx.signal,
    });
    const ref = ws.addBlob(trimmed, `${source} (above p${percentile} left out)`).ref;
    for (const [k, { job, handle }] of refits.entries()) {
      const original = fitted[k]!.fitted;
      const type = handle.type as Parameters<typeof ws.session.preprocess>[1]["type"];
      const features = original?.feature_names_in_ ?? [];
      const params = original?.params ?? {};
      const again: Job = await ws.session.preprocess(trimmed, {
        type,
        params,
        columns: features.length > 0 ? features : undefined,
        signal: ctx.signal,
      });
      const tracked = ws.startJob(again, { type, source: `${frame} below p${percentile} (${ref})`, features, params });
      const done = await ws.jobs.waitFor(tracked.ref, ctx.signal).catch((error: unknown) => {
        throw ws.waitStopped(error, tracked.ref, ctx);
      });
      if (done.status !== "succeeded") return jobOutcome(tracked.ref, done.status, done.error);
      if (original === undefined || again.fitted === undefined) {
        items.push(message(`${job.ref} or ${tracked.ref} has no fitted state to compare.`, "warning"));
        continue;
      }
      const side = fittedSideBySide({ ref: job.ref, fitted: original }, { ref: tracked.ref, fitted: again.fitted });
      items.push({ ...side, title: `${job.ref} ${job.label}, and ${tracked.ref} fitted on ${source} (${ref})` });
    }
    return { type: "group", items };
  },
};

function numericNames(table: Table): string[] {
  return table.columns.filter((c) => c.kind === "number").map((c) => c.name);
}

function numericColumn(table: Table, name: string, frame: string): Extract<Column, { kind: "number" }> {
  const column = table.columns.find((c) => c.name === name);
  if (column?.kind !== "number") {
    throw new ReplError(
      `${frame} has no numeric column "${name}".`,
      `Numeric columns: ${numericNames(table).join(", ")}.`,
    );
  }
  return column;
}

/** The table's rows at `rows`, every column kept. */
function rowsOf(table: Table, rows: readonly number[]): Table {
  const columns = table.columns.map((c): Column => {
    switch (c.kind) {
      case "number":
        return { name: c.name, kind: "number", values: Float64Array.from(rows, (r) => c.values[r]!) };
      case "string":
        return { name: c.name, kind: "string", values: rows.map((r) => c.values[r] ?? null) };
      case "boolean":
        return { name: c.name, kind: "boolean", values: rows.map((r) => c.values[r] ?? null) };
    }
  });
  return { rowCount: rows.length, columns };
}
