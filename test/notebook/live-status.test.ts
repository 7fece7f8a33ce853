import { afterEach, describe, expect, it } from "vitest";
import { LiveStatus, type JobSnapshot } from "../../src/display/notebook/live-status.js";
import {
  setNotebookKernel,
  type NotebookDisplay,
  type NotebookKernel,
} from "../../src/display/notebook/kernel-display.js";

/** Records what a tslab display would send: the latest content replaces the earlier. */
class RecordingDisplay implements NotebookDisplay {
  writes: string[] = [];
  html(html: string) {
    this.writes.push(html);
  }
  text(text: string) {
    this.writes.push(text);
  }
  get current() {
    return this.writes.at(-1) ?? "";
  }
}

const ID = "c4a5b6d7-e8f9-4a0b-8c1d-2e3f4a5b6c7d";
const request = { preprocessing_type: "RobustScaler", input_encryption_key: "***" };
const snap = (s: Partial<JobSnapshot>): JobSnapshot => ({
  id: ID,
  status: "queued",
  progress: 0,
  phase: "queued",
  request,
  ...s,
});

afterEach(() => setNotebookKernel(undefined));

describe("LiveStatus in a notebook", () => {
  it("updates one display in place and keeps the final state", () => {
    let now = 1_000;
    const display = new RecordingDisplay();
    const live = new LiveStatus({ display, now: () => now });
    expect(live.mode).toBe("notebook");
    expect(live.logLines).toBe(5);
    live.update(snap({}));
    now += 1_200;
    live.update(snap({ status: "running", phase: "fitting", progress: 0.5 }), [
      { message: "read 1000 rows" },
      { level: "warning", message: "column <b> constant" },
    ]);
    expect(display.current).toContain("RobustScaler · job c4a5b6d7");
    expect(display.current).toContain("fitting");
    expect(display.current).toContain("50%");
    expect(display.current).toContain("1.2 s elapsed");
    expect(display.current).toContain("read 1000 rows");
    expect(display.current).toContain("[warning] column &lt;b&gt; constant");
    now += 800;
    live.finish(
      snap({
        status: "succeeded",
        phase: "done",
        progress: 1,
        created_at: "2025-12-31T23:59:59.990Z",
        started_at: "2026-01-01T00:00:00.000Z",
        finished_at: "2026-01-01T00:00:01.250Z",
      }),
    );
    const final = display.current;
    expect(final).toContain("succeeded");
    expect(final).toContain("100%");
    expect(final).toContain("ran 1.3 s after 10 ms in the queue");
    expect(final).toContain("read 1000 rows"); // logs stay in the saved output
    live.update(snap({ status: "running" }));
    expect(display.current).toBe(final);
    expect(display.writes.join("")).not.toContain("***");
  });

  it("finds the kernel's display by itself", () => {
    const display = new RecordingDisplay();
    const kernel: NotebookKernel = { newDisplay: () => display, display };
    setNotebookKernel(kernel);
    const live = new LiveStatus();
    expect(live.mode).toBe("notebook");
    live.finish(snap({ status: "failed", error: { title: "Bad input", detail: "box-cox needs positive data" } }));
    expect(display.current).toContain("box-cox needs positive data");
  });

  it("survives a display that throws", () => {
    const live = new LiveStatus({
      display: {
        html() {
          throw new Error("Not ready");
        },
        text() {},
      },
    });
    expect(() => live.update(snap({}))).not.toThrow();
    expect(() => live.finish(snap({ status: "succeeded" }))).not.toThrow();
  });
});

describe("LiveStatus outside a notebook", () => {
  it("prints nothing by default", () => {
    setNotebookKernel(null);
    const live = new LiveStatus();
    expect(live.mode).toBe("none");
    expect(live.logLines).toBe(0);
    live.update(snap({}));
    live.finish(snap({ status: "succeeded" }));
  });

  it("prints one line per change of state, phase or quarter of progress in text mode", () => {
    setNotebookKernel(null);
    const lines: string[] = [];
    let now = 0;
    const live = new LiveStatus({ mode: "text", stream: { write: (s: string) => lines.push(s) }, now: () => now });
    live.update(snap({}));
    live.update(snap({}));
    now = 500;
    live.update(snap({ status: "running", phase: "fitting", progress: 0.1 }));
    live.update(snap({ status: "running", phase: "fitting", progress: 0.2 }));
    live.update(snap({ status: "running", phase: "fitting", progress: 0.3 }));
    now = 2_000;
    live.finish(snap({ status: "succeeded", phase: "done", progress: 1 }));
    expect(lines).toEqual([
      "[mdps] RobustScaler · job c4a5b6d7 queued ░░░░░░░░░░ 0% 0 ms\n",
      "[mdps] RobustScaler · job c4a5b6d7 running fitting █░░░░░░░░░ 10% 500 ms\n",
      "[mdps] RobustScaler · job c4a5b6d7 running fitting ███░░░░░░░ 30% 500 ms\n",
      "[mdps] RobustScaler · job c4a5b6d7 succeeded done ██████████ 100% 2.0 s\n",
    ]);
  });
});
