/** The time every record is stamped with: ISO 8601 in UTC, as both stores write it. */
export function nowIso(): string {
  return new Date().toISOString();
}
