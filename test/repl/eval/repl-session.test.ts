/**
 * `session` in the REPL's JavaScript is the REPL's Session, with its job names: the job
 * /jobs calls j1 is `session.job("j1")`, and a name the REPL never gave is refused with
 * the names it did. Against the real local service.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preprocessCommand } from "../../../repl/commands/preprocess.js";
import { commandContext, openTestWorkspace, run, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

const js = async (code: string) => {
  const output = await t.workspace.evaluate(code, new AbortController().signal, 120);
  return output.type === "value" ? output.text : JSON.stringify(output);
};

describe("session in the REPL's JavaScript", () => {
  it("refuses a job name before any job, then finds j1 by its REPL name", async () => {
    await expect(js('session.job("j4")')).rejects.toThrow(
      'no job j4 in this REPL session; no job was sent yet (see /jobs), or pass a job id: session.job("3f2a…")',
    );
    const ctx = commandContext(t.workspace, { interactive: false });
    await run(preprocessCommand, ctx, "customers", "StandardScaler", "--columns", "age", "--wait");
    const id = t.workspace.jobs.find("j1")!.id;
    expect(await js('session.job("j1").id')).toBe(`'${id}'`);
    expect(await js('(await session.job("J1").result()).fitted.type')).toBe("'StandardScaler'");
    // An id, or a prefix of one, still goes to the Session's own lookup.
    expect(await js(`session.job("${id.slice(0, 8)}").id`)).toBe(`'${id}'`);
    await expect(js('session.job("j4")')).rejects.toThrow(
      "no job j4 in this REPL session; its jobs are j1 (see /jobs)",
    );
    // Everything else is the Session itself.
    expect(await js("session.isLocal")).toBe("true");
    expect(await js("session.modelId")).toBe(`'${t.workspace.session.modelId}'`);
    expect(
      await js('(await session.preprocess(customers, { type: "MinMaxScaler", columns: ["age"] })).id.length'),
    ).toBe("36");
    expect(t.workspace.jobs.find("j2")?.label).toContain("MinMaxScaler");
  });
});
