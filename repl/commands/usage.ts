import { AUTO_INPUT_TAG } from "../../src/index.js";
import { dataDirUsage } from "../../src/internal/index.js";
import { formatBytes } from "../format/cells.js";
import { message, type Command, type Output } from "./types.js";

export const usageCommand: Command = {
  name: "usage",
  aliases: ["du"],
  description: "Show what this session stored, and (local service) what its data dir holds.",
  usage: "/usage",
  details: [
    "Local sessions also show the data dir: blobs, jobs, bytes on disk, and the inputs /preprocess",
    `uploaded on its own (tag ${AUTO_INPUT_TAG}; Session.local() removes them after 24 hours).`,
    "/rm removes blobs; /rm --older-than 7d cleans the data dir.",
  ],
  async action(ctx) {
    const ws = ctx.workspace;
    const blobs = ws.blobs().filter((b) => !b.blob.deleted);
    const bytes = blobs.reduce((sum, b) => sum + (b.blob.record.size_bytes ?? 0), 0);
    const jobs = ws.jobs.jobs;
    const rows: string[][] = [
      ["this session", "blobs", `${blobs.length} (${formatBytes(bytes)})`],
      ["this session", "jobs", String(jobs.length)],
    ];
    const dataDir = ws.session.dataDir;
    if (dataDir === undefined) {
      return {
        type: "group",
        items: [
          { type: "table", columns: ["where", "what", "how much"], rows },
          message(
            "The service's own storage is not visible from here; /rm <blob> deletes this session's blobs.",
            "muted",
          ),
        ],
      };
    }
    const u = await dataDirUsage(dataDir);
    const statuses = Object.entries(u.jobsByStatus)
      .map(([status, n]) => `${n} ${status}`)
      .join(", ");
    rows.push(
      ["data dir", "blobs", `${u.blobs} (${formatBytes(u.blobBytes)})`],
      ["data dir", "auto-uploaded inputs", `${u.tagged?.blobs ?? 0} (${formatBytes(u.tagged?.bytes ?? 0)})`],
      ["data dir", "jobs", `${u.jobs}${statuses ? ` (${statuses})` : ""}`],
      ["data dir", "on disk", formatBytes(u.diskBytes)],
    );
    const items: Output[] = [
      { type: "table", columns: ["where", "what", "how much"], rows },
      message(`Data dir: ${dataDir}`, "muted"),
    ];
    if (u.blobs > 0) items.push(message("/rm --older-than 7d removes old blobs and finished jobs.", "muted"));
    return { type: "group", items };
  },
};
