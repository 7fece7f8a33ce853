import { RECORD_TYPES, type RecordType } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { formatBytes } from "../format/cells.js";
import { message, type Command } from "./types.js";

const FORMATS: readonly RecordType[] = RECORD_TYPES;

export const uploadCommand: Command = {
  name: "upload",
  aliases: ["up"],
  description: "Upload a frame to the service as a blob (listed by /blobs).",
  usage: `/upload <frame> [as <blob name>] [--format ${FORMATS.join("|")}] [--encrypt]`,
  details: [
    "--encrypt encrypts on this machine with a new key; the key stays in this session (never shown or saved).",
    "Default format: the session's wire format (Arrow with the local service).",
  ],
  flags: { format: "value", encrypt: "boolean" },
  complete: (ctx, args) => (args.length === 0 ? ctx.frameNames() : args.length === 1 ? ["as"] : []),
  async action(ctx, args) {
    const [name, as, blobName, ...extra] = args.positional;
    if (name === undefined || (as !== undefined && (as !== "as" || blobName === undefined)) || extra.length > 0) {
      throw new ReplError("Which frame?", `Usage: ${this.usage}`);
    }
    const format = args.flags.get("format");
    if (format !== undefined && !FORMATS.includes(format as RecordType)) {
      throw new ReplError(`Unknown format "${String(format)}".`, `Formats: ${FORMATS.join(", ")}.`);
    }
    const blob = await ctx.workspace.session.upload(ctx.workspace.frame(name), {
      name: blobName ?? name,
      recordType: format as RecordType | undefined,
      encrypt: args.flags.has("encrypt") ? true : undefined,
      description: `uploaded from the mdps REPL (frame ${name})`,
      signal: ctx.signal,
    });
    const tracked = ctx.workspace.addBlob(blob, `frame ${name}`);
    const r = blob.record;
    return message(
      `Uploaded ${name} as blob ${tracked.ref}: ${blob.name}, ${blob.recordType}${r.size_bytes === undefined ? "" : `, ${formatBytes(r.size_bytes)}`}${blob.encrypted ? ", encrypted" : ""} (id ${r.id}).`,
      "success",
    );
  },
};
