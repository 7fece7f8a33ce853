/**
 * What the Session is about to upload, read once on this machine: a user's CSV is read
 * as pandas would read it (src/core/formats/csv-dialect.ts), and when it is not the
 * contract's CSV a normalised copy is uploaded instead, with one sentence saying so.
 * The Table it yields is what the pre-flight checks (./preflight/preflight.ts) look at.
 */
import type { RecordType } from "../core/contract/blob.js";
import type { Capability } from "../core/contract/health.js";
import type { CsvDelimiter } from "../core/formats/csv-dialect.js";
import { formatOf } from "../core/formats/registry.js";
import type { Table } from "../core/formats/table.js";
import {
  frameShape,
  isDataFrame,
  loadDanfo,
  loadFormats,
  uploadSource,
  type Uploadable,
  type UploadSource,
} from "./table-io.js";
import { frameOriginName } from "./frame-origin.js";

export interface ReadOptions {
  /** CSV field separator; default detected among `,` `;` tab `|`. */
  readonly delimiter?: CsvDelimiter | "auto" | undefined;
  /** Stops reading a file at its next chunk (the kernel's stop during a preprocess's read). */
  readonly signal?: AbortSignal | undefined;
}

/** An input read and ready to send: `session.upload` and `session.preprocess` take it as they take a path. */
export class PreparedUpload {
  #table: Table | Promise<Table> | (() => Promise<Table>);

  constructor(
    readonly source: UploadSource,
    /** Set when what is sent differs from the user's file (a normalised copy). */
    readonly notice: string | undefined,
    table: Table | (() => Promise<Table>),
  ) {
    this.#table = table;
  }

  /** The data as a Table (a JSON or Arrow file is read on first call). */
  async table(): Promise<Table> {
    if (typeof this.#table === "function") this.#table = this.#table();
    return this.#table;
  }
}

const loadCsv = () => import("../core/formats/csv.js");
const loadDialect = () => import("../core/formats/csv-dialect.js");

/**
 * Whether a service reads files of a record type as they are: every type but one that
 * needs a capability (Parquet needs `parquet`), which only where `declares` says so.
 */
export function readsAsIs(recordType: RecordType, declares: (capability: Capability) => boolean): boolean {
  const needs = formatOf(recordType).capability;
  // The format registry's test holds every capability there to the contract's list.
  return needs === undefined || declares(needs as Capability);
}

/**
 * Reads `data` the way the Session sends it. A DataFrame becomes a Table (encoded on
 * upload); a CSV path or bytes is read like pandas.read_csv; JSON and Arrow go as they
 * are; a type that needs a capability (Parquet: `parquet`) goes as it is to a service
 * that `reads` it (declares the capability), else (or when `reads` is not given) it is
 * read here and uploaded in `wireFormat`, with one sentence saying so.
 */
export async function prepareUpload(
  data: Uploadable | PreparedUpload,
  recordType: RecordType | undefined,
  wireFormat: RecordType,
  options: ReadOptions = {},
  reads?: (recordType: RecordType) => boolean,
): Promise<PreparedUpload> {
  if (data instanceof PreparedUpload) return data;
  if (isDataFrame(data)) {
    const type = recordType ?? wireFormat;
    const [{ tableFromDataFrame }, { writeTable }] = await Promise.all([loadDanfo(), loadFormats()]);
    const table = tableFromDataFrame(data);
    const source: UploadSource = {
      recordType: type,
      open: () => writeTable(type, table),
      shape: frameShape(data, table),
      suggestedName: frameOriginName(data, type),
    };
    return new PreparedUpload(source, undefined, table);
  }
  const base = await uploadSource(data, recordType, wireFormat);
  // What is read here stops with the signal; what is uploaded is opened afresh by the upload.
  const read = () => untilAborted(base.open(), options.signal);
  // Not told what the service reads: such a file is converted, which every service can take.
  const needs = formatOf(base.recordType).capability;
  if (needs !== undefined && reads?.(base.recordType) !== true && wireFormat !== base.recordType) {
    return convertedForService(base, { wireFormat, undeclared: reads !== undefined, read });
  }
  if (base.recordType !== "csv") {
    return new PreparedUpload(base, undefined, async () => {
      const { readTable } = await loadFormats();
      return readTable(base.recordType, read());
    });
  }
  const [{ readCsv, writeCsv, PANDAS_CSV }, { emptyCsvReadReport, isContractClean, describeReport }] =
    await Promise.all([loadCsv(), loadDialect()]);
  const report = emptyCsvReadReport();
  const table = await readCsv(read(), {
    ...PANDAS_CSV,
    ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
    report,
  });
  if (isContractClean(report)) return new PreparedUpload(base, undefined, table);
  const what = base.suggestedName ?? "The CSV bytes";
  const notice =
    `${what} is not plain CSV (${describeReport(report)}); read as pandas.read_csv reads it, ` +
    `uploading a normalised copy (comma-separated, missing values as empty fields).`;
  return new PreparedUpload({ ...base, open: () => writeCsv(table) }, notice, table);
}

/** The chunks of a file being read, until `signal` aborts: a large file's read stops at its next chunk. */
function untilAborted(
  source: AsyncIterable<Uint8Array> | Uint8Array,
  signal: AbortSignal | undefined,
): AsyncIterable<Uint8Array> | Uint8Array {
  if (signal === undefined || source instanceof Uint8Array) return source;
  return (async function* () {
    for await (const chunk of source) {
      signal.throwIfAborted();
      yield chunk;
    }
  })();
}

/** A file of a type the service does not declare it reads (Parquet): read here, sent in the wire format. */
async function convertedForService(
  base: UploadSource,
  how: {
    readonly wireFormat: RecordType;
    readonly undeclared: boolean;
    readonly read: () => AsyncIterable<Uint8Array> | Uint8Array;
  },
): Promise<PreparedUpload> {
  const { wireFormat, undeclared } = how;
  const { readTable, writeTable } = await loadFormats();
  const format = formatOf(base.recordType);
  const table = await readTable(base.recordType, how.read());
  const what = base.suggestedName ?? `The ${format.label} bytes`;
  const lower = base.suggestedName?.toLowerCase();
  const ending = format.extensions.find((e) => lower?.endsWith(e) === true);
  const name =
    ending === undefined
      ? base.suggestedName
      : `${base.suggestedName?.slice(0, -ending.length)}${formatOf(wireFormat).extensions[0]}`;
  const why = undeclared
    ? `, which this service does not declare it reads (no "${format.capability}" in health's capabilities)`
    : "";
  const notice = `${what} is ${format.label}${why}; read on this machine, uploading it as ${wireFormat}.`;
  return new PreparedUpload(
    { ...base, recordType: wireFormat, open: () => writeTable(wireFormat, table), suggestedName: name },
    notice,
    table,
  );
}
