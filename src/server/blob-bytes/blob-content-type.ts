import { CONTENT_TYPES, type RecordType } from "../../core/contract/index.js";

/**
 * The Content-Type a blob is served with. Bytes in the encryption envelope are opaque
 * to a reader of the record type, so they are plain octets.
 */
export function contentTypeOf(recordType: string, encrypted: boolean): string {
  if (encrypted || !Object.hasOwn(CONTENT_TYPES, recordType)) return "application/octet-stream";
  return CONTENT_TYPES[recordType as RecordType];
}
