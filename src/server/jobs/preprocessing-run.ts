import { createReadStream } from "node:fs";
import { Readable, type Transform } from "node:stream";
import { pipeline } from "node:stream";
import type { JobPhase, LogLevel, Params, PreprocessingType } from "../../core/contract/index.js";
import { createDecryptStream, createEncryptStream } from "../../core/crypto/index.js";
import { fitTransform } from "../../core/engine/index.js";
import { readTable, replaceColumns, selectFeatures, writeTable } from "../../core/formats/index.js";
import { writeFileDurably } from "../blob-bytes/blob-files.js";
import type { JobDone, RunJobMessage } from "./messages.js";

export interface RunReporter {
  progress(phase: JobPhase, fraction: number): void;
  log(level: LogLevel, message: string): void;
}

/** Chains streams so an error anywhere (say, a wrong key) surfaces at the reading end. */
function chain(source: Readable, step: Transform): Readable {
  return pipeline(source, step, () => {});
}

/**
 * One preprocessing run, inside a worker thread: input bytes -> (decrypt) -> table ->
 * features -> fit and transform -> table -> each output's format -> (encrypt) -> a
 * fsynced temp file. The main thread commits the files; this function writes no metadata.
 */
export async function runPreprocessing(job: RunJobMessage, report: RunReporter): Promise<JobDone> {
  report.progress("reading", 0.02);
  let source: Readable = createReadStream(job.inputPath, { highWaterMark: 1 << 20 });
  if (job.inputKey) {
    report.progress("decrypting", 0.05);
    source = chain(source, createDecryptStream(Buffer.from(job.inputKey)));
  }

  report.progress("parsing", 0.1);
  const numericColumns = job.featureColumns.length > 0 ? job.featureColumns : undefined;
  const table = await readTable(job.inputRecordType, source, numericColumns ? { numericColumns } : {});
  const features = selectFeatures(table, job.featureColumns);
  report.log(
    "info",
    `read ${table.rowCount} rows x ${table.columns.length} columns (${job.inputRecordType}); features: ${features.names.join(", ")}`,
  );

  report.progress("fitting", 0.3);
  const started = performance.now();
  const { columns, fitted, warnings } = fitTransform(
    job.preprocessingType,
    job.params as Params<PreprocessingType>,
    features,
    (fraction) => report.progress("fitting", 0.3 + 0.5 * Math.min(1, Math.max(0, fraction))),
  );
  report.log(
    "info",
    `fitted ${job.preprocessingType} on ${features.names.length} feature column(s) in ${Math.round(performance.now() - started)} ms`,
  );
  for (const w of warnings) report.log("warning", `${w.code}: ${w.message}`);

  report.progress("writing", 0.8);
  const output = replaceColumns(table, features.names, columns);
  const written: JobDone["outputs"] = [];
  for (const [i, out] of job.outputs.entries()) {
    let bytes: Readable = Readable.from(writeTable(out.recordType, output), { objectMode: false });
    if (out.key) bytes = chain(bytes, createEncryptStream(Buffer.from(out.key)));
    const file = await writeFileDurably(out.tempPath, bytes);
    written.push({ sizeBytes: file.sizeBytes, sha256: file.sha256 });
    report.log(
      "info",
      `wrote output '${out.name}' as ${out.recordType}${out.key ? " (encrypted)" : ""}: ${file.sizeBytes} bytes`,
    );
    report.progress("writing", 0.8 + (0.2 * (i + 1)) / job.outputs.length);
  }
  return {
    type: "done",
    rows: table.rowCount,
    columns: output.columns.map((c) => c.name),
    featureColumns: [...features.names],
    fitted,
    outputs: written,
    warnings: warnings.map((w) => ({ code: w.code, message: w.message, column: w.column })),
  };
}
