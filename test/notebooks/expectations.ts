/**
 * What each executed notebook must show, beyond "no error": the things a reader checks
 * by eye (the job reached `succeeded`, the result has the expected shape, a plot is there).
 */
import { expect } from "vitest";
import type { ExecutedNotebook } from "./jupyter.js";

export interface Executed {
  notebook: ExecutedNotebook;
  /** Text of each cell's outputs (stdout, text/plain and text/html), by cell index. */
  texts: string[];
  /** All of it in one string. */
  all: string;
  /** Number of SVG pictures displayed. */
  svgCount: number;
}

export const EXPECTATIONS: Record<string, (run: Executed) => void> = {
  smoke: ({ notebook, texts, svgCount }) => {
    expect(texts[1]).toContain("in notebook: true");
    // The live status replaced its first state in place: one output, the final one.
    const live = notebook.cells[2]?.outputs ?? [];
    expect(live).toHaveLength(1);
    expect(texts[2]).toContain("succeeded");
    expect(texts[2]).toContain("fitting 2 columns");
    expect(texts[2]).not.toContain("elapsed");
    expect(texts[3]).toContain("3 rows × 1 columns");
    expect(svgCount).toBe(1);
    expect(texts[4]).toMatch(/SvgChart\(\d+×\d+\)/);
  },
};
