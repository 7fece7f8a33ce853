export type RangeRequest = { start: number; end: number } | "unsatisfiable" | undefined;

/**
 * Reads a single `bytes=` range (RFC 9110 section 14.2). Several ranges, other units
 * or a malformed header are ignored (undefined: send the whole body), as the RFC
 * allows; a well-formed range past the end is "unsatisfiable".
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first, last] = match;
  if (first === "" && last === "") return undefined;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}
