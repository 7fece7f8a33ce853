import { afterEach, describe, expect, it } from "vitest";
import { FinishedJob, JobsPanel } from "../../../repl/ui/jobs-panel.js";
import type { TrackedJob } from "../../../repl/workspace/job-tracker.js";
import { render, waitFor, type Rendered } from "../render.js";

const base: TrackedJob = {
  ref: "j1",
  id: "00000000-0000-4000-8000-000000000001",
  label: "StandardScaler on customers",
  status: "running",
  phase: "fitting",
  progress: 0.5,
  startedAt: Date.now(),
  finishedAt: undefined,
  error: undefined,
  warnings: [],
};

let view: Rendered | undefined;
afterEach(() => view?.unmount());

describe("JobsPanel", () => {
  it("shows each running job with phase, progress and a ticking time", async () => {
    view = render(
      <JobsPanel width={120} jobs={[base, { ...base, ref: "j2", finishedAt: Date.now(), status: "succeeded" }]} />,
    );
    const screen = view.screen();
    expect(screen).toContain("Jobs");
    expect(screen).toContain("j1");
    expect(screen).toContain("fitting");
    expect(screen).toContain(" 50%");
    expect(screen).not.toContain("j2");
    // The spinner and elapsed time keep changing while the job runs.
    const first = view.screen();
    await waitFor(() => view!.screen() !== first, 30_000, "the panel to redraw");
  });

  it("renders nothing when no job runs", () => {
    view = render(<JobsPanel width={120} jobs={[{ ...base, finishedAt: Date.now(), status: "failed" }]} />);
    expect(view.screen().trim()).toBe("");
  });
});

describe("FinishedJob", () => {
  it("lists scikit-learn's warnings under a job that succeeded", () => {
    const message =
      'n_quantiles 1000 is more than the 134 rows, so 134 quantiles were used. scikit-learn 1.2.1 warns: "..."';
    view = render(
      <FinishedJob
        job={{
          ...base,
          status: "succeeded",
          finishedAt: base.startedAt + 10,
          warnings: [{ code: "n_quantiles_capped", message, column: null }],
        }}
      />,
      { columns: 200 },
    );
    expect(view.screen()).toContain("succeeded in");
    expect(view.screen()).toContain(`⚠ ${message}`);
  });

  it("shows outcome and duration, and the job's error when it failed", () => {
    const startedAt = Date.now() - 1500;
    view = render(
      <FinishedJob
        job={{
          ...base,
          status: "failed",
          startedAt,
          finishedAt: startedAt + 1500,
          error: { title: "Bad data", detail: "column x is text" },
        }}
      />,
    );
    expect(view.screen()).toContain("✘ j1 StandardScaler on customers failed in 1.5 s");
    expect(view.screen()).toContain("Bad data: column x is text");
  });

  it("shows a cancelled job as cancelled, not as a failure", () => {
    const startedAt = Date.now() - 800;
    view = render(
      <FinishedJob
        job={{
          ...base,
          status: "cancelled",
          startedAt,
          finishedAt: startedAt + 800,
          error: { title: "cancelled", detail: "cancelled by request" },
        }}
      />,
    );
    expect(view.screen()).toContain("■ j1 StandardScaler on customers cancelled in 800 ms");
    expect(view.screen()).not.toContain("✘");
  });
});
