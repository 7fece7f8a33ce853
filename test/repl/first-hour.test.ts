/**
 * A newcomer's stumbles at the prompt: bare help/exit/quit, "did you mean" for
 * commands, frames, JavaScript names, transforms, parameters and columns, a local
 * validation error that is not shown as "400 Validation failed", CSVs read as pandas
 * reads them, and the Session's notices shown after the line.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReplController } from "../../repl/controller.js";
import { openTestWorkspace, texts, type TestWorkspace } from "./fixtures.js";

let t: TestWorkspace;
let repl: ReplController;
beforeAll(async () => {
  t = await openTestWorkspace();
  repl = new ReplController(t.workspace, { interactive: false });
  writeFileSync(join(t.dir, "heights.csv"), "\uFEFFid;height;weight\n1;170;NA\n2;N/A;80\n3;165;72\n");
});
afterAll(() => t.close());

/** Everything the line put on the screen: what it emitted while running (a warning as the job is sent), then its output. */
const shown = async (line: string) => {
  const before = repl.snapshot().items.length;
  const output = await repl.submit(line);
  const emitted = repl
    .snapshot()
    .items.slice(before)
    .flatMap((item) => (item.kind === "output" ? texts(item.output) : []));
  return [...emitted, ...texts(output)].join("\n");
};

describe("help, exit and quit typed bare, as in Python's REPL", () => {
  it("help shows the commands; help() too", async () => {
    expect((await repl.submit("help")).type).toBe("help");
    expect((await repl.submit("help()")).type).toBe("help");
  });

  it("exit and quit end the session, unless JavaScript defined the name", async () => {
    expect((await repl.submit("exit")).type).toBe("quit");
    expect((await repl.submit("quit()")).type).toBe("quit");
    await repl.submit("const exit = 42");
    expect(await repl.submit("exit")).toMatchObject({ type: "value", text: "42" });
  });
});

describe("did you mean", () => {
  it("commands, frames and JavaScript names", async () => {
    expect(await shown("/help lod")).toContain("No command /lod (did you mean `/load`?).");
    expect(await repl.submit("/lod x.csv")).toMatchObject({ title: "Unknown command /lod (did you mean `/load`?)." });
    expect(await shown("/show Customers")).toContain('No frame "Customers" (did you mean `customers`?).');
    await repl.submit("const train = customers.head(5)");
    expect(await repl.submit("traim.shape")).toMatchObject({
      type: "error",
      title: "ReferenceError: traim is not defined (did you mean `train`?)",
    });
  });

  it("transforms, parameters and columns in /preprocess", async () => {
    expect(await shown("/preprocess customers StandardScalar")).toContain(
      'Unknown transform "StandardScalar" (did you mean `StandardScaler`?).',
    );
    expect(await shown("/preprocess customers StandardScaler with_means=false")).toContain(
      'StandardScaler has no parameter "with_means" (did you mean `with_mean`?).',
    );
    expect(await shown("/preprocess customers QuantileTransformer n_quantile=10")).toContain(
      "did you mean `n_quantiles`?",
    );
    expect(await shown("/preprocess customers Normalizer norm=L2")).toContain("did you mean `l2`?");
    expect(await shown("/preprocess customers StandardScaler --columns Age")).toContain(
      "customers has no column Age (did you mean `age`?).",
    );
  });

  it("a param typo checked before sending is a local error, not '400 Validation failed'", async () => {
    const out = await repl.submit(
      "await session.preprocess(customers, { type: 'QuantileTransformer', params: { n_quantile: 10 } })",
    );
    expect(out).toMatchObject({ type: "error", title: "Invalid input, checked before sending: nothing was sent." });
    expect(texts(out).join("\n")).toMatch(/params\.n_quantile: .*did you mean `n_quantiles`\?/);
    expect(texts(out).join("\n")).not.toMatch(/400/);
  });
});

describe("CSV read as pandas reads it, and the Session's notices", () => {
  it("/load reads a ;-separated file with NA and a BOM, and says how it read it", async () => {
    const out = await shown("/load heights.csv");
    expect(out).toContain("Loaded heights.csv into frame heights: 3 rows × 3 columns.");
    expect(out).toContain(
      'Read as pandas.read_csv reads it: fields separated by ";"; 2 missing values spelt "NA", "N/A".',
    );
    const table = t.workspace.table("heights");
    expect(table.columns.map((c) => [c.name, c.kind])).toEqual([
      ["id", "number"],
      ["height", "number"],
      ["weight", "number"],
    ]);
  });

  it("says so when an id-like column would be transformed because no columns were given", async () => {
    const out = await shown("/preprocess heights StandardScaler --wait");
    expect(out).toMatch(/column "id" looks like a row id/);
  });

  it("checks a frame whose earlier upload is reused, before sending the job", async () => {
    const out = await repl.submit("/preprocess heights Normalizer");
    expect(out).toMatchObject({ type: "error", title: "Invalid input, checked before sending: nothing was sent." });
    expect(texts(out).join("\n")).toMatch(/Normalizer refuses missing values, and column "height" has 1/);
  });
});
