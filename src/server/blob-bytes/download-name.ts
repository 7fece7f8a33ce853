import { formatOf } from "../../core/formats/registry.js";

/** Bytes in the encryption envelope are not a file of the record type until decrypted. */
const ENCRYPTED = ".enc";

/**
 * The file name a blob is saved under. A job's outputs are named `<input>-<Transform>`,
 * without an extension; a saved file without one opens in nothing, so it gets its
 * record type's (and `.enc` after it when the bytes are encrypted).
 */
export function downloadName(blob: { name: string; record_type: string; encrypted: boolean }): string {
  const format = formatOf(blob.record_type);
  if (format === undefined) return blob.name;
  // A name that already ends in one of the type's endings keeps it (a `.tsv` uploaded as
  // csv stays `.tsv`); any other gets the type's first.
  const endings = [...format.extensions, ...format.otherEndings];
  const lower = blob.name.toLowerCase();
  const stem = blob.encrypted && lower.endsWith(ENCRYPTED) ? lower.slice(0, -ENCRYPTED.length) : lower;
  if (endings.some((ending) => stem.endsWith(ending)))
    return blob.encrypted && stem === lower ? `${blob.name}${ENCRYPTED}` : blob.name;
  const tail = lower === stem ? "" : blob.name.slice(-ENCRYPTED.length);
  const head = blob.name.slice(0, blob.name.length - tail.length);
  return `${head}${endings[0]}${blob.encrypted ? ENCRYPTED : ""}`;
}

/** `filename*` (RFC 6266 / 8187) so any name survives, plus an ASCII fallback. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
