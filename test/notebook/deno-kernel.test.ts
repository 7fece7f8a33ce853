/**
 * Deno's Jupyter kernel as mdps sees it: `Deno.jupyter.display` stood in for by a recorder
 * (the real kernel runs in test/notebooks/deno-notebooks.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { findKernel, inNotebook } from "../../src/display/notebook/kernel-display.js";
import { JUPYTER_DISPLAY, jupyterBundle, withJupyterDisplay } from "../../src/display/notebook/rich-inspect.js";
import { LiveStatus } from "../../src/display/notebook/live-status.js";
import { show } from "../../src/display/notebook/show.js";
import { SvgChart } from "../../src/display/notebook/svg-chart.js";
import { CheckReport } from "../../src/session/preflight/check-report.js";
import { resultHtml } from "../../src/display/render/records.js";
import type { JobResult } from "../../src/core/contract/index.js";

interface Sent {
  data: Record<string, string>;
  options: { raw?: boolean; display_id?: string; update?: boolean };
}

const g = globalThis as { Deno?: unknown };

/** What `deno jupyter` puts on globalThis.Deno, recording each display message. */
function installFakeDeno(): Sent[] {
  const sent: Sent[] = [];
  g.Deno = {
    jupyter: {
      display: (data: Record<string, string>, options: Sent["options"]) => {
        sent.push({ data, options });
        return Promise.resolve();
      },
    },
  };
  return sent;
}

afterEach(() => {
  delete g.Deno;
});

describe("Deno's kernel", () => {
  it("is no notebook under `deno run`, where Deno.jupyter throws", () => {
    g.Deno = {
      get jupyter() {
        throw new Error("Deno.jupyter is only available in `deno jupyter` subcommand");
      },
    };
    expect(findKernel()).toBeUndefined();
    expect(inNotebook()).toBe(false);
  });

  it("is found through Deno.jupyter", () => {
    installFakeDeno();
    expect(inNotebook()).toBe(true);
  });

  it("shows a record as HTML and other values as text in the cell (Deno drops process.stdout)", () => {
    const sent = installFakeDeno();
    show({ id: "7d1e2f3a-4b5c", name: "a.csv", sha256: "00", record_type: "csv", size_bytes: 10, tags: [] });
    show(42);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.data["text/html"]).toContain("a.csv");
    expect(sent[0]?.options).toEqual({ raw: true });
    expect(sent[1]?.data).toEqual({ "text/plain": "42" });
  });

  it("replaces one output in place for a live status: one display id, then updates", () => {
    const sent = installFakeDeno();
    const live = new LiveStatus();
    live.update({ status: "running", phase: "fitting", progress: 0.5 });
    live.finish({ status: "succeeded", progress: 1 });
    live.update({ status: "running" }); // ignored after finish
    expect(sent).toHaveLength(2);
    const id = sent[0]?.options.display_id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.map((s) => s.options)).toEqual([
      { raw: true, display_id: id, update: false },
      { raw: true, display_id: id, update: true },
    ]);
    expect(sent[1]?.data["text/html"]).toContain("succeeded");
    // A second status gets its own output.
    new LiveStatus().update({ status: "queued" });
    expect(sent[2]?.options.display_id).not.toBe(id);
  });

  it("lets a wait hold on until the final state has left the process", async () => {
    const releases: Array<() => void> = [];
    g.Deno = { jupyter: { display: () => new Promise<void>((resolve) => releases.push(resolve)) } };
    const live = new LiveStatus();
    live.update({ status: "running", progress: 0.5 });
    live.finish({ status: "succeeded", progress: 1 });
    let settled = false;
    const done = live.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBe(false);
    expect(releases).toHaveLength(2);
    for (const release of releases) release();
    await done;
    expect(settled).toBe(true);
  });

  it("stops holding on after maxMs when the kernel never confirms", async () => {
    g.Deno = { jupyter: { display: () => new Promise<void>(() => undefined) } };
    const live = new LiveStatus();
    live.finish({ status: "succeeded" });
    const started = performance.now();
    // The display never settles: without maxMs this would not return at all.
    await live.settled(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("never fails the caller when the kernel cannot display", async () => {
    g.Deno = { jupyter: { display: () => Promise.reject(new Error("kernel gone")) } };
    expect(() => {
      show({ rowCount: 1, columns: [{ name: "x", kind: "number", values: Float64Array.from([1]) }] });
    }).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0)); // an unhandled rejection would fail the run
  });
});

describe('Symbol.for("Jupyter.display")', () => {
  it("is the symbol Deno looks for", () => {
    expect(JUPYTER_DISPLAY).toBe(Symbol.for("Jupyter.display"));
  });

  it("gives the same HTML as show(), with a text fallback", () => {
    const chart = new SvgChart('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="5"></svg>', {}, "a chart");
    expect(chart[JUPYTER_DISPLAY]()).toEqual({ "text/html": chart.toHTML(), "text/plain": "SvgChart(10×5)" });
    const report = new CheckReport({ rows: 3, type: undefined, features: [], columns: [], warnings: [], problems: [] });
    expect(report[JUPYTER_DISPLAY]()).toEqual({ "text/html": report.toHTML(), "text/plain": report.toString() });
  });

  it("falls back to the text when rendering throws", () => {
    const bundle = jupyterBundle(() => {
      throw new Error("broken renderer");
    }, "Thing()");
    expect(bundle).toEqual({ "text/plain": "Thing()" });
  });

  it("can be given to a plain record without changing its keys or JSON", () => {
    const result = {
      job_id: "j1",
      fitted: { type: "StandardScaler", params: {}, feature_names_in_: ["x"], n_features_in_: 1 },
      outputs: [],
    } as unknown as JobResult;
    const before = JSON.stringify(result);
    const same = withJupyterDisplay(result, resultHtml, () => "result of j1");
    expect(same).toBe(result);
    expect(Object.keys(result)).toEqual(["job_id", "fitted", "outputs"]);
    expect(JSON.stringify(result)).toBe(before);
    const display = (result as unknown as Record<symbol, () => unknown>)[JUPYTER_DISPLAY];
    expect(display?.()).toEqual({ "text/html": resultHtml(result), "text/plain": "result of j1" });
  });
});
