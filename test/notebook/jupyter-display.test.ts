/**
 * One home for the HTML: what a Session, Blob, Job, result, fitted state and pipeline return from
 * `[Symbol.for("Jupyter.display")]()` (Deno's kernel) is what `show()` and tslab display,
 * on a real local session.
 */
import { describe, expect, it } from "vitest";
import { JUPYTER_DISPLAY, type MimeBundle } from "../../src/display/notebook/rich-inspect.js";
import { toHTML } from "../../src/display/notebook/show.js";
import { fittedHtml } from "../../src/display/render/fitted.js";
import { sampleFrame, useLocalSession } from "../session/session-fixture.js";

const session = useLocalSession();

function bundleOf(value: unknown): MimeBundle {
  const display = (value as Partial<Record<typeof JUPYTER_DISPLAY, () => MimeBundle>>)[JUPYTER_DISPLAY];
  if (typeof display !== "function") throw new Error('no Symbol.for("Jupyter.display") method');
  return display.call(value);
}

describe('Symbol.for("Jupyter.display") on mdps objects', () => {
  it("returns the HTML show() draws, with the object's one-line text", async () => {
    const blob = await session().upload(sampleFrame(20), { name: "sample" });
    const job = await session().preprocess(blob, { type: "StandardScaler", columns: ["x1", "x2"] });
    await job.wait({ progress: false });
    const result = await job.result();
    for (const value of [session(), blob, job, result]) {
      const bundle = bundleOf(value);
      expect(bundle["text/html"]).toBe(toHTML(value));
    }
    expect(bundleOf(session())["text/plain"]).toBe(session().toString());
    expect(bundleOf(job)["text/plain"]).toMatch(/^Job\([0-9a-f-]{36}, succeeded\)$/);
    expect(bundleOf(blob)["text/plain"]).toBe(blob.toString());
    expect(bundleOf(result.fitted)).toEqual({
      "text/html": fittedHtml(result.fitted!),
      "text/plain": "StandardScaler fitted state",
    });
    const pipeline = session().pipeline([{ type: "StandardScaler", columns: ["x1", "x2"] }]);
    const fitted = await pipeline.fit(sampleFrame(20), { progress: false });
    for (const value of [pipeline, fitted]) {
      expect(bundleOf(value)).toEqual({ "text/html": value.toHTML(), "text/plain": value.toString() });
    }
    // Nothing a secret: the bundle of a session names no client secret or token.
    expect(JSON.stringify(bundleOf(session()))).not.toMatch(/secret|token|Bearer/i);
  });
});
