/**
 * The interactive screen: the transcript in <Static> (printed once, never redrawn),
 * then the live part: running jobs, the prompt (or the running line), completion
 * candidates. All state comes from the controller and the job tracker.
 */
import { Box, Static, Text, useApp, useStdout } from "ink";
import { useEffect, useRef, useSyncExternalStore } from "react";
import type { HistoryItem, ReplController } from "../controller.js";
import { usePrompt } from "../hooks/use-prompt.js";
import { useTerminalWidth } from "../hooks/use-terminal-width.js";
import { FinishedJob, JobsPanel } from "./jobs-panel.js";
import { OutputView } from "./output-view.js";
import { PipelinePanel } from "./pipeline-panel.js";
import { BusyLine, Candidates, PROMPT, PromptLine } from "./prompt-line.js";

const CLEAR_SCREEN = "\u001B[2J\u001B[3J\u001B[H";

export function ItemView({ item, width }: { item: HistoryItem; width: number }) {
  switch (item.kind) {
    case "banner":
      return (
        <Box flexDirection="column" marginBottom={1}>
          {item.lines.map((line, i) => (
            <Text key={i} bold={i === 0} color={i === 0 ? "cyan" : undefined} dimColor={i > 0}>
              {line}
            </Text>
          ))}
        </Box>
      );
    case "input":
      return (
        <Text>
          <Text color="cyan" dimColor>
            {PROMPT}
          </Text>
          {item.text}
        </Text>
      );
    case "comment":
      return (
        <Text dimColor italic>
          {item.text}
        </Text>
      );
    case "output":
      return (
        <Box marginBottom={item.output.type === "logs" ? 0 : 1}>
          <OutputView output={item.output} width={width} />
        </Box>
      );
    case "job":
      return <FinishedJob job={item.job} />;
  }
}

export function App({ controller }: { controller: ReplController }) {
  const state = useSyncExternalStore(controller.subscribe, controller.snapshot);
  const jobs = useSyncExternalStore(controller.workspace.jobs.subscribe, controller.workspace.jobs.snapshot);
  const pipelines = useSyncExternalStore(
    controller.workspace.pipelines.subscribe,
    controller.workspace.pipelines.snapshot,
  );
  const width = useTerminalWidth();
  const prompt = usePrompt(controller, state.busy !== undefined);
  const { exit } = useApp();
  const { stdout } = useStdout();
  const epoch = useRef(state.epoch);

  useEffect(() => {
    controller.width = width;
  }, [controller, width]);
  useEffect(() => {
    if (state.quitting) exit();
  }, [state.quitting, exit]);
  useEffect(() => {
    if (state.epoch !== epoch.current) {
      epoch.current = state.epoch;
      stdout.write(CLEAR_SCREEN);
    }
  }, [state.epoch, stdout]);

  return (
    <>
      <Static key={state.epoch} items={[...state.items]}>
        {(item) => <ItemView key={item.id} item={item} width={width} />}
      </Static>
      <Box flexDirection="column">
        <PipelinePanel pipelines={pipelines} width={width} />
        <JobsPanel jobs={jobs} width={width} />
        {state.busy ? <BusyLine line={state.busy.line} since={state.busy.since} /> : <PromptLine line={prompt.line} />}
        {prompt.candidates.length > 1 ? <Candidates candidates={prompt.candidates} width={width} /> : null}
        {prompt.notice ? <Text color="yellow">{prompt.notice}</Text> : null}
      </Box>
    </>
  );
}
