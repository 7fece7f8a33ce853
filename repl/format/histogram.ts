/**
 * Terminal histograms: equal-width bins over the data's range, drawn with block
 * characters (eighths) so small differences still show. Two panels (before and
 * after a transform) sit side by side when the terminal is wide enough.
 */
import type { HistogramPanel } from "../commands/types.js";
import { formatNumberCell, truncate } from "./cells.js";

/** The smallest and largest present value (Infinity, -Infinity when there is none). */
export function valueRange(values: Float64Array): { readonly min: number; readonly max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** Equal-width bins over the values' range, or over `range` (a shared x axis for several panels). */
export function binValues(
  values: Float64Array,
  bins: number,
  label: string,
  range?: { readonly min: number; readonly max: number },
): HistogramPanel {
  const { min, max } = range ?? valueRange(values);
  let missing = 0;
  for (const v of values) if (Number.isNaN(v)) missing++;
  if (min === Infinity || missing === values.length) return { label, bins: [], missing };
  if (min === max) return { label, bins: [{ from: min, to: max, count: values.length - missing }], missing };
  const width = (max - min) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    // The maximum belongs to the last bin, as in numpy.histogram.
    counts[Math.min(bins - 1, Math.floor((v - min) / width))]!++;
  }
  return {
    label,
    bins: counts.map((count, i) => ({
      from: min + i * width,
      to: i === bins - 1 ? max : min + (i + 1) * width,
      count,
    })),
    missing,
  };
}

const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

export function bar(count: number, maxCount: number, width: number): string {
  if (maxCount <= 0 || width <= 0) return "";
  const eighths = Math.round((count / maxCount) * width * 8);
  const full = Math.floor(eighths / 8);
  const text = "█".repeat(full) + EIGHTHS[eighths % 8]!;
  // A non-empty bin always shows something.
  return text === "" && count > 0 ? "▏" : text;
}

/** One panel as lines of exactly `width` characters (or fewer, right-trimmed). */
export function panelLines(panel: HistogramPanel, width: number): string[] {
  const lines = [truncate(panel.label, width)];
  if (panel.bins.length === 0) {
    lines.push("(no values)");
    return lines;
  }
  const labels = panel.bins.map((b) => formatNumberCell(b.from));
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const maxCount = Math.max(...panel.bins.map((b) => b.count));
  const countWidth = String(maxCount).length;
  const barWidth = Math.max(4, width - labelWidth - countWidth - 4);
  panel.bins.forEach((b, i) => {
    const barText = bar(b.count, maxCount, barWidth);
    lines.push(
      `${labels[i]!.padStart(labelWidth)} │${barText.padEnd(barWidth)} ${String(b.count).padStart(countWidth)}`,
    );
  });
  const last = panel.bins[panel.bins.length - 1]!;
  lines.push(
    `${" ".repeat(labelWidth)} └ max ${formatNumberCell(last.to)}${panel.missing > 0 ? `, ${panel.missing} missing` : ""}`,
  );
  return lines;
}

/** Panels side by side when each gets at least 40 columns, else one under the other. */
export function histogramLines(panels: readonly HistogramPanel[], width: number): string[] {
  const gap = 4;
  if (panels.length > 1 && (width - gap * (panels.length - 1)) / panels.length >= 40) {
    const each = Math.floor((width - gap * (panels.length - 1)) / panels.length);
    const columns = panels.map((p) => panelLines(p, each));
    const height = Math.max(...columns.map((c) => c.length));
    const lines: string[] = [];
    for (let row = 0; row < height; row++) {
      lines.push(
        columns
          .map((c) => (c[row] ?? "").padEnd(each))
          .join(" ".repeat(gap))
          .trimEnd(),
      );
    }
    return lines;
  }
  return panels.flatMap((p, i) => (i === 0 ? panelLines(p, width) : ["", ...panelLines(p, width)]));
}
