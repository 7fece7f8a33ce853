import type { Command } from "commander";

interface ReplFlags {
  readonly profile?: string;
  readonly dataDir?: string;
  readonly local?: boolean;
  readonly width?: string;
}

/** `mdps repl`: the Ink session (repl/). Loaded on use, so other commands do not pay for React. */
export function registerRepl(program: Command): void {
  program
    .command("repl")
    .description("interactive session: load, describe, preprocess, fetch and plot data; runs a script from piped stdin")
    .option(
      "--profile <name>",
      "connect to the service of this config-file profile (else MDPS_* variables, else local)",
    )
    .option("--data-dir <dir>", "data dir of the local service (default $MDPS_HOME/local or ~/.mdps/local)")
    .option("--local", "use the local service even when MDPS_BASE_URL is set")
    .option(
      "--width <columns>",
      "lay tables out in this many columns (default the terminal's, else $COLUMNS, else 100)",
    )
    .action(startRepl);
}

export async function startRepl(flags: ReplFlags = {}): Promise<void> {
  const { runRepl } = await import("../../repl/index.js");
  const width = flags.width === undefined ? undefined : Number(flags.width);
  if (width !== undefined && !(Number.isInteger(width) && width >= 20)) {
    process.stderr.write(`mdps repl: --width takes a whole number of columns, 20 or more (got "${flags.width}").\n`);
    process.exitCode = 2;
    return;
  }
  process.exitCode = await runRepl({ profile: flags.profile, dataDir: flags.dataDir, local: flags.local, width });
  // Timers or sockets left by code typed at the prompt must not keep the process alive.
  setTimeout(() => process.exit(), 200).unref();
}
