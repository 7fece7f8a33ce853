import { didYouMean, isPreprocessingType, preflight, PreflightError } from "../../src/internal/index.js";
import { RECORD_TYPES, type RecordType } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { frameOrBlob } from "./input-source.js";
import { columnList, featureColumns, framesAndBlobs, transforms } from "./completers.js";
import { splitList } from "./args.js";
import { formatParam, paramInfo, paramWords, parseParams, resolveTransform } from "./transform-params.js";
import { message, type Command, type Output } from "./types.js";
import { PREPROCESSING_TYPES } from "../../src/index.js";

export const preprocessCommand: Command = {
  name: "preprocess",
  aliases: ["pp"],
  description: "Run a transform on a frame or blob as a job on the service.",
  usage: "/preprocess <frame|blob> <Type> [param=value ...] [--columns a,b]",
  details: [
    "Types: " + PREPROCESSING_TYPES.join(", ") + ".",
    "Parameters are scikit-learn's (snake_case; withMean is read as with_mean), checked before sending; Tab lists them.",
    "Pairs as feature_range=0,10; booleans as with_mean=false; null as random_state=null.",
    "--columns: the feature columns (default every numeric column); others pass through unchanged.",
    `--timeout <seconds> (the job's limit on the service; default: the service's own, nothing is sent), --format ${RECORD_TYPES.join("|")} for the upload, --encrypt, --wait.`,
    "The job runs in the background (see the jobs panel); /fetch <job> brings the result back as a frame.",
    ...PREPROCESSING_TYPES.map((t) => {
      const params = paramInfo(t);
      return `  ${t}: ${params.length > 0 ? params.map(formatParam).join(", ") : "no parameters"}`;
    }),
  ],
  flags: { columns: "value", timeout: "value", format: "value", encrypt: "boolean", wait: "boolean" },
  complete(ctx, args, partial) {
    if (args[args.length - 1] === "--columns") {
      const source = args[0];
      return source && ctx.frameNames().includes(source) ? columnList(featureColumns(ctx, source), partial) : [];
    }
    if (args[args.length - 1] === "--format") return [...RECORD_TYPES];
    if (args.length === 0) return framesAndBlobs(ctx);
    if (args.length === 1) return transforms();
    const type = PREPROCESSING_TYPES.find((t) => t.toLowerCase() === args[1]!.toLowerCase());
    return type === undefined ? [] : paramWords(type, args.slice(2), partial);
  },
  async action(ctx, args) {
    const [sourceName, typeName, ...paramWords] = args.positional;
    if (sourceName === undefined || typeName === undefined) {
      throw new ReplError("Which frame or blob, and which transform?", `Usage: ${this.usage}`);
    }
    const type = isPreprocessingType(typeName) ? typeName : resolveTransform(typeName);
    const params = parseParams(type, paramWords);
    const ws = ctx.workspace;
    const { frame: frameInput, blob } = frameOrBlob(ws, sourceName);
    const columns = args.flags.has("columns") ? splitList(String(args.flags.get("columns"))) : undefined;
    if (frameInput && columns) {
      const known = ws.columnNames(sourceName);
      const unknown = columns.filter((c) => !known.includes(c));
      if (unknown.length > 0) {
        const named = unknown.map((c) => `${c}${didYouMean(c, known)}`).join(", ");
        throw new ReplError(`${sourceName} has no column ${named}.`, `Columns: ${known.join(", ")}.`);
      }
    }
    const timeout = args.flags.has("timeout") ? Number(args.flags.get("timeout")) : undefined;
    if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= 86_400)) {
      throw new ReplError("--timeout takes whole seconds from 1 to 86400.", `Usage: ${this.usage}`);
    }
    const format = args.flags.get("format") as RecordType | undefined;
    const encrypt = args.flags.has("encrypt");
    const frame = frameInput ? ws.frame(sourceName) : undefined;
    // A frame sent before (same object, plain upload) is not uploaded again.
    const reused = frame && !encrypt && format === undefined ? ws.uploadOf(frame) : undefined;
    // The frame is checked here, also when the Session checks what it uploads: scikit-learn's
    // warnings (n_quantiles above the row count, ...) show as the job is sent, not when it ends.
    const warned: string[] = [];
    if (frame) {
      const report = preflight(ws.table(sourceName), { type, params, columns });
      if (report.problems.length > 0) throw new PreflightError(report.problems);
      for (const warning of report.warnings) {
        ctx.emit(message(warning.message, "warning"));
        warned.push(warning.message);
      }
    }
    const job = await ws.session.preprocess(reused ?? frame ?? blob!.blob, {
      type,
      params,
      columns,
      jobTimeoutMs: timeout === undefined ? undefined : timeout * 1000,
      encrypt: encrypt ? true : undefined,
      upload: frameInput
        ? { name: sourceName, recordType: format, description: "input sent from the mdps REPL" }
        : undefined,
      signal: ctx.signal,
    });
    // The Session's own check of the upload says the same again: once is enough.
    ws.forgetNotices(warned);
    const tracked = ws.startJob(job, {
      type,
      source: frameInput ? sourceName : blob!.ref,
      frame: frameInput ? sourceName : undefined,
      features: columns,
      params,
    });
    if (frame && !reused && job.input) {
      ws.addBlob(job.input, `frame ${sourceName} (input of ${tracked.ref})`);
      if (!encrypt && format === undefined) ws.rememberUpload(frame, job.input);
    }
    const sent = message(`${tracked.ref}: ${tracked.label} sent (job ${job.id}).`, "info");
    if (ctx.interactive && !args.flags.has("wait")) {
      return {
        type: "group",
        items: [
          sent,
          message(
            `/fetch ${tracked.ref} brings the result back as a frame; /logs ${tracked.ref} follows its log.`,
            "muted",
          ),
        ],
      };
    }
    ctx.emit(sent);
    const done = await ws.jobs.waitFor(tracked.ref, ctx.signal).catch((error: unknown) => {
      throw ws.waitStopped(error, tracked.ref, ctx);
    });
    return jobOutcome(tracked.ref, done.status, done.error);
  },
};

export function jobOutcome(ref: string, status: string, error: { title: string; detail: string } | undefined): Output {
  if (status === "succeeded") return { type: "none" };
  if (status === "cancelled") {
    return {
      type: "error",
      title: `${ref} was cancelled, so it has no result.`,
      detail: error?.detail,
      hint: "/preprocess again if you still need it.",
    };
  }
  return {
    type: "error",
    title: `Job ${status === "timed_out" ? "timed out" : status}: ${error?.title ?? status}`,
    detail: error?.detail,
    hint: "/logs <job> shows what happened; fix the input or parameters and /preprocess again.",
  };
}
