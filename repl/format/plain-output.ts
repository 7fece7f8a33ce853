/**
 * Outputs as plain text lines: what piped mode prints, and what the Ink views lay out
 * (they add colour). Kept free of ANSI codes so scripts and tests can read it.
 */
import type { HelpEntry, Output, TableOutput } from "../commands/types.js";
import { histogramLines } from "./histogram.js";
import { KEY_HELP } from "./key-help.js";
import { layoutBlocks, type TextTable } from "./text-table.js";

export function plainLines(output: Output, width: number): string[] {
  switch (output.type) {
    case "message":
    case "value":
      return output.text.split("\n");
    case "table":
      return tableLines(output, width);
    case "histogram":
      return [output.title, ...histogramLines(output.panels, width)];
    case "help":
      return helpLines(output.entries, output.keys);
    case "logs":
      return output.lines.map((l) => `${l.timestamp}  ${l.level.padEnd(7)}  ${l.message}`);
    case "error":
      return [
        `error: ${output.title}`,
        ...(output.detail ? [`  ${output.detail}`] : []),
        ...(output.fields ?? []).map((f) => `  - ${f}`),
        ...(output.hint ? [`  hint: ${output.hint}`] : []),
      ];
    case "group":
      return output.items.flatMap((item, i) => (i === 0 ? plainLines(item, width) : ["", ...plainLines(item, width)]));
    case "clear":
    case "quit":
    case "none":
      return [];
  }
}

export function tableLines(output: TableOutput, width: number): string[] {
  const blocks = tableBlocks(output, width).map((b) => [b.header, b.rule, ...b.lines]);
  return [
    ...(output.title ? [output.title] : []),
    ...blocks.flatMap((lines, i) => (i === 0 ? lines : ["", ...lines])),
    ...(output.footer ? [output.footer] : []),
  ];
}

/** The table laid out to `width`: one block, or several when it wraps. */
export function tableBlocks(output: TableOutput, width: number): TextTable[] {
  return layoutBlocks(output.columns, output.rows, {
    width,
    numeric: output.numeric,
    overflow: output.wrap ? "wrap" : "hide",
  });
}

export function helpLines(entries: readonly HelpEntry[], keys: boolean): string[] {
  const USAGE_WIDTH = 34;
  const lines: string[] = [];
  for (const entry of entries) {
    const aliases = entry.aliases.length > 0 ? ` (also ${entry.aliases.map((a) => `/${a}`).join(", ")})` : "";
    // A long usage gets a line of its own, so the descriptions stay in one column.
    if (entry.usage.length > USAGE_WIDTH)
      lines.push(entry.usage, `${" ".repeat(USAGE_WIDTH)}  ${entry.description}${aliases}`);
    else lines.push(`${entry.usage.padEnd(USAGE_WIDTH)}  ${entry.description}${aliases}`);
    for (const detail of entry.details ?? []) lines.push(`    ${detail}`);
  }
  if (keys) {
    lines.push("", "Keys");
    for (const [key, what] of KEY_HELP) lines.push(`${key.padEnd(12)}  ${what}`);
    lines.push("", "Anything else is JavaScript: `await session.health()`, `customers.head(3)`.");
    lines.push("/help <command> shows a command's details (/help preprocess lists every parameter).");
  }
  return lines;
}
