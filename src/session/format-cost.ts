/**
 * When the input's format costs the user time: a job's output has the input's format by
 * default, so a large CSV input gets a large CSV output, which `job.dataframe()` must parse
 * again, where the service would have written Arrow (read about eight times faster into a frame, see
 * docs/PERFORMANCE.md). The choice stays the user's: an output they will keep as CSV is
 * still CSV; the notice says how to choose Arrow and that `job.download("out.csv")` still
 * writes CSV.
 */
import type { RecordType } from "../contract/blob.js";

/** Cells (rows x columns) from which a CSV output is worth a notice: about 10 MB of text. */
export const LARGE_CSV_CELLS = 1_000_000;

export interface OutputFormatChoice {
  /** The input's record type (the outputs' default). */
  readonly inputRecordType: RecordType;
  /** What the Session sends frames in: "arrow" where the service declares it. */
  readonly wireFormat: RecordType;
  /** The caller chose the outputs (their format, or other settings). */
  readonly outputsGiven: boolean;
  readonly rows: number;
  readonly columns: number;
  /** The input's name, for the message. */
  readonly name: string;
}

/** The notice for a large CSV job whose output could be Arrow; undefined otherwise. */
export function csvOutputNotice(choice: OutputFormatChoice): string | undefined {
  if (choice.outputsGiven || choice.inputRecordType !== "csv" || choice.wireFormat !== "arrow") return undefined;
  if (choice.rows * choice.columns < LARGE_CSV_CELLS) return undefined;
  return (
    `${choice.name} is CSV (${choice.rows} rows x ${choice.columns} columns), so the job writes its output as CSV ` +
    `too, and job.dataframe() parses it again. For a frame, pass outputs: { recordType: "arrow" }: this service ` +
    `writes Arrow, which reads several times faster, and job.download("out.csv") still writes CSV.`
  );
}
