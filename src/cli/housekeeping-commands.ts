import type { Command } from "commander";
import type { DataDirUsage, PruneReport, StoreAdmin } from "../server/index.js";
import { parseDuration } from "./duration-option.js";
import type { Common } from "./admin-flags.js";
import { formatBytes } from "../display/render/html.js";
import { AUTO_INPUT_TAG } from "../session/auto-input-tag.js";

type WithAdmin = <T>(
  flags: Common,
  run: (admin: StoreAdmin) => Promise<T>,
  human: (result: T) => string,
) => Promise<void>;

/** `mdps admin usage` and `mdps admin prune`: what a data dir holds, and removing the old. */
export function registerHousekeeping(admin: Command, common: (cmd: Command) => Command, withAdmin: WithAdmin): void {
  common(admin.command("usage").description("count the blobs, jobs and bytes in a data dir")).action((flags: Common) =>
    withAdmin(flags, (a) => a.usage(AUTO_INPUT_TAG), usageText),
  );

  common(
    admin
      .command("prune")
      .description(
        "remove blobs last updated, and jobs finished, longer ago than --older-than; never the input of a queued or running job",
      ),
  )
    .requiredOption("--older-than <age>", "e.g. 7d, 12h, 30m", parseDuration)
    .option("--tag <tag>", `only blobs with this tag, e.g. ${AUTO_INPUT_TAG} (jobs are kept)`)
    .option("--dry-run", "list what would go; remove nothing")
    .action((flags: Common & { olderThan: number; tag?: string; dryRun?: boolean }) =>
      withAdmin(
        flags,
        (a) => a.prune({ olderThanMs: flags.olderThan, tag: flags.tag, dryRun: flags.dryRun }),
        pruneText,
      ),
    );
}

function usageText(u: DataDirUsage): string {
  const statuses = Object.entries(u.jobsByStatus)
    .map(([status, n]) => `${n} ${status}`)
    .join(", ");
  const lines = [
    `data dir: ${u.dataDir}`,
    `blobs:    ${u.blobs} (${formatBytes(u.blobBytes)})`,
    `jobs:     ${u.jobs}${statuses ? ` (${statuses})` : ""}`,
    `on disk:  ${formatBytes(u.diskBytes)} (blob files, database, temp files)`,
  ];
  if (u.tagged && u.tagged.blobs > 0) {
    lines.push(
      `          of the blobs, ${u.tagged.blobs} (${formatBytes(u.tagged.bytes)}) are inputs preprocess() uploaded on its own (${u.tagged.tag})`,
    );
  }
  if (u.blobs > 0 || u.jobs > 0)
    lines.push(`remove old ones with: mdps admin prune --data-dir ${u.dataDir} --older-than 7d`);
  return lines.join("\n");
}

function pruneText(r: PruneReport): string {
  const verb = r.dryRun ? "would remove" : "removed";
  const lines = [
    `${verb} ${r.blobs.length} blob(s) (${formatBytes(r.bytes)}) updated before ${r.before}, and ${r.jobs} job(s) finished before it`,
  ];
  for (const b of r.blobs) lines.push(`  ${b.id}  ${b.name}  ${formatBytes(b.size_bytes)}`);
  if (r.pinned > 0) lines.push(`kept ${r.pinned} old blob(s) that a queued or running job reads`);
  return lines.join("\n");
}
