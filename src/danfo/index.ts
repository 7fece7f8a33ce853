/**
 * `mdps/danfo`: danfo.js as mdps ships it, and pandas' readers and `describe` for its
 * DataFrames. A project that installs mdps gets danfo through this entry point, with its
 * types: `import { dfd, readCsv, describe } from "mdps/danfo"`. It is a separate entry so
 * that `import "mdps"` does not load danfo and TensorFlow.js until a frame is needed.
 */
export * as dfd from "danfojs-node";
export type { DataFrame, Series } from "danfojs-node";
export { readCsv, readFile, type ReadCsvOptions } from "./read.js";
export { describe } from "./describe.js";
