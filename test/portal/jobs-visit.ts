/**
 * The portal visit's look at a model's work: the Jobs page while jobs are sent (rows appear
 * and end without a reload), a job page that reloads itself when its job ends, a job's
 * fitted state, chart and download, the Blobs pages with a preview and a delete, and Health.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { Session } from "../../src/index.js";
import { screenshot, type PortalServer } from "./portal-harness.js";

/** What the visit has made so far (portal.test.ts runs it in order, as one person's visit). */
export interface Visit {
  readonly page: Page;
  readonly server: PortalServer;
  readonly dataDir: string;
  readonly scopes: readonly string[];
  readonly state: {
    readonly modelId: string;
    readonly clientId: string;
    readonly secret: string;
    readonly jobId: string;
  };
}

function connect({ server, state, scopes }: Visit): Promise<Session> {
  return Session.connect({
    baseUrl: server.url,
    clientId: state.clientId,
    clientSecret: state.secret,
    modelId: state.modelId,
    scopes: [...scopes],
    env: {},
    configFile: false,
  });
}

export async function jobsAndBlobs(visit: Visit): Promise<void> {
  const { page, server, dataDir, state } = visit;
  // The Jobs page, open while a new job is sent: its row appears and ends there, without a navigation.
  await page.goto(`${server.url}/models/${state.modelId}/jobs`);
  expect(await page.getByRole("link", { name: "Jobs" }).getAttribute("aria-current")).toBe("page");
  expect(await page.locator("tbody tr").count()).toBe(1);
  let navigations = 0;
  const countNavigations = () => navigations++;
  page.on("framenavigated", countNavigations);
  const rows = Array.from({ length: 2000 }, (_, i) => `${i},${(i * 7919) % 1000},${i % 13}`);
  const csv = join(dataDir, "bigger.csv");
  await writeFile(csv, `id,x,y\n${rows.join("\n")}\n`);
  const session = await connect(visit);
  let second = "";
  try {
    const job = await session.preprocess(csv, { type: "MinMaxScaler", columns: ["x", "y"] });
    second = job.id;
    await page.locator(`tbody tr[data-status="succeeded"]`).nth(1).waitFor({ timeout: 30_000 });
    await job.wait({ timeoutMs: 60_000 });
  } finally {
    await session.close();
  }
  expect(await page.locator("tbody tr").count()).toBe(2);
  expect(await page.getByRole("cell", { name: "MinMaxScaler", exact: true }).count()).toBe(1);
  // Each row names its input (linked to the blob), its feature columns and its output.
  const minMax = page.locator(`tbody tr[data-job="${second}"]`);
  expect(await minMax.getByRole("link", { name: "bigger.csv", exact: true }).count()).toBe(1);
  expect(await minMax.getByRole("cell", { name: "x, y", exact: true }).count()).toBe(1);
  expect(await minMax.getByRole("cell", { name: "bigger-MinMaxScaler", exact: true }).count()).toBe(1);
  const first = page.locator(`tbody tr[data-job="${state.jobId}"]`);
  expect(await first.getByRole("link", { name: "input.csv", exact: true }).count()).toBe(1);
  expect(await first.getByRole("cell", { name: "input-StandardScaler", exact: true }).count()).toBe(1);
  // ...and a screen reader heard about it.
  await page.getByRole("status").filter({ hasText: "MinMaxScaler job" }).waitFor();
  page.off("framenavigated", countNavigations);
  expect(navigations).toBe(0);
  await screenshot(page, "20-jobs");

  // A job page opened while its job waits behind a long one: its status is live, and the
  // page reloads itself once the job ends, showing the results.
  const longRows = Array.from(
    { length: 150_000 },
    (_, i) => `${(i * 7919) % 100003},${(i * 104729) % 99991},${i % 97}`,
  );
  const longCsv = join(dataDir, "long.csv");
  await writeFile(longCsv, `p,q,r\n${longRows.join("\n")}\n`);
  const liveSession = await connect(visit);
  try {
    const longJob = await liveSession.preprocess(longCsv, { type: "PowerTransformer" });
    // More quantiles than rows: scikit-learn warns, and the job page shows the warning.
    const waiting = await liveSession.preprocess(csv, {
      type: "QuantileTransformer",
      columns: ["x", "y"],
      params: { n_quantiles: 5000 },
    });
    await page.goto(`${server.url}/models/${state.modelId}/jobs/${waiting.id}`);
    const firstStatus = await page.locator("dd .status").first().textContent();
    if (firstStatus === "queued" || firstStatus === "running") {
      await screenshot(page, "21-job-waiting");
      const reloaded = page.waitForEvent("framenavigated", { timeout: 60_000 });
      await reloaded;
    }
    await page.getByRole("heading", { name: "Fitted state" }).waitFor({ timeout: 60_000 });
    expect(await page.locator("dd .status").first().textContent()).toBe("succeeded");
    expect(await page.getByRole("heading", { name: "Warnings" }).count()).toBe(1);
    expect(await page.getByText("n_quantiles (5000) is greater than").count()).toBeGreaterThan(0);
    await screenshot(page, "21-job-warnings");
    await longJob.wait({ timeoutMs: 120_000 });
  } finally {
    await liveSession.close();
  }

  // A job: status, fitted state as a table, outputs with a download link, the before/after chart.
  await page.goto(`${server.url}/models/${state.modelId}/jobs/${second}`);
  expect(await page.getByRole("heading", { name: "Fitted state" }).count()).toBe(1);
  expect(await page.getByRole("columnheader", { name: "data_min_" }).count()).toBe(1);
  expect(await page.getByRole("heading", { name: "Timeline" }).count()).toBe(1);
  expect(await page.getByRole("img").count()).toBe(1);
  await screenshot(page, "21-job");
  const downloadLink = page.getByRole("link", { name: /^Download / });
  const [download] = await Promise.all([page.waitForEvent("download"), downloadLink.first().click()]);
  // Saved under the output's name with its record type's extension (the name has none).
  expect(download.suggestedFilename()).toMatch(/-[A-Za-z]+Scaler(-\d+)?\.(csv|json|arrow|parquet)$/);
  const path = await download.path();
  const bytes = await readFile(path);
  expect(bytes.length).toBeGreaterThan(1000);

  // Blobs: the inputs and outputs; a preview of the first 20 rows; delete with a confirmation.
  await page.goto(`${server.url}/models/${state.modelId}/blobs`);
  expect(await page.locator("tbody tr").count()).toBe(8);
  await screenshot(page, "22-blobs");
  await page.getByRole("link", { name: "bigger.csv", exact: true }).first().click();
  expect(await page.getByText("The first 20 of 2000 rows, 3 columns.").count()).toBe(1);
  expect(await page.locator("section[aria-labelledby=preview-title] tbody tr").count()).toBe(20);
  await screenshot(page, "23-blob");
  await page.getByRole("link", { name: "Delete" }).click();
  await screenshot(page, "24-blob-delete-confirm");
  await page.getByRole("button", { name: /^Yes, delete/ }).click();
  expect(await page.getByText("Blob deleted.").count()).toBe(1);
  expect(await page.locator("tbody tr").count()).toBe(7);

  // Health: the checks and this model's numbers.
  await page.goto(`${server.url}/models/${state.modelId}/health`);
  expect(await page.getByText("The service is healthy").count()).toBe(1);
  await screenshot(page, "25-health");
}
