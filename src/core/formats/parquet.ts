/** Parquet <-> Table (rules in docs/formats.md). */
import type { TableCodec } from "./codec.js";
import { readParquet } from "./parquet-reader.js";
import { writeParquet } from "./parquet-writer.js";

export { readParquet } from "./parquet-reader.js";
export { writeParquet } from "./parquet-writer.js";

/** Parquet's reader and writer, for readTable and writeTable. */
export const codec: TableCodec = { read: readParquet, write: writeParquet };
