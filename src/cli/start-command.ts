import type { Command } from "commander";
import { startRepl } from "./repl-command.js";

/**
 * `mdps start`, what `npm start` runs. A person at a terminal gets the REPL (sample data
 * loaded, the embedded service running); without a terminal (CI, a pipe, a script) the
 * scripted demo runs the main job end to end and exits, so `npm start` never waits for
 * input nobody will type.
 */
export function registerStart(program: Command): void {
  program
    .command("start")
    .description("open the REPL on the embedded service when run in a terminal, else run the scripted demo")
    .action(async () => {
      if (process.stdin.isTTY && process.stdout.isTTY) await startRepl();
      else await (await import("./demo-command.js")).runDemo({});
    });
}
