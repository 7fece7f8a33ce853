import { Box, Text } from "ink";
import Spinner from "ink-spinner";
import { formatDuration } from "../format/cells.js";
import { useNow } from "../hooks/use-now.js";
import { nextBoundary, type LineState } from "../input/line-editor.js";

export const PROMPT = "mdps› ";

/** The input line with a block cursor. */
export function PromptLine({ line }: { line: LineState }) {
  const before = line.value.slice(0, line.cursor);
  // The whole character under the cursor (an emoji is two UTF-16 units, a flag four).
  const end = nextBoundary(line.value, line.cursor);
  const at = line.value.slice(line.cursor, end) || " ";
  const after = line.value.slice(end);
  return (
    <Text>
      <Text color="cyan" bold>
        {PROMPT}
      </Text>
      {before}
      <Text inverse>{at}</Text>
      {after}
      {line.value === "" ? <Text dimColor> /help for commands, Tab to complete</Text> : null}
    </Text>
  );
}

/** Shown instead of the prompt while a line runs. */
export function BusyLine({ line, since }: { line: string; since: number }) {
  const now = useNow(200, true);
  return (
    <Text>
      <Text color="cyan">
        <Spinner type="dots" />
      </Text>{" "}
      {line.length > 60 ? `${line.slice(0, 59)}…` : line}{" "}
      <Text dimColor>{formatDuration(now - since)} · Ctrl+C stops</Text>
    </Text>
  );
}

export function Candidates({ candidates, width }: { candidates: readonly string[]; width: number }) {
  const shown = candidates.slice(0, 40);
  return (
    <Box width={width}>
      <Text dimColor wrap="wrap">
        {shown.join("  ")}
        {candidates.length > shown.length ? `  … ${candidates.length - shown.length} more` : ""}
      </Text>
    </Box>
  );
}
