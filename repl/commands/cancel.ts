import { isTerminalStatus } from "../../src/internal/index.js";
import { JobAlreadyEndedError, UnsupportedExtensionError, type JobRecord } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { message, type Command } from "./types.js";

export const cancelCommand: Command = {
  name: "cancel",
  description: "Cancel a queued or running job on the service: it stops within a second and keeps no output.",
  usage: "/cancel <job>",
  details: [
    "The job becomes cancelled for everyone: waits on it (here, in a notebook, in a script) stop with that status.",
    "Cancelling a cancelled job again is fine; a job that already ended keeps its result.",
    "Ctrl+C during a wait only stops the waiting; press it again within 2 s, or type /cancel <job>, to cancel the job.",
  ],
  complete: (ctx, args) => (args.length === 0 ? ctx.jobRefs() : []),
  async action(ctx, args) {
    const [text, ...extra] = args.positional;
    const ws = ctx.workspace;
    if (text === undefined || extra.length > 0) {
      const running = ws.jobs.running.map((j) => j.ref);
      throw new ReplError(
        "Which job?",
        `Usage: ${this.usage}. ${running.length > 0 ? `Running: ${running.join(", ")}.` : "No job of this session is running."}`,
      );
    }
    const { job, handle } = ws.findJob(text);
    const wasCancelled = job.status === "cancelled";
    let record: JobRecord;
    try {
      record = await handle.cancel({ signal: ctx.signal });
    } catch (error) {
      if (error instanceof JobAlreadyEndedError) {
        ws.jobs.observe(job.ref, { status: error.jobStatus });
        throw new ReplError(
          `${job.ref} already ended as ${error.jobStatus}; there is nothing to cancel.`,
          error.jobStatus === "succeeded"
            ? `/fetch ${job.ref} brings its result back.`
            : `/logs ${job.ref} shows what happened.`,
        );
      }
      if (error instanceof UnsupportedExtensionError) throw new ReplError(error.message);
      throw error;
    }
    // The row says so now, not at the watcher's next poll (a /jobs right after agrees).
    ws.jobs.observe(job.ref, isTerminalStatus(record.status) ? record : { status: "cancelled" });
    return message(
      wasCancelled
        ? `${job.ref} (${job.label}) was already cancelled.`
        : `Cancelled ${job.ref} (${job.label}); it keeps no output.`,
      "success",
    );
  },
};
