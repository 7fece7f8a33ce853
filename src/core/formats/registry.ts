/**
 * One entry per record type: its wire word, the file endings and Content-Type it goes
 * by, how its bytes are recognised, whether it is columnar. Every place that names
 * record types asks here (the contract's RecordType, readTable/writeTable, the client's
 * upload, the Session's paths and sniffing, the service's downloads, the portal, the REPL
 * and the CLI), so a new record type is its format module (exporting its `codec`), its
 * entry here (which loads that module), and its test.
 *
 * Readers and writers are loaded, not imported: Apache Arrow and hyparquet are large, and
 * whoever only asks for a name or an ending should not load them. Each entry's `load` is
 * a literal import() so that tsx, the worker's require hook and the bundler all find the
 * module; a computed one finds no .ts file under tsx. The wire's RecordType is derived
 * from this file, so it is compiled in the contract's TypeScript project, which holds
 * the whole formats folder for these imports' types.
 */
import { extname } from "node:path";
import { orList } from "../text/or-list.js";
import type { TableCodec } from "./codec.js";

export interface FormatEntry {
  /** The RecordType word on the wire, lower-case. */
  readonly word: string;
  /** Its name in a sentence ("Read a CSV, JSON, Arrow or Parquet file"). */
  readonly label: string;
  /**
   * The endings a path of this type is read and written by; the first is the one a
   * download without an ending is given.
   */
  readonly extensions: readonly [string, ...string[]];
  /**
   * Endings a file of this type also goes by, kept by a download that already ends so,
   * but not read as this type from a path (a `.tsv` or `.jsonl` is not what the reader
   * takes without options, so the caller names the record type).
   */
  readonly otherEndings: readonly string[];
  /** The Content-Type its bytes are served with (unencrypted). */
  readonly contentType: string;
  /**
   * How its bytes are recognised: the `magic` bytes a file starts with, or the first
   * non-blank character of a text (`textStart`). The one entry with neither is what
   * anything else is read as.
   */
  readonly magic?: string;
  readonly textStart?: string;
  /**
   * Columns carry their type and a frame reads them without parsing text: the format a
   * job's outputs are asked in when the caller named none (docs/session.md).
   */
  readonly columnar: boolean;
  /**
   * The health capability a service declares when it reads this type; without it the
   * Session reads the file here and uploads it in its wire format. Absent: every
   * service reads it.
   */
  readonly capability?: string;
  /** Loads its format module, whose `codec` reads and writes it (readTable, writeTable). */
  readonly load: () => Promise<{ readonly codec: TableCodec }>;
}

export const FORMATS = [
  {
    word: "csv",
    label: "CSV",
    extensions: [".csv"],
    otherEndings: [".tsv", ".txt"],
    contentType: "text/csv",
    columnar: false,
    load: () => import("./csv.js"),
  },
  {
    word: "json",
    label: "JSON",
    extensions: [".json"],
    otherEndings: [".jsonl", ".ndjson"],
    contentType: "application/json",
    textStart: "[",
    columnar: false,
    load: () => import("./json.js"),
  },
  {
    word: "arrow",
    label: "Arrow",
    extensions: [".arrow", ".feather", ".ipc"],
    otherEndings: [".arrows"],
    contentType: "application/vnd.apache.arrow.file",
    magic: "ARROW1",
    columnar: true,
    load: () => import("./arrow.js"),
  },
  {
    word: "parquet",
    label: "Parquet",
    extensions: [".parquet", ".pq"],
    otherEndings: [],
    contentType: "application/vnd.apache.parquet",
    magic: "PAR1",
    columnar: true,
    capability: "parquet",
    load: () => import("./parquet.js"),
  },
] as const satisfies readonly FormatEntry[];

type Words<T extends readonly { readonly word: string }[]> = { readonly [K in keyof T]: T[K]["word"] };

/** The record types in the order every message lists them. */
export const RECORD_TYPES = FORMATS.map((f) => f.word) as unknown as Words<typeof FORMATS>;
export type RecordType = (typeof RECORD_TYPES)[number];

const BY_WORD: ReadonlyMap<string, FormatEntry> = new Map(FORMATS.map((f) => [f.word, f]));

export function isRecordType(word: string): word is RecordType {
  return BY_WORD.has(word);
}

/** The entry of a record type; undefined for a word that is none (another service's, say). */
export function formatOf(word: RecordType): FormatEntry;
export function formatOf(word: string): FormatEntry | undefined;
export function formatOf(word: string): FormatEntry | undefined {
  return BY_WORD.get(word);
}

/** The record type a path's ending names, or undefined when it names none. */
export function recordTypeOfPath(path: string): RecordType | undefined {
  const ending = extname(path).toLowerCase();
  return FORMATS.find((f) => (f.extensions as readonly string[]).includes(ending))?.word;
}

const FALLBACK = FORMATS.find((f: FormatEntry) => f.magic === undefined && f.textStart === undefined) as FormatEntry;

/** How many first bytes sniffing reads: enough for every entry's magic. */
export const SNIFF_BYTES = 8;

/** The record type of bytes by how they start; what nothing recognises is read as the fallback (CSV). */
export function sniffRecordType(bytes: Uint8Array): RecordType {
  const head = Buffer.from(bytes.subarray(0, SNIFF_BYTES)).toString("latin1");
  const text = head.trimStart();
  const found =
    FORMATS.find((f: FormatEntry) => f.magic !== undefined && head.startsWith(f.magic)) ??
    FORMATS.find((f: FormatEntry) => f.textStart !== undefined && text.startsWith(f.textStart));
  return (found ?? FALLBACK).word as RecordType;
}

/** "csv, json, arrow or parquet": the words, for a message that offers them. */
export function recordTypeChoices(options: { readonly quoted?: boolean } = {}): string {
  return orList(RECORD_TYPES.map((w) => (options.quoted ? `"${w}"` : w)));
}

/** ".csv, .json, .arrow or .parquet" (each type's first ending), or every ending with `all`. */
export function extensionChoices(options: { readonly all?: boolean } = {}): string {
  return orList(FORMATS.flatMap((f) => (options.all ? [...f.extensions] : [f.extensions[0]])));
}

/** "CSV, JSON, Arrow or Parquet". */
export function formatLabels(): string {
  return orList(FORMATS.map((f) => f.label));
}
