/**
 * The issue-17 table that `npm run bench` prints at the end: each benchmark reports its
 * rows with `summaryRow`, which appends them (one JSON line each) to the file named by
 * MDPS_BENCH_SUMMARY when run-all set it; run alone, a benchmark prints only its own output.
 */
import { appendFileSync, readFileSync } from "node:fs";

export interface SummaryRow {
  readonly what: string;
  readonly mdps: string;
  readonly baseline: string;
  readonly target: string;
}

export function summaryRow(row: SummaryRow): void {
  const file = process.env.MDPS_BENCH_SUMMARY;
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`);
}

/** The rows gathered in `file`, as a Markdown table. */
export function summaryTable(file: string): string {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return "(no rows reported)";
  }
  const rows = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SummaryRow);
  return [
    "| what | mdps | baseline, same run | target |",
    "|---|---|---|---|",
    ...rows.map((r) => `| ${r.what} | ${r.mdps} | ${r.baseline} | ${r.target} |`),
  ].join("\n");
}
