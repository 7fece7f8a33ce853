import { formatBytes } from "../format/cells.js";
import { message, type Command } from "./types.js";

export const blobsCommand: Command = {
  name: "blobs",
  description: "List the blobs made in this session (uploads and job inputs); --all: every blob of the model.",
  usage: "/blobs [--all]",
  details: ["--all lists the model's blobs from the service, newest first (other sessions' too)."],
  flags: { all: "boolean" },
  async action(ctx, args) {
    if (args.flags.has("all")) {
      const records = await ctx.workspace.session.modelBlobs({ signal: ctx.signal });
      if (records.length === 0) return message("The model has no blobs yet.", "muted");
      return {
        type: "table",
        columns: ["name", "format", "tier", "tags", "size", "created", "id"],
        rows: records.map((r) => [
          r.name ?? "",
          r.record_type ?? "",
          r.access_tier ?? "",
          r.tags.join(", "),
          r.size_bytes === undefined ? "" : formatBytes(r.size_bytes),
          r.created_at ?? "",
          r.id,
        ]),
      };
    }
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
