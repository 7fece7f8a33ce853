/**
 * A session's notices in a notebook: a yellow line in the cell, not a process warning
 * (tslab shows those as a red stderr box with Node's --trace-warnings hint). Outside a
 * notebook they stay MdpsWarnings.
 */
import { afterEach, expect, it, vi } from "vitest";
import { DataFrame } from "danfojs-node";
import { setNotebookKernel } from "../../src/display/notebook/kernel-display.js";
import { showNotice } from "../../src/display/notebook/notice.js";
import { useLocalSession } from "../session/session-fixture.js";

const session = useLocalSession();
const outputs: string[] = [];
const display = { html: (s: string) => outputs.push(s), text: (s: string) => outputs.push(s) };

afterEach(() => {
  setNotebookKernel(undefined);
  outputs.length = 0;
  vi.restoreAllMocks();
});

/** A frame whose id column would be transformed: the pre-flight check gives a notice. */
const withId = () => new DataFrame({ id: [1, 2, 3, 4], x: [0.5, 2, 1, 7] });

it("shows a notice as a line in the cell, escaped", () => {
  expect(showNotice("a <b>")).toBe(false);
  setNotebookKernel({ newDisplay: () => display, display });
  expect(showNotice("a <b>")).toBe(true);
  expect(outputs).toEqual([expect.stringContaining("⚠ <b>MdpsWarning</b>: a &lt;b&gt;</div>")]);
});

it("a job's notice goes to the cell in a notebook, and is a process warning elsewhere", async () => {
  const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
  setNotebookKernel({ newDisplay: () => display, display });
  await (await session().preprocess(withId(), { type: "StandardScaler" })).wait({ progress: false });
  expect(outputs.filter((o) => o.includes("MdpsWarning") && o.includes("looks like a row id"))).toHaveLength(1);
  expect(warn).not.toHaveBeenCalled();

  setNotebookKernel(null);
  await (await session().preprocess(withId(), { type: "StandardScaler" })).wait({ progress: false });
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('column "id" looks like a row id'), "MdpsWarning");
});
