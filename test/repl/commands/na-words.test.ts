/**
 * Words meant as missing values: a column of numbers with a few `?` is named by /load and
 * /check with the `/load --na` that reads them as missing, which then gives a numeric
 * column; and scikit-learn's warnings show as /preprocess sends the job. Against the real
 * local service and real files.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCommand } from "../../../repl/commands/check.js";
import { loadCommand } from "../../../repl/commands/load.js";
import { preprocessCommand } from "../../../repl/commands/preprocess.js";
import { numericTextColumns } from "../../../repl/workspace/numeric-text.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
  const rows = ["id,age,income,city"];
  for (let i = 0; i < 40; i++) {
    const age = i === 3 || i === 17 ? "?" : i === 25 ? "-" : String(20 + i);
    rows.push(`r${i},${age},"${(1000 + i * 37).toLocaleString("en-US")}",${["Oslo", "Lima"][i % 2]}`);
  }
  writeFileSync(join(t.dir, "people.csv"), `${rows.join("\n")}\n`);
});
afterAll(() => t.close());

describe("words meant as missing", () => {
  it("/load names the column and the --na that reads its words as missing", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const said = texts(await run(loadCommand, ctx, "people.csv", "as", "people")).join("\n");
    expect(said).toContain(
      'Column "age" is text only because of 3 values among 37 numbers: "?" (2 rows), "-" (1 row); ' +
        "/load people.csv as people --na ?,- reads them as missing.",
    );
    // A thousands separator is not a missing word, and a text column is text.
    expect(said).not.toMatch(/Column "(income|city|id)"/);
    expect(t.workspace.table("people").columns.find((c) => c.name === "age")?.kind).toBe("string");
  });

  it("/load --na reads them as missing: the column is numeric", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const said = texts(await run(loadCommand, ctx, "people.csv", "as", "people", "--na", "?,-")).join("\n");
    expect(said).toContain('Also read as missing: "?", "-".');
    expect(said).not.toContain("is text only because");
    const age = t.workspace.table("people").columns.find((c) => c.name === "age");
    expect(age?.kind).toBe("number");
    expect(Array.from(age!.values as Float64Array).filter(Number.isNaN)).toHaveLength(3);
    await expect(run(loadCommand, ctx, "people.csv", "--na=,")).rejects.toThrow(
      "--na needs the words to read as missing.",
    );
  });

  it("/check flags the column in a file and in a frame loaded from it", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const file = texts(await run(checkCommand, ctx, "people.csv", "StandardScaler")).join("\n");
    expect(file).toContain('Column "age" is text only because of 3 values');
    expect(file).toContain("/load people.csv --na ?,- reads them as missing.");
    await run(loadCommand, ctx, "people.csv", "as", "raw");
    const frame = texts(await run(checkCommand, ctx, "raw")).join("\n");
    expect(frame).toContain("/load people.csv as raw --na ?,- reads them as missing.");
    expect(numericTextColumns(t.workspace.table("people"))).toEqual([]);
  });

  it("/preprocess shows scikit-learn's n_quantiles warning as the job is sent, once", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    await run(preprocessCommand, ctx, "customers", "QuantileTransformer", "--columns", "age");
    const emitted = ctx.emitted.flatMap(texts);
    const warning = emitted.findIndex((s) =>
      s.startsWith("n_quantiles (1000) is greater than the total number of samples (200)"),
    );
    const sent = emitted.findIndex((s) => /^j\d+: QuantileTransformer on customers sent/.test(s));
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(sent).toBeGreaterThan(warning);
    expect(t.workspace.takeNotices()).toEqual([]); // not said again after the line
  });
});

describe("missing text", () => {
  it("shows as NaN in a frame's preview, as pandas and the notebooks show it", async () => {
    writeFileSync(join(t.dir, "cities.csv"), "city,n\nOslo,1\n,2\nNA,3\n");
    const ctx = commandContext(t.workspace, { interactive: false });
    const out = await run(loadCommand, ctx, "cities.csv");
    const preview = texts(out).filter(
      (line) => /^\S* ?\d$/.test(line.replace(/\s+/g, " ").trim()) || line.includes("NaN"),
    );
    expect(preview).toEqual(["Oslo 1", "NaN 2", "NaN 3"]);
  });
});
