/** Apache Arrow IPC <-> Table (rules in docs/formats.md). */
export { keepEmptyNames, readArrow } from "./arrow-reader.js";
export { writeArrow } from "./arrow-writer.js";
