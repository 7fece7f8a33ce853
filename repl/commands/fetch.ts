import { isTerminalStatus } from "../../src/internal/index.js";
import type { PreprocessingType } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { previewTable, shapeText } from "../format/frame-preview.js";
import { fittedTable } from "../format/fitted-table.js";
import { checkFrameName, uniqueName } from "../workspace/frame-names.js";
import { tableFromDataFrame } from "../../src/internal/index.js";
import { message, type Command } from "./types.js";

/** Suffixes for result frame names: customers -> customers_std. */
export const RESULT_SUFFIX: Record<PreprocessingType, string> = {
  Binarizer: "bin",
  MaxAbsScaler: "maxabs",
  MinMaxScaler: "minmax",
  Normalizer: "norm",
  PowerTransformer: "power",
  QuantileTransformer: "quantile",
  RobustScaler: "robust",
  StandardScaler: "std",
};

export const fetchCommand: Command = {
  name: "fetch",
  aliases: ["result"],
  description: "Bring a job's result back as a new frame (waits for the job; Ctrl+C stops waiting).",
  usage: "/fetch <job> [as <name>]",
  details: ["The name defaults to the input frame's name and the transform: customers_std, customers_minmax, ..."],
  complete: (ctx, args) => (args.length === 0 ? ctx.jobRefs() : args.length === 1 ? ["as"] : []),
  async action(ctx, args) {
    const [text, as, given, ...extra] = args.positional;
    if (text === undefined || (as !== undefined && (as !== "as" || given === undefined)) || extra.length > 0) {
      throw new ReplError("Which job, and which name?", `Usage: ${this.usage}`);
    }
    const ws = ctx.workspace;
    const { job, handle } = ws.findJob(text);
    const source = ws.jobSource(job.ref);
    // A job typed at the REPL may carry a type mdps has no suffix for.
    const suffixes: Partial<Record<string, string>> = RESULT_SUFFIX;
    const suffix = (source === undefined ? undefined : suffixes[source.type]) ?? "result";
    const name = checkFrameName(given ?? uniqueName(`${source?.frame ?? "result"}_${suffix}`, (n) => ws.hasFrame(n)));
    if (job.finishedAt === undefined) ctx.emit(message(`Waiting for ${job.ref} (${job.label})…`, "muted"));
    const df = await handle.dataframe({ signal: ctx.signal }).catch((error: unknown) => {
      throw ws.waitStopped(error, job.ref, ctx);
    });
    // dataframe() resolved, so the job succeeded: its row says so now, not at the
    // tracker's next poll (a /jobs right after would still show it running).
    const record = handle.record;
    ws.jobs.observe(job.ref, record && isTerminalStatus(record.status) ? record : { status: "succeeded" });
    const features = handle.fitted?.feature_names_in_ ?? source?.features;
    ws.setFrame(name, df, { origin: `${job.ref} ${job.label}`, parent: source?.frame, job: job.ref, features });
    const table = tableFromDataFrame(df);
    const fitted = handle.fitted;
    return {
      type: "group",
      items: [
        message(`Fetched the result of ${job.ref} into frame ${name}: ${shapeText(table)}.`, "success"),
        previewTable(table, 5),
        // What it learnt, briefly: the first features; /fitted shows them all.
        ...(fitted === undefined
          ? []
          : [fittedTable(fitted, { title: `What ${job.ref} learnt`, limit: 3, more: `/fitted ${job.ref}` })]),
      ],
    };
  },
};
