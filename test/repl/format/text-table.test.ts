import { describe, expect, it } from "vitest";
import { formatNumberCell } from "../../../repl/format/cells.js";
import { layoutBlocks, layoutTable } from "../../../repl/format/text-table.js";

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

  it("gives cells their whole width while the table fits the terminal", () => {
    const label = "j2 RobustScaler (quantile_range=10,90) on customers";
    const t = layoutTable(["job", "what", "id"], [["j2", label, "3f2a9c00-0000-4000-8000-000000000001"]], {
      width: 150,
    });
    expect(t.lines[0]).toContain(label);
    expect(t.lines[0]).toContain("3f2a9c00-0000-4000-8000-000000000001");
  });

  it("on a narrower terminal cuts ids first, to a prefix that still names them", () => {
    const id = "1d40aec4-9f11-4309-b1c2-0123456789ab";
    const t = layoutTable(["blob", "from", "id"], [["b1", "input of j1 (JavaScript)", id]], { width: 50 });
    expect(t.lines[0]).toBe(`b1    input of j1 (JavaScript)  ${id.slice(0, 17)}…`);
  });

  it("on a narrow terminal cuts the widest columns first, never a number", () => {
    const t = layoutTable(["what", "note", "x"], [["a".repeat(40), "b".repeat(30), "-1.2345e-11"]], {
      width: 50,
      numeric: [false, false, true],
    });
    expect(t.hiddenColumns).toBe(0);
    expect(t.lines[0]).toMatch(/-1\.2345e-11$/);
    expect(t.lines[0]!.length).toBeLessThanOrEqual(50);
    expect(t.lines[0]).toContain("…");
  });

  it("wraps columns that do not fit into blocks under the first, repeating the first column", () => {
    const columns = ["column", ...Array.from({ length: 12 }, (_, i) => `stat_${i}`), "max"];
    const rows = [["income", ...Array.from({ length: 12 }, () => "123456.789"), "99999"]];
    const blocks = layoutBlocks(columns, rows, { width: 60, overflow: "wrap" });
    expect(blocks.length).toBeGreaterThan(1);
    for (const b of blocks) {
      expect(b.header.startsWith("column")).toBe(true);
      expect(b.lines[0]!.startsWith("income")).toBe(true);
      expect(b.hiddenColumns).toBe(0);
      for (const line of [b.header, b.rule, ...b.lines]) expect(line.length).toBeLessThanOrEqual(60);
    }
    const shown = blocks.flatMap((b) => b.header.split(/\s+/).slice(1));
    expect(shown).toEqual(columns.slice(1));
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
