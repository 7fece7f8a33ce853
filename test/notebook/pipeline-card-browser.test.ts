/**
 * The pipeline card as chromium lays it out in a notebook 1100 px wide (a laptop's
 * JupyterLab with its side bar open): one line per step, long column lists cut with an
 * ellipsis (the whole list in the tooltip), the bar and its percentage together, and an
 * error's text still wrapping under its step.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { pipelineCardHtml, type PipelineStepView } from "../../src/display/notebook/pipeline-card.js";
import { chromiumAvailable, launchChromium, screenshot } from "../portal/portal-harness.js";

const COLUMNS = [
  "mean radius",
  "mean texture",
  "mean perimeter",
  "mean area",
  "mean smoothness",
  "worst concave points",
  "worst symmetry",
];
const STEPS: PipelineStepView[] = [
  {
    type: "PowerTransformer",
    columns: COLUMNS,
    status: "succeeded",
    progress: 1,
    jobId: "3f2a9c4e-1b2d-4e5f-8a9b-0c1d2e3f4a5b",
    elapsedMs: 4210,
  },
  {
    type: "QuantileTransformer",
    columns: COLUMNS,
    status: "running",
    phase: "fitting",
    progress: 0.42,
    jobId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
    elapsedMs: 1830,
  },
  { type: "StandardScaler", columns: [], status: "pending" },
];

const run = chromiumAvailable();
let browser: Browser | undefined;
beforeAll(async () => {
  if (run) browser = await launchChromium();
});
afterAll(() => browser?.close());

async function render(width: number, steps: readonly PipelineStepView[]): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width, height: 400 } });
  await page.setContent(
    `<body style="margin:8px">${pipelineCardHtml(steps, "mdps Pipeline (3 steps)", 6040, false)}</body>`,
  );
  return page;
}

it.runIf(run)("keeps one line per step at 1100 px, the whole column list in the tooltip", async () => {
  const page = await render(1100, STEPS);
  await screenshot(page, "pipeline-card-1100");
  // Browser code as strings: the tests compile without the DOM library.
  const cells = await page.evaluate<Array<{ text: string; title: string | null; height: number }>>(
    `[...document.querySelectorAll("tbody td")].map((e) => ({ text: e.textContent, title: e.getAttribute("title"), height: e.getBoundingClientRect().height }))`,
  );
  // One line: no cell is taller than a header cell and a half (a wrapped one is twice as tall).
  const header = await page.evaluate<number>(`document.querySelector("thead th").getBoundingClientRect().height`);
  for (const cell of cells)
    expect({ text: cell.text, oneLine: cell.height < 1.5 * header }).toEqual({ text: cell.text, oneLine: true });
  expect(cells.filter((c) => c.title !== null).map((c) => c.title)).toEqual([
    COLUMNS.join(", "),
    COLUMNS.join(", "),
    "every numeric column",
  ]);
  const table = await page.evaluate<number>(`document.querySelector("table").getBoundingClientRect().width`);
  expect(table).toBeLessThanOrEqual(1100 - 16);
  await page.close();
});

it.runIf(run)("still wraps an error's text under its step, and the rows above stay one line", async () => {
  const failed: PipelineStepView = {
    ...STEPS[1]!,
    status: "failed",
    error: { title: "Job failed", detail: "the input has no numeric column to transform. ".repeat(12) },
  };
  const page = await render(1100, [STEPS[0]!, failed]);
  const heights = await page.evaluate<number[]>(
    `[...document.querySelectorAll("tbody tr")].map((r) => r.getBoundingClientRect().height)`,
  );
  expect(heights[0]).toBe(heights[1]);
  expect(heights[2]).toBeGreaterThan(2 * heights[0]!);
  const width = await page.evaluate<number>(`document.querySelector("table").getBoundingClientRect().width`);
  expect(width).toBeLessThanOrEqual(1100 - 16);
  await page.close();
});
