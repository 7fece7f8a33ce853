/** Transcript items as plain text, for piped mode. */
import type { HistoryItem } from "../controller.js";
import { formatDuration } from "../format/cells.js";
import { plainLines } from "../format/plain-output.js";

export const PLAIN_PROMPT = "mdps> ";

export function itemLines(item: HistoryItem, width: number): string[] {
  switch (item.kind) {
    case "banner":
      return [...item.lines, ""];
    case "input":
      return [`${PLAIN_PROMPT}${item.text}`];
    case "comment":
      return [item.text];
    case "output":
      // Followed log lines come one item each and read as one block.
      return item.output.type === "logs" ? plainLines(item.output, width) : [...plainLines(item.output, width), ""];
    case "job": {
      const { job } = item;
      const took = formatDuration((job.finishedAt ?? job.startedAt) - job.startedAt);
      const lines = [`${job.ref} ${job.label}: ${job.status} in ${took}`];
      if (job.error) lines.push(`  ${job.error.title}: ${job.error.detail}`);
      for (const w of job.warnings) lines.push(`  warning: ${w.message}`);
      return lines;
    }
  }
}
