/** Counts of what a rendered chart draws, read from Vega's SVG: what a reader would count by eye. */
export interface ChartMarks {
  /** Scatter points (symbol marks, shared outlines placed with <use> included). */
  points: number;
  /** Bars of histograms. */
  bars: number;
  /** Scatter panels. */
  scatters: number;
  /** Histogram panels. */
  histograms: number;
  /** Legend entries (labels of a categorical legend). */
  legendEntries: number;
  /** A colour bar (gradient legend) is drawn. */
  colourBar: boolean;
}

function groups(svg: string, kind: string): string[] {
  // Mark groups hold only their items (no nested <g>), so each ends at the first </g>.
  return [...svg.matchAll(new RegExp(`<g class="${kind}[^"]*"[^>]*>(.*?)</g>`, "g"))].map((m) => m[1]!);
}

export function chartMarks(svg: string): ChartMarks {
  const symbols = groups(svg, "mark-symbol role-mark ");
  const rects = groups(svg, "mark-rect role-mark ");
  const legendLabels = groups(svg, "mark-text role-legend-label");
  return {
    points: symbols.reduce((n, g) => n + (g.match(/<(path|use)\b/g)?.length ?? 0), 0),
    bars: rects.reduce((n, g) => n + (g.match(/<path\b/g)?.length ?? 0), 0),
    scatters: symbols.length,
    histograms: rects.length,
    legendEntries: legendLabels.reduce((n, g) => n + (g.match(/<text\b/g)?.length ?? 0), 0),
    colourBar: /role-legend-gradient/.test(svg),
  };
}
