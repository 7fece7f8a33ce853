/** /show, /describe, /frames and /save on one workspace (each test file pays for loading danfo once). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeCommand } from "../../../repl/commands/describe.js";
import { framesCommand } from "../../../repl/commands/frames.js";
import { loadCommand } from "../../../repl/commands/load.js";
import { saveCommand } from "../../../repl/commands/save.js";
import { showCommand } from "../../../repl/commands/show.js";
import type { Output, TableOutput } from "../../../repl/commands/types.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

function tables(out: Output): TableOutput[] {
  if (out.type === "table") return [out];
  return out.type === "group" ? out.items.flatMap(tables) : [];
}

describe("/show", () => {
  it("shows the first rows, 10 unless told", async () => {
    const ctx = commandContext(t.workspace);
    const ten = tables(await run(showCommand, ctx, "customers"))[0]!;
    expect(ten.rows).toHaveLength(10);
    expect(ten.columns).toEqual(["id", "segment", "age", "income", "spend", "visits", "rating"]);
    expect(ten.footer).toBe("200 rows × 7 columns (first 10 shown)");
    const three = tables(await run(showCommand, ctx, "customers", "3"))[0]!;
    expect(three.rows.map((r) => r[0])).toEqual(["c0001", "c0002", "c0003"]);
    await expect(() => run(showCommand, ctx, "customers", "x")).rejects.toThrow('"x" is not a number of rows.');
    await expect(() => run(showCommand, ctx, "nope")).rejects.toThrow('No frame "nope".');
  });
});

describe("/describe", () => {
  it("gives shape, dtypes, head and pandas-style statistics", async () => {
    writeFileSync(join(t.dir, "small.csv"), "x,label\n1,a\n2,b\n3,a\n4,\n10,a\n,b\n");
    const ctx = commandContext(t.workspace);
    await run(loadCommand, ctx, "small.csv");
    const out = await run(describeCommand, ctx, "small");
    expect(texts(out)[0]).toBe("small: 6 rows × 2 columns, from small.csv");
    const stats = tables(out).find((tb) => tb.title === "Summary")!;
    const x = stats.rows.find((r) => r[0] === "x")!;
    expect(x[1]).toBe("float64"); // danfo labels it float32; the values are float64
    // pandas: Series([1, 2, 3, 4, 10, None]).describe()
    expect(x.slice(2, 11)).toEqual(["5", "1", "4", "3.53553", "1", "2", "3", "4", "10"]);
    const label = stats.rows.find((r) => r[0] === "label")!;
    expect(label[1]).toBe("object"); // as pandas and /check name it
    expect([label[2], label[3], label[11], label[12]]).toEqual(["5", "1", "2", "a"]);
  });
});

describe("/frames", () => {
  it("lists frames with shape and origin, including those made in JavaScript", async () => {
    const ctx = commandContext(t.workspace);
    await t.workspace.evaluate("const top = customers.head(4)", ctx.signal, 100);
    const out = tables(await run(framesCommand, ctx))[0]!;
    expect(out.rows).toContainEqual(["customers", "200 × 7", "sample data (seeded)"]);
    expect(out.rows).toContainEqual(["top", "4 × 7", "JavaScript"]);
  });
});

describe("/save", () => {
  it("writes CSV and JSON by extension, and keeps an existing file unless --force", async () => {
    const ctx = commandContext(t.workspace);
    const out = await run(saveCommand, ctx, "small", "out.csv");
    expect(texts(out)[0]).toMatch(/^Saved small to out\.csv \(csv, 6 rows, \d+ B\)\.$/);
    // x has a missing value, so it is float64 to pandas, whose to_csv writes 1.0.
    expect(readFileSync(join(t.dir, "out.csv"), "utf8")).toBe("x,label\n1.0,a\n2.0,b\n3.0,a\n4.0,\n10.0,a\n,b\n");
    await expect(run(saveCommand, ctx, "small", "out.csv")).rejects.toThrow("out.csv exists.");
    await run(saveCommand, ctx, "top", "out.csv", "--force");
    expect(readFileSync(join(t.dir, "out.csv"), "utf8").split("\n")[0]).toBe(
      "id,segment,age,income,spend,visits,rating",
    );
    await run(saveCommand, ctx, "small", "out.json");
    expect((JSON.parse(readFileSync(join(t.dir, "out.json"), "utf8")) as unknown[])[5]).toEqual({
      x: null,
      label: "b",
    });
    await expect(run(saveCommand, ctx, "small", "out.xlsx")).rejects.toThrow("Cannot tell the format");
  });
});
