import { formatDuration } from "../format/cells.js";
import type { TrackedJob } from "../workspace/job-tracker.js";
import { message, type Command } from "./types.js";

export function jobDuration(job: TrackedJob, now = Date.now()): string {
  return formatDuration((job.finishedAt ?? now) - job.startedAt);
}

export const jobsCommand: Command = {
  name: "jobs",
  description: "List the jobs started in this session, with status, phase and time; --all: every job of the model.",
  usage: "/jobs [--all]",
  details: ["--all lists the model's jobs from the service, newest first (other sessions' too)."],
  flags: { all: "boolean" },
  async action(ctx, args) {
    if (args.flags.has("all")) {
      const all = await ctx.workspace.session.jobs({ signal: ctx.signal });
      if (all.length === 0) return message("The model has no jobs yet.", "muted");
      return {
        type: "table",
        columns: ["type", "status", "created", "id"],
        rows: all.map((j) => [
          j.record?.job_type ?? j.type ?? "",
          j.record?.status ?? "",
          j.record?.created_at ?? "",
          j.id,
        ]),
      };
    }
    const jobs = ctx.workspace.jobs.jobs;
    if (jobs.length === 0)
      return message(
        "No jobs yet: /preprocess <frame> <Type> starts one (so does session.preprocess(...) in JavaScript).",
        "muted",
      );
    return {
      type: "table",
      columns: ["job", "what", "status", "phase", "progress", "time", "id"],
      rows: jobs.map((j) => [
        j.ref,
        j.label,
        j.status,
        j.phase ?? "",
        j.progress === undefined ? "?" : `${Math.round(j.progress * 100)}%`,
        jobDuration(j),
        j.id,
      ]),
      numeric: [false, false, false, false, true, true, false],
    };
  },
};
