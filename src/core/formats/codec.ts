/**
 * The reader and writer of a record type. Each format module exports one as `codec`;
 * codecs.ts maps the registry's words to them for readTable and writeTable.
 */
import type { Source } from "./source.js";
import type { Table } from "./table.js";

/** What a writer may be asked; a writer with no use for an option ignores it. */
export interface TableWriteOptions {
  /** CSV's record terminator: "\n" (default, as pandas writes) or "\r\n" (as RFC 4180 writes). */
  readonly lineEnding?: "\n" | "\r\n";
  /** Approximate bytes per yielded chunk (default 64 KiB). */
  readonly chunkBytes?: number;
}

export interface TableCodec {
  /**
   * `numericColumns` is for text formats, which cannot tell a number from its text
   * otherwise; a format whose columns carry their type ignores it.
   */
  read(source: Source, options: { readonly numericColumns: "auto" | readonly string[] }): Promise<Table>;
  write(table: Table, options: TableWriteOptions): AsyncIterable<Uint8Array>;
}
