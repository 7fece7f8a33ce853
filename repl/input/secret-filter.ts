/**
 * Decides whether a line may be written to the history file. A line that names a
 * credential with a value, or carries something that looks like a key or token, is
 * kept for this session only. False positives cost a history entry; a false negative
 * would leave a secret on disk, so the checks lean towards dropping.
 */

const NAMED_SECRET =
  /(secret|token|passw(?:or)?d|api[_-]?key|encryption[_-]?key|private[_-]?key|\bkey)\s*["']?\s*[:=]/i;
const SECRET_FLAG = /--(?:key|secret|token|password|client-secret)\b/i;
const BEARER = /\bbearer\s+\S/i;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const LONG_HEX = /\b[0-9a-f]{32,}\b/i;
const BASE64_RUN = /[A-Za-z0-9+/_=-]{20,}/g;

export function mayContainSecret(line: string): boolean {
  if (NAMED_SECRET.test(line) || SECRET_FLAG.test(line) || BEARER.test(line)) return true;
  const withoutIds = line.replace(UUID, " ");
  if (LONG_HEX.test(withoutIds)) return true;
  for (const match of withoutIds.matchAll(BASE64_RUN)) {
    if (looksRandom(match[0])) return true;
  }
  return false;
}

/**
 * Random base64 (keys, secrets, JWT parts) mixes capitals and small letters, switches
 * character class often and has a high per-character entropy. Names people write
 * (paths, CamelCase identifiers, ALLCAPS constants) are mostly one case, switch
 * class rarely, or are low in entropy.
 */
function looksRandom(run: string): boolean {
  const upper = run.replace(/[^A-Z]/g, "").length;
  const lower = run.replace(/[^a-z]/g, "").length;
  const letters = upper + lower;
  const ratio = letters === 0 ? 0 : upper / letters;
  const mixedCase = ratio >= 0.15 && ratio <= 0.85;
  // Random text switches between capitals, small letters, digits and symbols at about
  // two characters in three; words and CamelCase names do it far less often.
  if (!mixedCase && classChanges(run) < 0.45) return false;
  const counts = new Map<string, number>();
  for (const ch of run) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  for (const n of counts.values()) {
    const p = n / run.length;
    entropy -= p * Math.log2(p);
  }
  // 20 random base64 characters score about 4.0 bits; repetitive text scores far lower.
  return entropy >= Math.min(3.6, Math.log2(run.length) - 0.8);
}

function classChanges(run: string): number {
  const kind = (ch: string): number => (/[A-Z]/.test(ch) ? 0 : /[a-z]/.test(ch) ? 1 : /[0-9]/.test(ch) ? 2 : 3);
  let changes = 0;
  for (let i = 1; i < run.length; i++) if (kind(run[i]!) !== kind(run[i - 1]!)) changes++;
  return changes / (run.length - 1);
}
