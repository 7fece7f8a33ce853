import type { JobExecutionLogMessage } from "../../src/index.js";
import { ReplError } from "../errors.js";
import type { LogLine } from "./types.js";
import { message, type Command } from "./types.js";

function line(m: JobExecutionLogMessage): LogLine {
  return { timestamp: m.timestamp ?? "", level: m.level, message: m.message };
}

export const logsCommand: Command = {
  name: "logs",
  aliases: ["log"],
  description: "Show a job's log, following new lines until the job ends (Ctrl+C stops).",
  usage: "/logs <job> [--no-follow]",
  flags: { "no-follow": "boolean" },
  complete: (ctx, args) => (args.length === 0 ? ctx.jobRefs() : []),
  async action(ctx, args) {
    const [text] = args.positional;
    if (text === undefined)
      throw new ReplError(
        "Which job?",
        `Usage: ${this.usage}. Jobs: ${ctx.workspace.jobs.jobs.map((j) => j.ref).join(", ") || "none yet"}.`,
      );
    const { job, handle } = ctx.workspace.findJob(text);
    if (args.flags.has("no-follow")) {
      const messages = await handle.logs({ signal: ctx.signal });
      return { type: "logs", job: job.ref, lines: messages.map(line) };
    }
    let count = 0;
    let final;
    try {
      for await (const m of handle.followLogs({ signal: ctx.signal })) {
        ctx.emit({ type: "logs", job: job.ref, lines: [line(m)] });
        count++;
      }
      // The log ends when the service says the job ended; the tracker hears it at its next poll.
      final = await ctx.workspace.jobs.waitFor(job.ref, ctx.signal);
    } catch (error) {
      throw ctx.workspace.waitStopped(error, job.ref, ctx, `following ${job.ref}'s log`);
    }
    const ended = final.status === "cancelled" ? "was cancelled" : final.status.replace("_", " ");
    return message(`${job.ref}: ${count} log line${count === 1 ? "" : "s"}; the job ${ended}.`, "muted");
  },
};
