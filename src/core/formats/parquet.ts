/** Parquet <-> Table (rules in docs/formats.md). */
export { readParquet } from "./parquet-reader.js";
export { writeParquet } from "./parquet-writer.js";
