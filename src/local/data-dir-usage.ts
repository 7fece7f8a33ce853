/**
 * Usage and pruning of a local session's data dir, for the REPL's `/usage` and `/rm`
 * (the same as `mdps admin usage` and `prune`). The service loads only when asked.
 */
import type { DataDirUsage, PruneReport } from "../server/index.js";
import { AUTO_INPUT_TAG } from "../session/auto-input-tag.js";

export type { DataDirUsage, PruneReport };

const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * An age such as `7d`, `12h`, `30m`, `90s` or `2w` in milliseconds; undefined when the
 * text is not one.
 *
 * @example parseAge("7d") // 604800000
 */
export function parseAge(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(text.trim());
  const unit = match?.[2] === undefined ? undefined : UNITS[match[2].toLowerCase()];
  return match?.[1] === undefined || unit === undefined ? undefined : Math.round(Number(match[1]) * unit);
}

/** Blobs, jobs and bytes in `dataDir`, counting the inputs preprocess() uploaded on its own. */
export async function dataDirUsage(dataDir: string): Promise<DataDirUsage> {
  const { openAdmin } = await import("../server/index.js");
  const admin = openAdmin(dataDir);
  try {
    return admin.usage(AUTO_INPUT_TAG);
  } finally {
    admin.close();
  }
}

/** `mdps admin prune` on `dataDir`: never the input of a queued or running job. */
export async function pruneDataDir(
  dataDir: string,
  options: { olderThanMs: number; tag?: string | undefined; dryRun?: boolean | undefined },
): Promise<PruneReport> {
  const { openAdmin } = await import("../server/index.js");
  const admin = openAdmin(dataDir);
  try {
    return admin.prune(options);
  } finally {
    admin.close();
  }
}
