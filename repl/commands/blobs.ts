import { formatBytes } from "../format/cells.js";
import { message, type Command } from "./types.js";

export const blobsCommand: Command = {
  name: "blobs",
  description: "List the blobs made in this session (uploads and job inputs).",
  usage: "/blobs",
  action(ctx) {
    const blobs = ctx.workspace.blobs();
    if (blobs.length === 0) return message("No blobs yet: /upload a frame or /preprocess one.", "muted");
    return {
      type: "table",
      columns: ["blob", "name", "format", "size", "encrypted", "from", "id"],
      rows: blobs.map(({ ref, blob, source }) => [
        ref,
        blob.name,
        blob.recordType,
        blob.record.size_bytes === undefined ? "" : formatBytes(blob.record.size_bytes),
        blob.encrypted ? "yes" : "no",
        source,
        blob.id,
      ]),
    };
  },
};
