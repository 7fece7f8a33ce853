/**
 * The contract every slash command follows: a plain object with a name, help text,
 * completion and an action. Actions return an {@link Output}; one processor turns
 * outputs into screen items (Ink) or text (piped mode), so commands never render.
 */
import type { Workspace } from "../workspace/workspace.js";
import type { ParsedArgs } from "./args.js";

export type Tone = "info" | "success" | "warning" | "muted";

export interface TableOutput {
  readonly type: "table";
  readonly title?: string | undefined;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Right-align these columns (numbers). */
  readonly numeric?: readonly boolean[] | undefined;
  readonly footer?: string | undefined;
  /** Columns that do not fit the terminal continue in blocks below (default: dropped with a note). */
  readonly wrap?: boolean | undefined;
}

export interface HistogramOutput {
  readonly type: "histogram";
  readonly title: string;
  /** One or two panels (before / after), each already binned. */
  readonly panels: readonly HistogramPanel[];
}

export interface HistogramPanel {
  readonly label: string;
  readonly bins: readonly { readonly from: number; readonly to: number; readonly count: number }[];
  readonly missing: number;
}

export interface HelpEntry {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly usage: string;
  readonly description: string;
  readonly details?: readonly string[] | undefined;
}

export interface LogLine {
  readonly timestamp: string;
  readonly level: string;
  readonly message: string;
}

export type Output =
  | { readonly type: "message"; readonly tone: Tone; readonly text: string }
  | TableOutput
  | HistogramOutput
  | { readonly type: "help"; readonly entries: readonly HelpEntry[]; readonly keys: boolean }
  | { readonly type: "logs"; readonly job: string; readonly lines: readonly LogLine[] }
  | { readonly type: "value"; readonly text: string }
  | {
      readonly type: "error";
      readonly title: string;
      readonly detail?: string | undefined;
      readonly hint?: string | undefined;
      readonly fields?: readonly string[] | undefined;
    }
  | { readonly type: "group"; readonly items: readonly Output[] }
  | { readonly type: "clear" }
  | { readonly type: "quit" }
  | { readonly type: "none" };

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

/** What completion may look at: names only, never a network call. */
export interface CompletionContext {
  readonly commandNames: () => readonly string[];
  readonly frameNames: () => readonly string[];
  readonly jobRefs: () => readonly string[];
  readonly blobRefs: () => readonly string[];
  readonly columnNames: (frame: string) => readonly string[];
  /** The frame's columns that hold numbers: what a transform can take as features. */
  readonly numericColumnNames?: ((frame: string) => readonly string[]) | undefined;
  /** The transform a job of this session ran (`RobustScaler`), for its parameters; absent in contexts without jobs. */
  readonly jobType?: ((ref: string) => string | undefined) | undefined;
  /** Pipelines of this session (`p1`, ...); absent in contexts without them. */
  readonly pipelineRefs?: (() => readonly string[]) | undefined;
  /** Current directory for path completion. */
  readonly cwd: string;
}

export type FlagKind = "value" | "boolean";

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

export function message(text: string, tone: Tone = "info"): Output {
  return { type: "message", tone, text };
}
