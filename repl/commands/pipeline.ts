/**
 * /pipeline: several transforms fitted as one chain of jobs on the service (each on the
 * previous job's output), steps written on one line (./pipeline-syntax.ts). The chain
 * runs in the background with a panel of its steps; `apply` uses the fitted pipeline
 * here on another frame, `save` writes it as JSON, `cancel` stops the chain.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  EngineError,
  MdpsError,
  Pipeline,
  PipelineStepError,
  PREPROCESSING_TYPES,
  ValidationError,
  type FittedPipeline,
  type PipelineRun,
} from "../../src/index.js";
import { raceAbort, tableFromDataFrame } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";
import { frameOrBlob } from "./input-source.js";
import { previewTable, shapeText } from "../format/frame-preview.js";
import { completePath } from "../input/path-completion.js";
import { checkFrameName, uniqueName } from "../workspace/frame-names.js";
import type { Workspace } from "../workspace/workspace.js";
import { featureColumns, framesAndBlobs } from "./completers.js";
import { completeSteps, parseSteps } from "./pipeline-syntax.js";
import { message, type Command, type CommandContext, type Output } from "./types.js";

const SUBCOMMANDS = ["apply", "save", "cancel"] as const;

export const pipelineCommand: Command = {
  name: "pipeline",
  aliases: ["pipe"],
  description: "Fit several transforms as one chain of jobs on the service, each on the previous job's output.",
  usage: "/pipeline <frame|blob> Transform(columns) [key=value ...] | Transform(columns) ; Transform(columns) ...",
  details: [
    "A step is a transform, its columns in parentheses (none: every numeric column) and its params as key=value.",
    "Steps run in order, each on the previous one's output; the columns a step does not name pass through.",
    "Write | between steps on the same columns (a scikit-learn Pipeline), ; before steps on other columns (a ColumnTransformer).",
    "  e.g. /pipeline train PowerTransformer(a,b) | StandardScaler(a,b) ; QuantileTransformer(c) n_quantiles=100",
    "Transforms: " + PREPROCESSING_TYPES.join(", ") + ". Tab completes transforms, columns and params.",
    "Every step is checked before the upload; a step that fails on the service stops the chain, naming the step.",
    "The chain runs in the background (see the pipeline panel); --wait waits for it. Each step's job is listed in /jobs.",
    "/pipeline cancel <p1>: cancels the running job and starts no more.",
    "/pipeline apply <p1|file.json> <frame> [as <name>]: the fitted pipeline applied here, on a frame it never saw.",
    "/pipeline save <p1> <file.json>: the fitted pipeline as JSON, which Pipeline.fromJSON() and /pipeline apply read.",
  ],
  flags: { wait: "boolean", timeout: "value" },
  complete(ctx, args, partial) {
    const pipelines = ctx.pipelineRefs?.() ?? [];
    if (args.length === 0) return [...framesAndBlobs(ctx), ...SUBCOMMANDS];
    const [first] = args;
    if (first === "cancel") return args.length === 1 ? pipelines : [];
    if (first === "save") return args.length === 1 ? pipelines : args.length === 2 ? jsonFiles(ctx.cwd, partial) : [];
    if (first === "apply") {
      if (args.length === 1) return [...pipelines, ...jsonFiles(ctx.cwd, partial)];
      return args.length === 2 ? ctx.frameNames() : args.length === 3 ? ["as"] : [];
    }
    const columns = ctx.frameNames().includes(first!) ? featureColumns(ctx, first!) : [];
    return completeSteps(args.slice(1), partial, columns);
  },
  async action(ctx, args) {
    const [first, ...rest] = args.positional;
    if (first === "cancel") return cancel(ctx, rest);
    if (first === "save") return save(ctx, rest);
    if (first === "apply") return apply(ctx, rest);
    if (first === undefined || rest.length === 0) {
      throw new ReplError("Which frame or blob, and which steps?", `Usage: ${this.usage}`);
    }
    return start(ctx, first, rest.join(" "), args.flags);
  },
};

function jsonFiles(cwd: string, partial: string): string[] {
  return completePath(partial, cwd, [".json"]);
}

async function start(
  ctx: CommandContext,
  sourceName: string,
  stepText: string,
  flags: ReadonlyMap<string, string | true>,
): Promise<Output> {
  const ws = ctx.workspace;
  const steps = parseSteps(stepText);
  const { frame: frameInput, blob } = frameOrBlob(ws, sourceName);
  const timeout = flags.has("timeout") ? Number(flags.get("timeout")) : undefined;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= 86_400)) {
    throw new ReplError(
      "--timeout takes whole seconds from 1 to 86400 (each step's job).",
      `Usage: ${pipelineCommand.usage}`,
    );
  }
  const pipeline = ws.session.pipeline(steps);
  const run = pipeline.start(frameInput ? ws.frame(sourceName) : blob!.blob, {
    jobTimeoutMs: timeout === undefined ? undefined : timeout * 1000,
    upload: frameInput ? { name: sourceName, description: "input of a pipeline sent from the mdps REPL" } : undefined,
  });
  const source = frameInput ? sourceName : blob!.ref;
  const tracked = ws.pipelines.track(
    run,
    `${steps.length} step${steps.length === 1 ? "" : "s"} on ${source}`,
    run.fitted(),
  );
  nameStepJobs(ws, run, tracked.ref, source, frameInput ? sourceName : undefined);
  // The input is read, checked and uploaded first: a mistake found there is this command's answer.
  await raceAbort(firstJobSent(run), ctx.signal);
  const first = ws.jobs.find(run.jobs[0]!.id);
  const sent = message(
    `${tracked.ref}: ${pipeline.toString()} on ${source} started; step 1 is ${first?.ref ?? run.jobs[0]!.id}.`,
    "info",
  );
  if (ctx.interactive && !flags.has("wait")) {
    return {
      type: "group",
      items: [
        sent,
        message(
          `/pipeline cancel ${tracked.ref} stops it; once it is done, /pipeline apply ${tracked.ref} <frame> applies it here ` +
            `and /pipeline save ${tracked.ref} <file.json> saves it.`,
          "muted",
        ),
      ],
    };
  }
  ctx.emit(sent);
  let fitted: FittedPipeline;
  try {
    fitted = await raceAbort(run.fitted(), ctx.signal);
  } catch (error) {
    if (error instanceof PipelineStepError) throw stepFailed(ws, error, tracked.ref);
    if (error instanceof MdpsError && error.code === "no_fitted_state") {
      // Every job succeeded: only the state to apply here is missing, which is no failure.
      const last = ws.jobs.find(run.jobs.at(-1)!.id);
      return message(
        `${tracked.ref} done: every step succeeded on ${source}, but the service returned no fitted state, so there is ` +
          `nothing to /pipeline apply or save here (a service that returns it only on request: set the profile key ` +
          `fitted_query). /fetch ${last?.ref ?? "<last job>"} brings its output back as a frame.`,
        "success",
      );
    }
    throw error;
  }
  const last = ws.jobs.find(fitted.jobs.at(-1)!.id);
  return message(
    `${tracked.ref} fitted: ${fitted.steps} steps on ${source}. /fetch ${last?.ref ?? "<last job>"} brings its output back as a frame; ` +
      `/pipeline apply ${tracked.ref} <frame> applies it here.`,
    "success",
  );
}

/** Each step's job, once sent, is named in /jobs and the jobs panel by its step. */
function nameStepJobs(ws: Workspace, run: PipelineRun, ref: string, source: string, frame: string | undefined): void {
  let named = 0;
  const stop = run.subscribe(() => {
    for (; named < run.jobs.length; named++) {
      const step = run.steps[named]!;
      ws.startJob(run.jobs[named]!, {
        type: step.type,
        source: `${source} (${ref} step ${named + 1}/${run.steps.length})`,
        frame,
        features: step.columns,
      });
    }
    if (named === run.steps.length) stop();
  });
  run.done.finally(stop).catch(() => undefined);
}

/** Resolves once step 1's job is sent; rejects with what stopped the run before that. */
function firstJobSent(run: PipelineRun): Promise<void> {
  return new Promise<void>((resolveSent, reject) => {
    if (run.jobs.length > 0) {
      resolveSent();
      return;
    }
    const stop = run.subscribe(() => {
      if (run.jobs.length > 0) {
        stop();
        resolveSent();
      }
    });
    run.done.then(
      () => resolveSent(),
      (error: unknown) => {
        stop();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function stepFailed(ws: Workspace, error: PipelineStepError, ref: string): ReplError {
  const what = error.status === "cancelled" ? "was cancelled" : error.status === "timed_out" ? "timed out" : "failed";
  const job = ws.jobs.find(error.jobId)?.ref ?? error.jobId;
  return new ReplError(
    `${ref} stopped: step ${error.step} of ${error.steps} (${error.stepType}) ${what}: ${error.title}: ${error.detail}`,
    `No later step was started. /logs ${job} shows the step's log; fix it and run /pipeline again.`,
  );
}

function findPipeline(ws: Workspace, ref: string | undefined) {
  const found = ref === undefined ? undefined : ws.pipelines.find(ref);
  if (found === undefined) {
    const refs = ws.pipelines.refs();
    throw new ReplError(
      ref === undefined ? "Which pipeline?" : `No pipeline "${ref}" in this session.`,
      refs.length > 0 ? `Pipelines: ${refs.join(", ")}.` : "Start one with /pipeline <frame> <steps>.",
    );
  }
  return found;
}

function fittedOf(ws: Workspace, ref: string | undefined): FittedPipeline {
  const found = findPipeline(ws, ref);
  if (found.fitted) return found.fitted;
  if (found.finishedAt !== undefined && found.steps.every((step) => step.status === "succeeded")) {
    throw new ReplError(
      `${found.ref}: every step succeeded, but the service returned no fitted state, so there is nothing to apply or save here.`,
      "/fetch on its last step's job brings the chain's output back as a frame.",
    );
  }
  throw new ReplError(
    found.finishedAt === undefined
      ? `${found.ref} is still running: it can be applied or saved once every step has succeeded.`
      : `${found.ref} did not finish: ${found.error ?? "no fitted pipeline"}`,
    found.finishedAt === undefined ? "The pipeline panel shows its steps." : "Run /pipeline again.",
  );
}

async function cancel(ctx: CommandContext, rest: readonly string[]): Promise<Output> {
  const found = findPipeline(ctx.workspace, rest[0]);
  const run = ctx.workspace.pipelines.run(found.ref);
  if (found.finishedAt !== undefined || run === undefined) {
    return message(`${found.ref} had already ended; there is nothing to cancel.`, "muted");
  }
  await raceAbort(run.cancel(), ctx.signal);
  const step = run.state.findIndex((s) => s.status === "cancelled");
  return message(
    step >= 0
      ? `Cancelled ${found.ref} at step ${step + 1} of ${run.steps.length}; no later step was started.`
      : `Stopped ${found.ref}; no later step was started.`,
    "success",
  );
}

function save(ctx: CommandContext, rest: readonly string[]): Output {
  const [ref, file, ...extra] = rest;
  if (file === undefined || extra.length > 0) {
    throw new ReplError("Which pipeline, and which file?", "Usage: /pipeline save <p1> <file.json>");
  }
  const fitted = fittedOf(ctx.workspace, ref);
  const path = resolve(ctx.workspace.cwd, file);
  writeFileSync(path, JSON.stringify(fitted, null, 2) + "\n");
  return message(
    `Saved ${ref!} (${fitted.steps} fitted steps) to ${path}; Pipeline.fromJSON() reads it back.`,
    "success",
  );
}

async function apply(ctx: CommandContext, rest: readonly string[]): Promise<Output> {
  const [what, frame, as, given, ...extra] = rest;
  if (
    what === undefined ||
    frame === undefined ||
    (as !== undefined && (as !== "as" || given === undefined)) ||
    extra.length > 0
  ) {
    throw new ReplError(
      "Which pipeline, and which frame?",
      "Usage: /pipeline apply <p1|file.json> <frame> [as <name>]",
    );
  }
  const ws = ctx.workspace;
  const fromFile = /\.json$/i.test(what);
  const fitted = fromFile ? await fittedFromFile(resolve(ws.cwd, what)) : fittedOf(ws, what);
  const df = ws.frame(frame);
  const label = fromFile ? "pipe" : what.toLowerCase();
  const name = checkFrameName(given ?? uniqueName(`${frame}_${label}`, (n) => ws.hasFrame(n)));
  let out;
  try {
    out = fitted.transform(df);
  } catch (error) {
    if (error instanceof EngineError)
      throw new ReplError(
        error.message,
        "Nothing was changed; the frame needs the columns the pipeline was fitted on.",
      );
    throw error;
  }
  ws.setFrame(name, out, { origin: `${what}, applied locally`, parent: frame, features: [...fitted.featureNames] });
  const table = tableFromDataFrame(out);
  return {
    type: "group",
    items: [
      message(
        `Applied ${what} (${fitted.steps} steps) to ${frame} here: frame ${name}, ${shapeText(table)}.`,
        "success",
      ),
      previewTable(table, 5),
    ],
  };
}

async function fittedFromFile(path: string): Promise<FittedPipeline> {
  try {
    return await Pipeline.fromJSON(readText(path));
  } catch (error) {
    // A damaged file is this command's answer, not a request the service refused.
    if (error instanceof ValidationError) throw new ReplError(`${path}: ${error.message}`);
    throw error;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new ReplError(
      `Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
      "Give the path of a file /pipeline save wrote.",
    );
  }
}
