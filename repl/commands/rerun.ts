import { isPreprocessingType } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";
import { splitList } from "./args.js";
import { dataSet, fittedSideBySide, pickColumn, rangesOutput, type DataSet } from "./job-comparison.js";
import { jobOutcome } from "./preprocess.js";
import { paramHint, paramInfo, paramWords, parseParams } from "./transform-params.js";
import { message, type Command, type Output } from "./types.js";

/**
 * `/rerun j4 quantile_range=10,90`: "what if" in one line. The job's input, transform and
 * columns are sent again with the parameters given changed (job.rerun), and once both
 * jobs are done the two are shown side by side: what each learnt, and where a column's
 * values lie before and after each.
 */
export const rerunCommand: Command = {
  name: "rerun",
  aliases: ["whatif"],
  description: "Run a job again on the same input with some parameters changed, and compare the two.",
  usage: "/rerun <job> param=value ... [--columns a,b] [--column c]",
  details: [
    "The parameters not given keep the job's values; --columns changes the feature columns.",
    "Waits for both jobs (Ctrl+C stops waiting; the jobs go on), then shows what each learnt and",
    "min, p1, p50, p99, max of one column (--column, default the first feature) before and after each.",
    "Example: /rerun j1 quantile_range=10,90",
  ],
  flags: { columns: "value", column: "value" },
  complete(ctx, args, partial) {
    if (args.length === 0) return ctx.jobRefs();
    if (args[args.length - 1] === "--columns" || args[args.length - 1] === "--column") return [];
    const type = ctx.jobType?.(args[0]!);
    return type !== undefined && isPreprocessingType(type) ? paramWords(type, args.slice(1), partial) : [];
  },
  async action(ctx, args) {
    const [text, ...paramWords] = args.positional;
    if (text === undefined) throw new ReplError("Which job, and what should change?", `Usage: ${this.usage}`);
    const ws = ctx.workspace;
    const { job, handle } = ws.findJob(text);
    const source = ws.jobSource(job.ref);
    const type = handle.type ?? source?.type;
    if (type === undefined || !isPreprocessingType(type)) {
      throw new ReplError(`${job.ref} is not a preprocessing job, so it cannot be run again with other parameters.`);
    }
    const columns = args.flags.has("columns") ? splitList(String(args.flags.get("columns"))) : undefined;
    if (paramWords.length === 0 && columns === undefined) {
      const example = paramInfo(type)[0];
      throw new ReplError(
        `What should change in ${job.ref}?`,
        `${example ? `e.g. /rerun ${job.ref} ${example.name}=… ` : ""}${paramHint(type)}`,
      );
    }
    const params = parseParams(type, paramWords);
    const again = await handle.rerun({ params, columns, signal: ctx.signal });
    const tracked = ws.startJob(again, {
      type,
      source: source?.source ?? job.ref,
      frame: source?.frame,
      features: columns ?? source?.features,
      params: { ...(source?.params ?? {}), ...params },
    });
    const changed = [...paramWords, ...(columns ? [`--columns ${columns.join(",")}`] : [])].join(" ");
    ctx.emit(message(`${tracked.ref}: ${tracked.label} sent: the input of ${job.ref} again, with ${changed}.`));
    for (const ref of [job.ref, tracked.ref]) {
      const done = await ws.jobs.waitFor(ref, ctx.signal).catch((error: unknown) => {
        throw ws.waitStopped(error, ref, ctx);
      });
      if (done.status !== "succeeded") return jobOutcome(ref, done.status, done.error);
    }
    const sets: DataSet[] = [];
    if (source?.frame !== undefined && ws.hasFrame(source.frame)) sets.push(await dataSet(ctx, source.frame));
    const before = await dataSet(ctx, job.ref);
    const after = await dataSet(ctx, tracked.ref);
    sets.push(before, after);
    const items: Output[] = [];
    const [fittedBefore, fittedAfter] = [handle.fitted, again.fitted];
    if (fittedBefore !== undefined && fittedAfter !== undefined) {
      items.push(fittedSideBySide({ ref: job.ref, fitted: fittedBefore }, { ref: tracked.ref, fitted: fittedAfter }));
    }
    items.push(rangesOutput(pickColumn(args.flags.get("column"), [after, before], this.usage), sets));
    items.push(
      message(
        `/fetch ${tracked.ref} brings its result back as a frame; /fitted ${tracked.ref} shows all it learnt.`,
        "muted",
      ),
    );
    return { type: "group", items };
  },
};
