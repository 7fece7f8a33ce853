/**
 * Each record type's reader and writer: the `codec` its format module exports, one line
 * per registry entry (the type makes a missing one a compile error). Imported statically
 * on purpose: the job worker runs from source under a require hook in the tests, where a
 * computed import() finds no .ts file. Whoever needs no table imports registry.ts only,
 * which loads none of these.
 */
import { codec as arrow } from "./arrow.js";
import type { TableCodec } from "./codec.js";
import { codec as csv } from "./csv.js";
import { codec as json } from "./json.js";
import { codec as parquet } from "./parquet.js";
import type { RecordType } from "./registry.js";

export const CODECS: { readonly [T in RecordType]: TableCodec } = { csv, json, arrow, parquet };
