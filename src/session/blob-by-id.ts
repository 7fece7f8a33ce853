/**
 * `session.blob(id)`: a handle on a blob that exists on the service, however it got there
 * (this session, an earlier one, the portal, another program). Its record comes from this
 * session or the journal, else from the service's blob record (where it declares
 * `blob-list`), else from a one-byte ranged download that shows the blob exists and what
 * its headers say of it; nothing is downloaded whole and nothing changes.
 */
import { recordTypeOfPath } from "./table-io.js";
import { blobRecord, type BlobRecord } from "../core/contract/blob.js";
import type { CallOptions } from "../client/transport.js";
import { Blob } from "./blob.js";
import { knownBlobs } from "./listings.js";
import type { SessionContext } from "./session-context.js";
import type { SessionReach } from "./session-reach.js";

export async function blobById(
  ctx: SessionContext<SessionReach>,
  id: string,
  options: CallOptions = {},
): Promise<Blob> {
  const key = id.trim();
  const mine = knownBlobs(ctx).find((b) => b.id === key);
  if (mine !== undefined) return mine;
  const { client, profile } = ctx;
  const record = profile.declares("blob-list")
    ? await client.blobs.get(key, options)
    : await recordFromHeaders(ctx, key, options);
  const blob = new Blob(ctx, record);
  ctx.session.earlierBlobs.set(key, blob);
  return blob;
}

/** What a ranged download's headers say: the name, the size, the format (a 404 is the service's NotFoundError). */
async function recordFromHeaders(ctx: SessionContext, id: string, options: CallOptions): Promise<BlobRecord> {
  const res = await ctx.client.blobs.download(id, { ...options, range: "bytes=0-0" });
  res.body.destroy();
  const name = fileNameOf(res.headers["content-disposition"]);
  const total = /\/(\d+)$/.exec(res.headers["content-range"] ?? "")?.[1];
  const size = total ?? (res.status === 200 ? res.headers["content-length"] : undefined);
  const type = name === undefined ? undefined : recordTypeOfPath(name.replace(/\.gz$/i, ""));
  return blobRecord.parse({
    id,
    ...(name === undefined ? {} : { name }),
    ...(size === undefined ? {} : { size_bytes: Number(size) }),
    ...(type === undefined ? {} : { record_type: type }),
    ...(res.headers["content-type"] === undefined ? {} : { content_type: res.headers["content-type"] }),
  });
}

/** The file name of a Content-Disposition: `filename*=UTF-8''…` first, then `filename="…"`. */
function fileNameOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header)?.[1];
  if (extended !== undefined) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      return extended.trim();
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]?.trim();
}
