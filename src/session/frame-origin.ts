/**
 * The file a DataFrame was read from (by `readCsv`/`readFile` in mdps/danfo), so that an
 * upload of the frame is named after it ("wine.arrow") instead of `dataframe-<time>`.
 * Held weakly: the frame's life decides, and a frame derived from it has no origin.
 */
import { basename, extname } from "node:path";
import { formatOf } from "../core/formats/registry.js";

const origins = new WeakMap<object, string>();

export function rememberFrameOrigin(frame: object, path: string): void {
  origins.set(frame, basename(path, extname(path)));
}

/** The name an upload of `frame` in `recordType` gets from its file: its stem and the type's first extension. */
export function frameOriginName(frame: object, recordType: string): string | undefined {
  const stem = origins.get(frame);
  return stem === undefined ? undefined : `${stem}${formatOf(recordType)?.extensions[0] ?? `.${recordType}`}`;
}
