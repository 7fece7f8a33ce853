/** What a command's action returns: one processor turns it into screen items (Ink) or text (piped mode). */

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

export function message(text: string, tone: Tone = "info"): Output {
  return { type: "message", tone, text };
}
