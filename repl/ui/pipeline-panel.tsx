import { Box, Text } from "ink";
import Spinner from "ink-spinner";
import { formatDuration } from "../format/cells.js";
import { useNow } from "../hooks/use-now.js";
import type { TrackedPipeline } from "../commands/pipeline-runs.js";
import { ProgressBar } from "./progress-bar.js";

const MARKS: Record<string, { mark: string; color: string }> = {
  succeeded: { mark: "✔", color: "green" },
  failed: { mark: "✘", color: "red" },
  timed_out: { mark: "✘", color: "red" },
  cancelled: { mark: "■", color: "yellow" },
  pending: { mark: "·", color: "gray" },
};

/** Running pipelines: a row per step (done, running with its phase and progress, or pending). */
export function PipelinePanel({ pipelines, width }: { pipelines: readonly TrackedPipeline[]; width: number }) {
  const running = pipelines.filter((p) => p.finishedAt === undefined);
  const now = useNow(250, running.length > 0);
  if (running.length === 0) return null;
  const barWidth = Math.max(10, Math.min(30, width - 70));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" paddingX={1}>
      {running.map((p) => (
        <Box key={p.ref} flexDirection="column">
          <Text>
            <Text bold>Pipeline {p.ref}</Text> {p.label}{" "}
            <Text dimColor>{formatDuration(Math.max(0, now - p.startedAt))}</Text>
          </Text>
          {p.steps.map((step, i) => {
            const mark = MARKS[step.status];
            const active = step.status !== "pending" && mark === undefined;
            return (
              <Box key={i} gap={1}>
                {active ? (
                  <Text color="cyan">
                    <Spinner type="dots" />
                  </Text>
                ) : (
                  <Text color={mark?.color}>{mark?.mark ?? " "}</Text>
                )}
                <Text>{`${i + 1}/${p.steps.length}`}</Text>
                <Text wrap="truncate-end">
                  {step.type}({step.columns.length > 0 ? step.columns.join(", ") : "every numeric column"})
                </Text>
                <Text color={active ? "yellow" : mark?.color}>
                  {(active && step.phase ? step.phase : step.status).padEnd(12)}
                </Text>
                {step.status === "pending" ? null : <ProgressBar value={step.progress} width={barWidth} />}
              </Box>
            );
          })}
        </Box>
      ))}
    </Box>
  );
}
