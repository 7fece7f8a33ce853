/**
 * The format a job writes its outputs in. By the interface a job's output has the input's
 * format unless the request names another; for data mdps read here (a file, bytes, a
 * DataFrame) the caller is working in frames, and a large CSV output is written by the
 * service and parsed again by `job.dataframe()`, where the service could have written Arrow
 * (read about eight times faster into a frame, see docs/PERFORMANCE.md). So where the
 * service declares a faster format (the Session's wire format is arrow or parquet) and the
 * caller named no format, the outputs are asked for in it; `job.download("out.csv")` still
 * writes the file in the format its extension names. A format the caller named is always
 * kept, with a notice when it costs them. A blob the caller hands in keeps its own format.
 */
import type { RecordType } from "../../core/contract/blob.js";
import { formatOf } from "../../core/formats/registry.js";
import type { UploadSource } from "../table-io.js";

/** Cells (rows x columns) from which a text output is worth a notice: about 10 MB of text. */
export const LARGE_CSV_CELLS = 1_000_000;

/** Whether a frame reads the format without parsing text. */
const columnar = (recordType: RecordType): boolean => formatOf(recordType).columnar;

export interface OutputFormatChoice {
  /** The input's record type as uploaded (the outputs' default by the interface). */
  readonly inputRecordType: RecordType;
  /** What the Session sends frames in: arrow or parquet where the service declares it. */
  readonly wireFormat: RecordType;
  /** The format the caller named for the outputs (or, failing that, the upload); undefined: none. */
  readonly chosen: RecordType | undefined;
  readonly rows: number;
  readonly columns: number;
  /** The input's name, for the notice. */
  readonly name: string;
}

export interface OutputFormat {
  /** The format to ask for where the caller named none; undefined: the input's. */
  readonly recordType: RecordType | undefined;
  /** One sentence for the caller when their own choice costs them time. */
  readonly notice: string | undefined;
}

/** The outputs' format for a job on data read here, and the notice when the caller's explicit choice is the slow one. */
export function outputFormat(choice: OutputFormatChoice): OutputFormat {
  const faster = columnar(choice.wireFormat) ? choice.wireFormat : undefined;
  if (choice.chosen !== undefined) {
    const costly = faster !== undefined && !columnar(choice.chosen) && choice.rows * choice.columns >= LARGE_CSV_CELLS;
    return { recordType: undefined, notice: costly ? costNotice(choice, choice.chosen, faster) : undefined };
  }
  if (faster !== undefined && !columnar(choice.inputRecordType)) return { recordType: faster, notice: undefined };
  return { recordType: undefined, notice: undefined };
}

function costNotice(choice: OutputFormatChoice, chosen: RecordType, faster: RecordType): string {
  const format = chosen.toUpperCase();
  return (
    `You chose ${format} for ${choice.name}'s job (${choice.rows} rows x ${choice.columns} columns), so the service ` +
    `writes its output as ${format} and job.dataframe() parses it again. Without a recordType in outputs (and upload) ` +
    `the job writes ${faster}, which this service declares and which reads several times faster into a frame; ` +
    `job.download("out${formatOf(chosen).extensions[0]}") still writes ${format}.`
  );
}

/** `outputFormat` for `session.preprocess` on an input it read here and checked. */
export function preprocessOutputFormat(job: {
  readonly source: UploadSource;
  readonly report: { readonly rows: number; readonly columns: readonly unknown[] };
  /** The format the caller named (the plan's `chosenRecordType`). */
  readonly chosen: RecordType | undefined;
  readonly wireFormat: RecordType;
}): OutputFormat {
  return outputFormat({
    inputRecordType: job.source.recordType,
    wireFormat: job.wireFormat,
    chosen: job.chosen,
    rows: job.report.rows,
    columns: job.report.columns.length,
    name: job.source.suggestedName ?? "The input",
  });
}
