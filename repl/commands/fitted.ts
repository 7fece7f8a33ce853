import { fittedNotes, fittedTable } from "../format/fitted-table.js";
import { quantileTable } from "../format/quantile-table.js";
import { ReplError } from "../errors.js";
import { message, type Command } from "./types.js";

/**
 * `/fitted <job>`: what a job learnt from its data (scikit-learn's fitted attributes),
 * one row per feature: the numbers that explain why RobustScaler and StandardScaler
 * disagree on data with outliers.
 */
export const fittedCommand: Command = {
  name: "fitted",
  aliases: ["learnt"],
  description: "Show what a job learnt: its fitted statistics, one row per feature (waits for the job).",
  usage: "/fitted <job>",
  details: [
    "scikit-learn's fitted attributes: mean_ and scale_ (StandardScaler), center_ and scale_ (RobustScaler),",
    "lambdas_ (PowerTransformer), data_min_ and data_max_ (MinMaxScaler), ...; QuantileTransformer's quantiles_",
    "as a table of each feature's value at each reference, its middle rows left out.",
    "The job is named by its short name (j4), its id or a unique id prefix.",
  ],
  complete: (ctx, args) => (args.length === 0 ? ctx.jobRefs() : []),
  async action(ctx, args) {
    const [text, ...extra] = args.positional;
    if (text === undefined || extra.length > 0) throw new ReplError("Which job?", `Usage: ${this.usage}`);
    const ws = ctx.workspace;
    const { job, handle } = ws.findJob(text);
    if (job.finishedAt === undefined) ctx.emit(message(`Waiting for ${job.ref} (${job.label})…`, "muted"));
    const result = await handle.result({ signal: ctx.signal, progress: false }).catch((error: unknown) => {
      throw ws.waitStopped(error, job.ref, ctx);
    });
    if (result.fitted === undefined) {
      return message(
        `${job.ref} succeeded, but the service returned no fitted state with its result; /fetch ${job.ref} brings its output.`,
        "warning",
      );
    }
    const title = `What ${job.ref} learnt: ${job.label}`;
    const quantiles = quantileTable(result.fitted);
    if (!quantiles) return fittedTable(result.fitted, { title });
    // QuantileTransformer learns a grid, not a number per feature: the grid is the table.
    const notes = fittedNotes(result.fitted, ["quantiles_", "references_"]);
    return { type: "group", items: [message([title, ...notes].join("\n")), quantiles] };
  },
};
