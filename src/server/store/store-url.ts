/** `value` with the password of a `scheme://user:password@host` form replaced by `***`. */
export function redactedUrl(value: string): string {
  // Greedy to the authority's last `@`: a password with a raw `@` is hidden whole.
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^/?#]*@/i, "$1:***@");
}
