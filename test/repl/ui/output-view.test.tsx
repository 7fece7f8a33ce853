import { afterEach, describe, expect, it } from "vitest";
import { OutputView } from "../../../repl/ui/output-view.js";
import { binValues } from "../../../repl/format/histogram.js";
import { render, type Rendered } from "../render.js";

let view: Rendered | undefined;
afterEach(() => view?.unmount());

describe("OutputView", () => {
  it("shows an error's title, detail, field errors and hint", () => {
    view = render(
      <OutputView
        width={100}
        output={{
          type: "error",
          title: "400 Bad Request",
          detail: "norm is wrong",
          fields: ["params.norm: must be l1, l2 or max"],
          hint: "see /help preprocess",
        }}
      />,
    );
    const screen = view.screen();
    expect(screen).toContain("✘ 400 Bad Request");
    expect(screen).toContain("norm is wrong");
    expect(screen).toContain("- params.norm: must be l1, l2 or max");
    expect(screen).toContain("hint: see /help preprocess");
  });

  it("lays out a table to the width it is given", () => {
    const columns = Array.from({ length: 12 }, (_, i) => `feature_${i}`);
    view = render(
      <OutputView width={60} output={{ type: "table", title: "wide", columns, rows: [columns.map(() => "0.5")] }} />,
    );
    const lines = view.screen().split("\n");
    expect(lines[0]).toBe("wide");
    expect(lines[1]).toMatch(/feature_0 .*\+\d+ columns$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("draws before/after histograms side by side on a wide screen", () => {
    const before = binValues(Float64Array.from([1, 2, 2, 3, 3, 3]), 3, "before: a.x");
    const after = binValues(Float64Array.from([-1, 0, 0, 1, 1, 1]), 3, "after: b.x");
    view = render(
      <OutputView width={120} output={{ type: "histogram", title: "Histogram of x", panels: [before, after] }} />,
    );
    const lines = view.screen().split("\n");
    expect(lines[0]).toBe("Histogram of x");
    expect(lines[1]).toMatch(/^before: a\.x\s+after: b\.x$/);
    expect(view.screen()).toContain("█");
  });

  it("lists help entries and keys", () => {
    view = render(
      <OutputView
        width={100}
        output={{
          type: "help",
          keys: true,
          entries: [{ name: "load", aliases: ["read"], usage: "/load <file>", description: "Read a file." }],
        }}
      />,
    );
    expect(view.screen()).toContain("/load <file>");
    expect(view.screen()).toContain("(also /read)");
    expect(view.screen()).toContain("Ctrl+D");
  });
});
