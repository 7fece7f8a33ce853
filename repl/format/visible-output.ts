/**
 * Every output with control characters made visible (src/core/text/visible-text.ts) before
 * it reaches the screen: blob names, tags, model names, job errors and service messages
 * can hold escape sequences (OSC 52 writes the clipboard), and the REPL prints them.
 * Line breaks of messages stay; inside a table cell or a title they show as `\n`.
 */
import { visible } from "../../src/internal/index.js";
import type { Output } from "../commands/types.js";

const lines = (text: string) => visible(text, { keepNewlines: true });
const line = (text: string) => visible(text);

export function visibleOutput(output: Output): Output {
  switch (output.type) {
    case "message":
    case "value":
      return { ...output, text: lines(output.text) };
    case "table":
      return {
        ...output,
        title: output.title === undefined ? undefined : line(output.title),
        columns: output.columns.map(line),
        rows: output.rows.map((row) => row.map(line)),
        footer: output.footer === undefined ? undefined : lines(output.footer),
      };
    case "histogram":
      return {
        ...output,
        title: line(output.title),
        panels: output.panels.map((panel) => ({ ...panel, label: line(panel.label) })),
      };
    case "logs":
      return {
        ...output,
        lines: output.lines.map((l) => ({
          timestamp: line(l.timestamp),
          level: line(l.level),
          message: lines(l.message),
        })),
      };
    case "error":
      return {
        ...output,
        title: line(output.title),
        detail: output.detail === undefined ? undefined : lines(output.detail),
        hint: output.hint === undefined ? undefined : lines(output.hint),
        fields: output.fields?.map(line),
      };
    case "group":
      return { ...output, items: output.items.map(visibleOutput) };
    case "help":
    case "clear":
    case "quit":
    case "none":
      return output;
  }
}
