import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as dfd from "danfojs-node";
import { checkCommand } from "../../../repl/commands/check.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
  t.workspace.setFrame(
    "wine",
    new dfd.DataFrame({ id: [1, 2, 3, 4], proline: [1065, 1050, null, 735], alcohol: [14.2, -1, 13.2, 14.4] }),
    { origin: "test" },
  );
  writeFileSync(join(t.dir, "heights.csv"), "name;height\nAnn;170\nBob;NA\n");
});
afterAll(() => t.close());

describe("/check", () => {
  it("lists each column and says the job would be sent", async () => {
    const out = await run(checkCommand, commandContext(t.workspace), "wine", "StandardScaler", "--columns", "proline");
    const lines = texts(out);
    expect(lines[0]).toBe("wine: 4 rows, checked for StandardScaler (nothing was sent)");
    expect(lines).toContain("id int64 0  yes 1 4  ");
    expect(lines).toContain("proline float64 1   735 1065 yes missing values stay missing");
    expect(lines.at(-1)).toBe("/preprocess wine StandardScaler would be sent.");
  });

  it("says when an id-like column would be transformed, and what would stop the job", async () => {
    const out = await run(checkCommand, commandContext(t.workspace), "wine", "PowerTransformer", "method=box-cox");
    const shown = texts(out).join("\n");
    expect(shown).toMatch(
      /column "id" looks like a row id \(unique increasing whole numbers\) and would be transformed/,
    );
    expect(shown).toMatch(/The job would not be sent: 1 problem\./);
    expect(shown).toMatch(/box-cox needs strictly positive data, and column "alcohol" has minimum -1/);
  });

  it("checks a file as the Session would read it, and names the nearest frame", async () => {
    const out = await run(checkCommand, commandContext(t.workspace), "heights.csv");
    expect(texts(out)).toContain("height float64 1 yes  170 170 yes ");
    await expect(run(checkCommand, commandContext(t.workspace), "Wine")).rejects.toThrow(
      'No frame or file "Wine" (did you mean `wine`?).',
    );
    await expect(run(checkCommand, commandContext(t.workspace), "wine", "StandardScalar")).rejects.toThrow(
      "did you mean `StandardScaler`?",
    );
  });
});
