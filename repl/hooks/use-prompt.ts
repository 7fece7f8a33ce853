/**
 * The prompt's keys: editing (pure rules in input/line-editor), history, Tab
 * completion, Enter, Ctrl+C / Ctrl+D / Ctrl+L. State changes only; the controller
 * does the work.
 */
import { useInput, type Key } from "ink";
import { useRef, useState } from "react";
import type { ReplController } from "../controller.js";
import { historyStep, startPosition, type HistoryPosition } from "../input/history-navigation.js";
import { EMPTY_LINE, editLine, lineAt, type LineState } from "../input/line-editor.js";

export interface PromptState {
  readonly line: LineState;
  readonly candidates: readonly string[];
  readonly notice: string | undefined;
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

export function usePrompt(controller: ReplController, busy: boolean): PromptState {
  // The ref is the truth (several keys can arrive in one chunk); state re-renders.
  const lineRef = useRef<LineState>(EMPTY_LINE);
  const [line, setLineState] = useState<LineState>(EMPTY_LINE);
  const [candidates, setCandidates] = useState<readonly string[]>([]);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const position = useRef<HistoryPosition>(startPosition(controller.history.entries));
  const busyRef = useRef(busy);
  busyRef.current = busy;

  const setLine = (next: LineState): void => {
    lineRef.current = next;
    setLineState(next);
  };

  const handle = (input: string, key: Key): void => {
    const current = lineRef.current;
    if (key.ctrl && input === "c") {
      setCandidates([]);
      if (controller.cancel()) setNotice(undefined);
      else if (current.value !== "") setLine(EMPTY_LINE);
      else setNotice("Press Ctrl+D or type /quit to leave.");
      return;
    }
    if (key.ctrl && input === "d") {
      if (current.value === "") controller.quit();
      return;
    }
    if (key.ctrl && input === "l") {
      void controller.submit("/clear");
      return;
    }
    setNotice(undefined);
    if (busyRef.current) return;
    if (key.return) {
      setLine(EMPTY_LINE);
      setCandidates([]);
      busyRef.current = current.value.trim() !== "";
      void controller.submit(current.value).then(() => {
        position.current = startPosition(controller.history.entries);
      });
      position.current = startPosition(controller.history.entries);
      return;
    }
    if (key.tab) {
      // Completion works on the text before the cursor; the rest stays as it is.
      const done = controller.complete(current.value.slice(0, current.cursor));
      setLine({ value: done.line + current.value.slice(current.cursor), cursor: done.line.length });
      setCandidates(done.candidates.length > 1 ? done.candidates : []);
      return;
    }
    if (key.upArrow || key.downArrow) {
      const step = historyStep(
        controller.history.entries,
        position.current,
        current.value,
        key.upArrow ? "up" : "down",
      );
      if (step) {
        position.current = step.position;
        setLine(lineAt(step.value));
      }
      return;
    }
    const next = editLine(current, input, key);
    if (next) {
      setLine(next);
      setCandidates([]);
    }
  };

  useInput((input, key) => {
    // Keys typed faster than a read arrive as one chunk ("/pre\t", "/help\r"): replay them in order.
    if (input.length > 1 && /[\t\r]/.test(input) && !key.ctrl && !key.meta) {
      for (const part of input.split(/([\t\r])/)) {
        if (part === "\t") handle("", { ...NO_KEY, tab: true });
        else if (part === "\r") handle("", { ...NO_KEY, return: true });
        else if (part !== "") handle(part, NO_KEY);
      }
      return;
    }
    handle(input, key);
  });

  return { line, candidates, notice };
}
