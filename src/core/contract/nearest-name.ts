/**
 * "Did you mean …?" for every kind of name a user types: transforms, parameters,
 * enum values, columns, frames, REPL commands. One rule everywhere: a name that
 * differs only in case wins; else the closest by edit distance (adjacent swaps count
 * as one edit), if it is close enough to be a typo rather than another word.
 */

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (prevPrev[j - 2] as number) + 1);
      }
      row.push(d);
    }
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length] as number;
}

/** How many edits still look like a typo of a name this long: 1 for short names, up to a third. */
function tolerance(length: number): number {
  return Math.max(1, Math.min(3, Math.floor(length / 3)));
}

/**
 * The candidate the user most likely meant by `typed`, or undefined when none is close.
 *
 * @example nearestName("Proline", ["alcohol", "proline"]) // "proline"
 * @example nearestName("StandardScalar", PREPROCESSING_TYPES) // "StandardScaler"
 */
export function nearestName(typed: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  if (list.includes(typed)) return undefined;
  const lower = typed.toLowerCase();
  const sameCase = list.find((c) => c.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  let best: string | undefined;
  let bestDistance = Infinity;
  let bestPrefix = 0;
  for (const candidate of list) {
    const other = candidate.toLowerCase();
    const d = editDistance(lower, other);
    // On a tie the one that starts like what was typed wins (`qu`: `q` before `du`).
    let prefix = 0;
    while (prefix < lower.length && lower[prefix] === other[prefix]) prefix++;
    if (d < bestDistance || (d === bestDistance && prefix > bestPrefix)) {
      best = candidate;
      bestDistance = d;
      bestPrefix = prefix;
    }
  }
  return best !== undefined && bestDistance <= tolerance(Math.max(typed.length, best.length)) ? best : undefined;
}

/** ` (did you mean `x`?)` or "" — to append to a message. */
export function didYouMean(typed: string, candidates: Iterable<string>, prefix = ""): string {
  const near = nearestName(typed, candidates);
  return near === undefined ? "" : ` (did you mean \`${prefix}${near}\`?)`;
}
