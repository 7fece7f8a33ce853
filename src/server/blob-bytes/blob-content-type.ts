import { formatOf } from "../../core/formats/registry.js";

/**
 * The Content-Type a blob is served with. Bytes in the encryption envelope are opaque
 * to a reader of the record type, so they are plain octets.
 */
export function contentTypeOf(recordType: string, encrypted: boolean): string {
  const format = formatOf(recordType);
  if (encrypted || format === undefined) return "application/octet-stream";
  return format.contentType;
}
