import { Box, Text } from "ink";
import Spinner from "ink-spinner";
import { formatDuration } from "../format/cells.js";
import { useNow } from "../hooks/use-now.js";
import type { TrackedJob } from "../workspace/job-tracker.js";
import { ProgressBar } from "./progress-bar.js";

/** Running jobs: spinner, what runs, its phase, a progress bar and the time so far. */
export function JobsPanel({ jobs, width }: { jobs: readonly TrackedJob[]; width: number }) {
  const running = jobs.filter((j) => j.finishedAt === undefined);
  const now = useNow(250, running.length > 0);
  if (running.length === 0) return null;
  const barWidth = Math.max(10, Math.min(30, width - 70));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Jobs</Text>
      {running.map((job) => (
        <Box key={job.ref} gap={1}>
          <Text color="cyan">
            <Spinner type="dots" />
          </Text>
          <Text bold>{job.ref}</Text>
          <Text wrap="truncate-end">{job.label}</Text>
          <Text color="yellow">{(job.phase ?? job.status).padEnd(12)}</Text>
          <ProgressBar value={job.progress} width={barWidth} />
          <Text dimColor>{formatDuration(Math.max(0, now - job.startedAt))}</Text>
        </Box>
      ))}
    </Box>
  );
}

/** A finished job's line in the transcript: outcome and duration. */
export function FinishedJob({ job }: { job: TrackedJob }) {
  const ok = job.status === "succeeded";
  // Cancelled on purpose: not a failure, so neither red nor a cross.
  const cancelled = job.status === "cancelled";
  const color = ok ? "green" : cancelled ? "yellow" : "red";
  const took = formatDuration((job.finishedAt ?? job.startedAt) - job.startedAt);
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={color}>{ok ? "✔" : cancelled ? "■" : "✘"} </Text>
        <Text bold>{job.ref}</Text> {job.label} <Text color={color}>{job.status}</Text> in {took}
        {ok ? <Text dimColor>{`  (/fetch ${job.ref})`}</Text> : null}
      </Text>
      {job.error ? (
        <Text color={cancelled ? undefined : "red"} dimColor={cancelled}>
          {"  "}
          {job.error.title}: {job.error.detail}
        </Text>
      ) : null}
      {job.warnings.map((w, i) => (
        <Text key={i} color="yellow">
          {"  ⚠ "}
          {w.message}
        </Text>
      ))}
    </Box>
  );
}
