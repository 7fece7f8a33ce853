import { describe, expect, it } from "vitest";
import { formatNumberCell } from "../../../repl/format/cells.js";
import { layoutTable } from "../../../repl/format/text-table.js";

describe("layoutTable", () => {
  it("pads columns and right-aligns numbers", () => {
    const t = layoutTable(
      ["name", "x"],
      [
        ["a", "1"],
        ["bb", "22.5"],
      ],
      { width: 80, numeric: [false, true] },
    );
    expect(t.header).toBe("name     x");
    expect(t.lines).toEqual(["a        1", "bb    22.5"]);
    expect(t.hiddenColumns).toBe(0);
  });

  it("drops columns that do not fit and says how many", () => {
    const columns = Array.from({ length: 20 }, (_, i) => `column_${i}`);
    const t = layoutTable(columns, [columns.map(() => "1.2345")], { width: 60 });
    expect(t.hiddenColumns).toBeGreaterThan(0);
    expect(t.header).toContain(`+${t.hiddenColumns} columns`);
    for (const line of [t.header, t.rule, ...t.lines]) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("cuts long cells with an ellipsis", () => {
    const t = layoutTable(["text"], [["x".repeat(50)]], { width: 80, maxCellWidth: 10 });
    expect(t.lines[0]).toBe(`${"x".repeat(9)}…`);
  });
});

describe("formatNumberCell", () => {
  it("keeps numbers short and missing values visible", () => {
    expect(formatNumberCell(3)).toBe("3");
    expect(formatNumberCell(1 / 3)).toBe("0.333333");
    expect(formatNumberCell(1234.5678)).toBe("1234.57");
    expect(formatNumberCell(1e-7)).toBe("1.0000e-7");
    expect(formatNumberCell(NaN)).toBe("NaN");
    expect(formatNumberCell(-Infinity)).toBe("-inf");
  });
});
