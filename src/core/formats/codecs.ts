/**
 * Each record type's reader and writer: the `codec` of the module its registry entry
 * loads, loaded when a table of that type is first read or written (import() caches it).
 * Whoever needs no table asks registry.ts only, which loads none of them.
 */
import type { TableCodec } from "./codec.js";
import { formatOf, type RecordType } from "./registry.js";

export async function loadCodec(word: RecordType): Promise<TableCodec> {
  return (await formatOf(word).load()).codec;
}
