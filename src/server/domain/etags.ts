/** Whether an `If-Match` / `If-None-Match` header (quoted etags, or `*`; unquoted accepted too) matches a blob's sha256. */
export function etagMatches(header: string, sha256: string): boolean {
  return header
    .split(",")
    .map((t) => t.trim().replace(/^"(.*)"$/, "$1"))
    .some((t) => t === "*" || t === sha256);
}
