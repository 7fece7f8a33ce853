/**
 * /clear and /quit through the real controller and dispatcher, on a stand-in workspace
 * (neither command touches it): what the screen state becomes, by every name.
 */
import { describe, expect, it, vi } from "vitest";
import { ReplController } from "../../../repl/controller.js";
import type { Output } from "../../../repl/commands/types.js";
import type { Workspace } from "../../../repl/workspace/workspace.js";

function controller() {
  const workspace = {
    jobs: { onFinished: () => () => undefined },
    evaluate: vi.fn((text: string): Promise<Output> => Promise.resolve({ type: "value", text: `= ${text}` })),
    close: vi.fn(() => Promise.resolve()),
    takeNotices: () => [],
    jsNames: () => [],
    frameNames: () => [],
  };
  const repl = new ReplController(workspace as unknown as Workspace, { interactive: true });
  return { repl, workspace };
}

describe("/clear", () => {
  it("empties the transcript, bumps the epoch, and leaves the workspace and history alone", async () => {
    const { repl, workspace } = controller();
    await repl.submit("1 + 1");
    expect(repl.snapshot().items.map((i) => i.kind)).toEqual(["input", "output"]);

    expect(await repl.submit("/clear")).toEqual({ type: "clear" });
    expect(repl.snapshot()).toMatchObject({ items: [], epoch: 1, quitting: false, busy: undefined });
    expect(repl.failures).toBe(0);
    expect(workspace.close).not.toHaveBeenCalled();
    expect(repl.history.entries).toEqual(["1 + 1", "/clear"]);

    // The session goes on: the next line lands in the fresh transcript.
    await repl.submit("2 * 3");
    expect(repl.snapshot().items.map((i) => (i.kind === "input" ? i.text : i.kind))).toEqual(["2 * 3", "output"]);
  });

  it("answers to /cls and to any letter case", async () => {
    const { repl } = controller();
    await repl.submit("/cls");
    await repl.submit("x");
    await repl.submit("/CLEAR");
    expect(repl.snapshot()).toMatchObject({ items: [], epoch: 2 });
  });
});

describe("/quit", () => {
  it("sets quitting without closing the workspace (the app does that) or counting a failure", async () => {
    const { repl, workspace } = controller();
    expect(await repl.submit("/quit")).toEqual({ type: "quit" });
    expect(repl.snapshot().quitting).toBe(true);
    expect(repl.snapshot().items.map((i) => i.kind)).toEqual(["input"]);
    expect(repl.failures).toBe(0);
    expect(workspace.close).not.toHaveBeenCalled();
  });

  it.each(["/exit", "/q", "/Quit"])("%s quits too", async (line) => {
    const { repl } = controller();
    await repl.submit(line);
    expect(repl.snapshot().quitting).toBe(true);
  });

  it("is not a prefix match: /qu is an unknown command and the REPL stays", async () => {
    const { repl } = controller();
    expect(await repl.submit("/qu")).toMatchObject({
      type: "error",
      title: "Unknown command /qu (did you mean `/q`?).",
    });
    expect(repl.snapshot().quitting).toBe(false);
    expect(repl.failures).toBe(1);
  });
});
