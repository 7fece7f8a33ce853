/**
 * The contract every slash command follows: a plain object with a name, help text,
 * completion and an action. Actions return an {@link Output}; one processor turns
 * outputs into screen items (Ink) or text (piped mode), so commands never render.
 */
import type { Workspace } from "../workspace/workspace.js";
import type { FlagKind, ParsedArgs } from "./args.js";
import type { CompletionContext } from "./completion-context.js";
import type { Output } from "./outputs.js";

export type { FlagKind } from "./args.js";
export type { CompletionContext } from "./completion-context.js";
export type { HelpEntry, HistogramOutput, HistogramPanel, LogLine, Output, TableOutput, Tone } from "./outputs.js";
export { message } from "./outputs.js";

/** What an action may use. Everything stateful lives in the workspace. */
export interface CommandContext {
  readonly workspace: Workspace;
  /** Aborted by Ctrl+C: long calls and waits must pass it on. */
  readonly signal: AbortSignal;
  /** Shows output before the action returns (followed log lines, progress notes). */
  readonly emit: (output: Output) => void;
  /** Every command, for `/help`. */
  readonly commands: readonly Command[];
  /** Terminal width in columns (80 when unknown). */
  readonly width: number;
  /** False in piped mode: no live panel, so commands that start work wait for it. */
  readonly interactive: boolean;
}

export interface Command {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly description: string;
  /** One line: `/load <file> [as <name>]`. */
  readonly usage: string;
  /** Extra help lines shown by `/help <command>`. */
  readonly details?: readonly string[];
  readonly flags?: Readonly<Record<string, FlagKind>>;
  /**
   * Candidates for the word being typed. `args` are the complete words before it;
   * return full words (the completer filters by prefix).
   */
  readonly complete?: (ctx: CompletionContext, args: readonly string[], partial: string) => readonly string[];
  readonly action: (ctx: CommandContext, args: ParsedArgs) => Promise<Output> | Output;
}
