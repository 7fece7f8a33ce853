/** Apache Arrow IPC <-> Table (rules in docs/formats.md). */
export { readArrow, tableFromIpcKeepingNames } from "./arrow-reader.js";
export { writeArrow } from "./arrow-writer.js";
