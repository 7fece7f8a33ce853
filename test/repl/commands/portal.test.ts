/** /portal against the local service of a test workspace. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalCommand } from "../../../repl/commands/portal.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

describe("/portal", () => {
  it("prints a fresh one-time login link each time", async () => {
    const ctx = commandContext(t.workspace);
    const first = texts(await run(portalCommand, ctx)).join("\n");
    const second = texts(await run(portalCommand, ctx)).join("\n");
    expect(first).toMatch(/^Open the portal: http:\/\/127\.0\.0\.1:\d+\/login\?link=[\w-]{43}$/);
    expect(second).not.toBe(first);
  });
});
