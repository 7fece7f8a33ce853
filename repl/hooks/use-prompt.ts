/**
 * The prompt's keys: editing (pure rules in input/line-editor), history, Tab
 * completion, Enter, Ctrl+C / Ctrl+D / Ctrl+L. State changes only; the controller
 * does the work.
 */
import { useInput } from "ink";
import { useRef, useState } from "react";
import type { ReplController } from "../controller.js";
import { historyStep, startPosition, type HistoryPosition } from "../input/history-navigation.js";
import { EMPTY_LINE, editLine, lineAt, type LineState } from "../input/line-editor.js";

export interface PromptState {
  readonly line: LineState;
  readonly candidates: readonly string[];
  readonly notice: string | undefined;
}

export function usePrompt(controller: ReplController, busy: boolean): PromptState {
  const [line, setLine] = useState<LineState>(EMPTY_LINE);
  const [candidates, setCandidates] = useState<readonly string[]>([]);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const position = useRef<HistoryPosition>(startPosition(controller.history.entries));

  useInput((input, key) => {
    if (key.ctrl && input === "c") {
      setCandidates([]);
      if (controller.cancel()) return setNotice(undefined);
      if (line.value !== "") return setLine(EMPTY_LINE);
      return setNotice("Press Ctrl+D or type /quit to leave.");
    }
    if (key.ctrl && input === "d") {
      if (line.value === "") controller.quit();
      return;
    }
    if (key.ctrl && input === "l") {
      void controller.submit("/clear");
      return;
    }
    setNotice(undefined);
    if (busy) return;
    if (key.return) {
      const text = line.value;
      setLine(EMPTY_LINE);
      setCandidates([]);
      void controller.submit(text).then(() => {
        position.current = startPosition(controller.history.entries);
      });
      position.current = startPosition(controller.history.entries);
      return;
    }
    if (key.tab) {
      // Completion works on the text before the cursor; the rest stays as it is.
      const before = line.value.slice(0, line.cursor);
      const done = controller.complete(before);
      setLine({ value: done.line + line.value.slice(line.cursor), cursor: done.line.length });
      setCandidates(done.candidates.length > 1 ? done.candidates : []);
      return;
    }
    if (key.upArrow || key.downArrow) {
      const step = historyStep(controller.history.entries, position.current, line.value, key.upArrow ? "up" : "down");
      if (step) {
        position.current = step.position;
        setLine(lineAt(step.value));
      }
      return;
    }
    const next = editLine(line, input, key);
    if (next) {
      setLine(next);
      if (candidates.length > 0) setCandidates([]);
    }
  });

  return { line, candidates, notice };
}
