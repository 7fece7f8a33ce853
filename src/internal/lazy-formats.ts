/**
 * readTable and writeTable for the REPL, loading the formats module (Apache Arrow,
 * hyparquet, hyparquet-writer) on first use: only /load and /save of a file need them,
 * and they are among the largest modules the REPL would otherwise load at start.
 * Same signatures and results as ../core/formats/index.js's; writeTable's errors come from
 * its first read instead of its call (its consumers read it at once).
 */
import type { CsvWriteOptions, ReadTableOptions, Source, Table, TableRecordType } from "../core/formats/index.js";

const formats = () => import("../core/formats/index.js");

export async function readTable(
  recordType: TableRecordType,
  source: Source,
  options?: ReadTableOptions,
): Promise<Table> {
  return (await formats()).readTable(recordType, source, options);
}

export async function* writeTable(
  recordType: TableRecordType,
  table: Table,
  options?: CsvWriteOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  yield* (await formats()).writeTable(recordType, table, options);
}
