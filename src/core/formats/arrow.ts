/** Apache Arrow IPC <-> Table (rules in docs/formats.md). */
import type { TableCodec } from "./codec.js";
import { readArrow } from "./arrow-reader.js";
import { writeArrow } from "./arrow-writer.js";

export { readArrow, tableFromIpcKeepingNames } from "./arrow-reader.js";
export { writeArrow } from "./arrow-writer.js";

/** Apache Arrow IPC's reader and writer, for readTable and writeTable. */
export const codec: TableCodec = { read: readArrow, write: writeArrow };
