import { describe, expect, it } from "vitest";
import { parseArgs } from "../../../repl/commands/args.js";
import { clearCommand } from "../../../repl/commands/clear.js";
import { quitCommand } from "../../../repl/commands/quit.js";
import type { CommandContext } from "../../../repl/commands/types.js";

const ctx = {} as CommandContext;

describe("/clear and /quit", () => {
  it("return the outputs the processor turns into a cleared screen and an exit", async () => {
    expect(await clearCommand.action(ctx, parseArgs([]))).toEqual({ type: "clear" });
    expect(await quitCommand.action(ctx, parseArgs([]))).toEqual({ type: "quit" });
    expect(quitCommand.aliases).toContain("exit");
  });
});
