import { didYouMean } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";
import type { TrackedBlob, Workspace } from "../workspace/workspace.js";

/**
 * What a command runs on: a frame by name, else a blob by ref, id or name. Neither is a
 * ReplError with the nearest name and every frame and blob there is.
 */
export function frameOrBlob(ws: Workspace, name: string): { readonly frame: boolean; readonly blob?: TrackedBlob } {
  if (ws.hasFrame(name)) return { frame: true };
  const blob = ws.findBlob(name);
  if (blob !== undefined) return { frame: false, blob };
  const blobRefs = ws.blobs().map((b) => b.ref);
  throw new ReplError(
    `No frame or blob "${name}"${didYouMean(name, [...ws.frameNames(), ...blobRefs])}.`,
    `Frames: ${ws.frameNames().join(", ") || "none"}; blobs: ${blobRefs.join(", ") || "none"}.`,
  );
}
