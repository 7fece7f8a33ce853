/**
 * Each record type's reader and writer: the `codec` its format module exports, one line
 * per registry entry (the type makes a missing one a compile error), behind a loader so
 * readTable and writeTable ask for a codec only when its type is read or written.
 * Imported statically here on purpose: the job worker runs from source under a require
 * hook in the tests, where import() finds no .ts file. The bundle (scripts/bundle.mjs)
 * turns each line into an import() of its own chunk, so Apache Arrow and hyparquet are
 * loaded at the first use of their type, not with the first CSV.
 */
import { codec as arrow } from "./arrow.js";
import type { TableCodec } from "./codec.js";
import { codec as csv } from "./csv.js";
import { codec as json } from "./json.js";
import { codec as parquet } from "./parquet.js";
import type { RecordType } from "./registry.js";

const loaded = (codec: TableCodec) => () => Promise.resolve(codec);

export const CODECS: { readonly [T in RecordType]: () => Promise<TableCodec> } = {
  csv: loaded(csv),
  json: loaded(json),
  arrow: loaded(arrow),
  parquet: loaded(parquet),
};
