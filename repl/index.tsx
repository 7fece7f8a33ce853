/**
 * `mdps repl`: an interactive Ink session on a Session, or, without a terminal, a
 * line-by-line runner for lesson scripts. {@link runRepl} resolves with the exit code.
 *
 * @example
 * process.exitCode = await runRepl({ profile: "uk1" });
 */
import { render, Text, useInput } from "ink";
import Spinner from "ink-spinner";
import { ReplController } from "./controller.js";
import { plainLines } from "./format/plain-output.js";
import { visibleOutput } from "./format/visible-output.js";
import { errorOutput } from "./errors.js";
import { defaultHistoryPath, HistoryStore } from "./input/history-store.js";
import { runPiped } from "./plain/piped-mode.js";
import { bannerLines, openWorkspace, wantsRemote, type SessionChoice } from "./startup.js";
import { App } from "./ui/app.js";
import type { Workspace } from "./workspace/workspace.js";

export interface ReplOptions extends SessionChoice {
  readonly stdin?: NodeJS.ReadStream | undefined;
  readonly stdout?: NodeJS.WriteStream | undefined;
  readonly stderr?: NodeJS.WriteStream | undefined;
  /** Default: interactive when stdin is a terminal. */
  readonly interactive?: boolean | undefined;
  /** History file; default `$MDPS_HOME/repl-history`. `false` keeps no file. */
  readonly historyFile?: string | false | undefined;
  /** Columns to lay output out in; default the terminal's, else $COLUMNS, else 100. */
  readonly width?: number | undefined;
}

export { ReplController } from "./controller.js";
export type { Command, Output } from "./commands/types.js";

export async function runRepl(options: ReplOptions = {}): Promise<number> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const interactive = options.interactive ?? isTty(stdin);
  const env = options.env ?? process.env;
  const history = new HistoryStore(
    options.historyFile === false ? undefined : (options.historyFile ?? defaultHistoryPath(env)),
  );
  return interactive
    ? runInteractive(options, history, stdin, stdout, stderr)
    : runScript(options, history, stdin, stdout, stderr);
}

/**
 * The width output is laid out in: given, else the terminal's, else $COLUMNS (what a
 * shell exports for a piped script), else 100.
 */
export function outputWidth(options: ReplOptions, stdout: { readonly columns?: number }): number {
  const env = Number((options.env ?? process.env)["COLUMNS"]);
  const width = options.width ?? (stdout.columns || (Number.isInteger(env) && env > 0 ? env : 100));
  return Math.max(20, width);
}

/** Node leaves isTTY undefined, not false, on a stream that is not a terminal (its typings say boolean). */
function isTty(stream: { readonly isTTY?: boolean }): boolean {
  return stream.isTTY ?? false;
}

function startFailure(error: unknown, stderr: NodeJS.WriteStream): number {
  const lines = plainLines(visibleOutput(errorOutput(error)), stderr.columns || 100);
  stderr.write(`mdps repl: could not start.\n${lines.join("\n")}\n`);
  return 1;
}

async function runScript(
  options: ReplOptions,
  history: HistoryStore,
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
): Promise<number> {
  let workspace: Workspace;
  try {
    workspace = await openWorkspace(options);
  } catch (error) {
    return startFailure(error, stderr);
  }
  // Scripts do not add to the person's history: `history` is not used here.
  const controller = new ReplController(workspace, { interactive: false, width: outputWidth(options, stdout) });
  controller.add({ kind: "banner", lines: bannerLines(workspace) });
  try {
    return await runPiped(controller, { input: stdin, output: stdout });
  } finally {
    await controller.close();
  }
}

function Starting({ remote, onCancel }: { remote: boolean; onCancel: () => void }) {
  useInput((input, key) => {
    if (key.ctrl && input === "c") onCancel();
  });
  return (
    <Text>
      <Text color="cyan">
        <Spinner type="dots" />
      </Text>{" "}
      {remote ? "Connecting to the configured service…" : "Starting the local preprocessing service…"}
    </Text>
  );
}

async function runInteractive(
  options: ReplOptions,
  history: HistoryStore,
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
): Promise<number> {
  let cancel: () => void = () => undefined;
  const cancelled = new Promise<undefined>((resolve) => (cancel = () => resolve(undefined)));
  const ink = render(<Starting remote={wantsRemote(options)} onCancel={() => cancel()} />, {
    stdin,
    stdout,
    stderr,
    exitOnCtrlC: false,
  });
  const opening = openWorkspace(options);
  let workspace: Workspace | undefined;
  try {
    workspace = await Promise.race([opening, cancelled]);
  } catch (error) {
    ink.unmount();
    return startFailure(error, stderr);
  }
  if (workspace === undefined) {
    // Ctrl+C while starting: leave now; a service that comes up later is closed at once.
    ink.unmount();
    opening.then(
      (ws) => ws.close(),
      () => undefined,
    );
    return 130;
  }
  const controller = new ReplController(workspace, { interactive: true, history, width: outputWidth(options, stdout) });
  controller.add({ kind: "banner", lines: bannerLines(workspace) });
  ink.rerender(<App controller={controller} />);
  try {
    await ink.waitUntilExit();
  } finally {
    await controller.close();
  }
  return 0;
}
