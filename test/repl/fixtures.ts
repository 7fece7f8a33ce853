/**
 * Shared test setup: a real Workspace on Session.local() over a temp MDPS_HOME (the
 * reference service listening on 127.0.0.1, port 0), and a command context that
 * records what commands emit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS } from "../../repl/commands/registry.js";
import { parseArgs } from "../../repl/commands/args.js";
import type { Command, CommandContext, Output } from "../../repl/commands/types.js";
import { openWorkspace } from "../../repl/startup.js";
import type { Workspace } from "../../repl/workspace/workspace.js";

export interface TestWorkspace {
  readonly workspace: Workspace;
  /** Temp dir used as MDPS_HOME and working directory. */
  readonly dir: string;
  close(): Promise<void>;
}

export async function openTestWorkspace(): Promise<TestWorkspace> {
  const dir = mkdtempSync(join(tmpdir(), "mdps-repl-"));
  const workspace = await openWorkspace({ local: true, env: { MDPS_HOME: dir }, cwd: dir });
  return {
    workspace,
    dir,
    async close() {
      await workspace.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RecordingContext extends CommandContext {
  readonly emitted: Output[];
  readonly abort: AbortController;
}

export function commandContext(
  workspace: Workspace,
  options: { interactive?: boolean; width?: number } = {},
): RecordingContext {
  const emitted: Output[] = [];
  const abort = new AbortController();
  return {
    workspace,
    commands: COMMANDS,
    signal: abort.signal,
    emit: (o) => emitted.push(o),
    interactive: options.interactive ?? true,
    width: options.width ?? 120,
    emitted,
    abort,
  };
}

/** Every text an output shows, flattened (groups opened), for assertions. */
export function texts(output: Output): string[] {
  switch (output.type) {
    case "message":
    case "value":
      return [output.text];
    case "error":
      return [output.title, output.detail ?? "", output.hint ?? "", ...(output.fields ?? [])];
    case "group":
      return output.items.flatMap(texts);
    case "table":
      return [
        output.title ?? "",
        output.columns.join(" "),
        ...output.rows.map((r) => r.join(" ")),
        output.footer ?? "",
      ];
    default:
      return [JSON.stringify(output)];
  }
}

/** Runs a command on words as the dispatcher would (its declared flags applied). */
export async function run(command: Command, ctx: CommandContext, ...words: string[]): Promise<Output> {
  return command.action(ctx, parseArgs(words, command.flags, command.usage));
}
