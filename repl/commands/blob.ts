import { formatBytes } from "../format/cells.js";
import { ReplError } from "../errors.js";
import { message, type Command } from "./types.js";

/** A blob that exists on the service (uploaded elsewhere, or an output of an earlier session) as a blob ref here. */
export const blobCommand: Command = {
  name: "blob",
  description: "Take a blob that exists on the service by its id, as a blob of this session (b1, b2, ...).",
  usage: "/blob <id>",
  details: [
    "For a blob uploaded by other means (the portal, another program, an earlier session): /preprocess and /show take its ref.",
  ],
  async action(ctx, args) {
    const [id, ...extra] = args.positional;
    if (id === undefined || extra.length > 0) throw new ReplError("Which blob id?", `Usage: ${this.usage}`);
    const blob = await ctx.workspace.session.blob(id, { signal: ctx.signal });
    const tracked = ctx.workspace.addBlob(blob, "on the service (by id)");
    const size = blob.record.size_bytes === undefined ? "" : `, ${formatBytes(blob.record.size_bytes)}`;
    return message(`${tracked.ref}: ${blob.name} (blob ${blob.id}${size}).`, "success");
  },
};
