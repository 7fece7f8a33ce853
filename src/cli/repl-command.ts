import type { Command } from "commander";

interface ReplFlags {
  readonly profile?: string;
  readonly dataDir?: string;
  readonly local?: boolean;
  readonly width?: string;
  readonly lesson?: string;
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
    .option("--lesson <name>", "run a lesson shipped with mdps (scaling, intro) as a script, with no terminal")
    .action(startRepl);
}

/** The lesson's script as the REPL's input; null (and exit code 2) for a lesson there is not. */
async function lessonInput(name: string): Promise<NodeJS.ReadStream | null> {
  const { lessonScript } = await import("../../repl/lessons.js");
  const { Readable } = await import("node:stream");
  try {
    return Readable.from([lessonScript(name)]) as unknown as NodeJS.ReadStream;
  } catch (error) {
    process.stderr.write(`mdps repl: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return null;
  }
}

export async function startRepl(flags: ReplFlags = {}): Promise<void> {
  const { runRepl } = await import("../../repl/index.js");
  const width = flags.width === undefined ? undefined : Number(flags.width);
  if (width !== undefined && !(Number.isInteger(width) && width >= 20)) {
    process.stderr.write(`mdps repl: --width takes a whole number of columns, 20 or more (got "${flags.width}").\n`);
    process.exitCode = 2;
    return;
  }
  const lesson = flags.lesson === undefined ? undefined : await lessonInput(flags.lesson);
  if (lesson === null) return;
  process.exitCode = await runRepl({
    profile: flags.profile,
    dataDir: flags.dataDir,
    local: flags.local,
    width,
    ...(lesson ? { stdin: lesson, interactive: false } : {}),
  });
  // Timers or sockets left by code typed at the prompt must not keep the process alive.
  setTimeout(() => process.exit(), 200).unref();
}
