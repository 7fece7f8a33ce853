/**
 * The rule for inputs that `session.preprocess(df)` uploads on its own (a DataFrame, a
 * path, bytes; not a Blob you uploaded): they carry the tag `mdps:auto-input`, and
 * `Session.local()` removes, when it starts, its data dir's auto-inputs last updated
 * more than `autoInputRetentionMs` ago (default 24 hours), never one that a queued or
 * running job reads. Job outputs and blobs you upload yourself are never removed by it.
 * `mdps admin prune --tag mdps:auto-input --older-than 1d` applies the same rule to any
 * data dir (docs/session.md, docs/service.md).
 */
import type { openAdmin } from "../server/index.js";
import { AUTO_INPUT_TAG } from "../session/auto-input-tag.js";

/** How long `Session.local()` keeps auto-uploaded inputs: 24 hours. */
export const DEFAULT_AUTO_INPUT_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface AutoInputPruning {
  /** Blobs removed and their bytes. */
  readonly blobs: number;
  readonly bytes: number;
}

/**
 * Removes the data dir's auto-inputs older than `retentionMs` (Infinity: keeps them).
 * Housekeeping never stops a session from starting: a failure is a process warning.
 */
export function pruneAutoInputs(
  mod: { openAdmin: typeof openAdmin },
  dataDir: string,
  retentionMs: number,
): AutoInputPruning {
  if (!(retentionMs >= 0) || retentionMs === Infinity) return { blobs: 0, bytes: 0 };
  try {
    const admin = mod.openAdmin(dataDir);
    try {
      const report = admin.prune({ olderThanMs: retentionMs, tag: AUTO_INPUT_TAG });
      return { blobs: report.blobs.length, bytes: report.bytes };
    } finally {
      admin.close();
    }
  } catch (error) {
    process.emitWarning(
      `mdps: could not remove old auto-uploaded inputs in ${dataDir}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { blobs: 0, bytes: 0 };
  }
}
