import { AUTO_INPUT_TAG } from "../../src/index.js";
import { parseAge, pruneDataDir } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";
import { formatBytes } from "../format/cells.js";
import { message, type Command } from "./types.js";

const USAGE = "/rm <blob> [<blob> ...]  |  /rm --older-than <age> [--auto-inputs] [--dry-run]";

export const rmCommand: Command = {
  name: "rm",
  aliases: ["delete"],
  description: "Delete blobs of this session, or (local service) old blobs and finished jobs.",
  usage: USAGE,
  details: [
    "/rm b1 b2                 deletes blobs listed by /blobs (ref, id or name) on the service",
    "/rm --older-than 7d       local data dir: blobs updated and jobs finished before then",
    `/rm --older-than 1d --auto-inputs   only the inputs /preprocess uploaded on its own (${AUTO_INPUT_TAG})`,
    "Never removes the input of a queued or running job. --dry-run lists what would go.",
  ],
  flags: { "older-than": "value", "auto-inputs": "boolean", "dry-run": "boolean" },
  complete: (ctx) => ctx.blobRefs(),
  async action(ctx, args) {
    const ws = ctx.workspace;
    const age = args.flags.get("older-than");
    if (age !== undefined) {
      if (args.positional.length > 0) throw new ReplError("Give blobs or --older-than, not both.", `Usage: ${USAGE}`);
      const olderThanMs = typeof age === "string" ? parseAge(age) : undefined;
      if (olderThanMs === undefined) {
        throw new ReplError(`--older-than takes an age such as 7d, 12h, 30m or 2w.`, `Usage: ${USAGE}`);
      }
      const dataDir = ws.session.dataDir;
      if (dataDir === undefined) {
        throw new ReplError(
          "--older-than cleans a local data dir; this session talks to a remote service.",
          "/rm <blob> deletes this session's blobs there.",
        );
      }
      const dryRun = args.flags.has("dry-run");
      const r = await pruneDataDir(dataDir, {
        olderThanMs,
        tag: args.flags.has("auto-inputs") ? AUTO_INPUT_TAG : undefined,
        dryRun,
      });
      const gone = new Set(r.blobs.map((b) => b.id));
      if (!dryRun) for (const b of [...ws.blobs()]) if (gone.has(b.blob.id)) ws.forgetBlob(b.ref);
      const pinned = r.pinned > 0 ? `; kept ${r.pinned} that a queued or running job reads` : "";
      return message(
        `${dryRun ? "Would remove" : "Removed"} ${r.blobs.length} blob(s) (${formatBytes(r.bytes)}) and ${r.jobs} finished job(s) older than ${age}${pinned}.`,
        r.blobs.length + r.jobs > 0 && !dryRun ? "success" : "info",
      );
    }
    if (args.positional.length === 0) throw new ReplError("Which blob?", `Usage: ${USAGE}; /blobs lists them.`);
    const targets = args.positional.map((text) => {
      const found = ws.findBlob(text);
      if (!found) {
        const known = ws.blobs().map((b) => b.ref);
        throw new ReplError(
          `No blob "${text}" in this session.`,
          known.length > 0 ? `Blobs: ${known.join(", ")}.` : "/blobs lists them.",
        );
      }
      return found;
    });
    let bytes = 0;
    for (const t of targets) {
      await t.blob.delete({ signal: ctx.signal });
      bytes += t.blob.record.size_bytes ?? 0;
      ws.forgetBlob(t.ref);
    }
    return message(
      `Deleted ${targets.map((t) => `${t.ref} (${t.blob.name})`).join(", ")}: ${formatBytes(bytes)} freed.`,
      "success",
    );
  },
};
