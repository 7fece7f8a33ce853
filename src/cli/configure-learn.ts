/**
 * The learning step of `mdps configure`: once the settings pass their check, the service's
 * wire choices are learned (../client/vendor/service-learning.ts), shown with where each came from,
 * and returned as profile keys to save beside the addresses and credentials.
 */
import { MdpsClient } from "../client/client.js";
import type { ClientConfig } from "../client/config.js";
import { learnService, type Learned } from "../client/vendor/service-learning.js";

/** A probe that does not answer in this time is a note, not a wait. */
const LEARN_TIMEOUT_MS = 15_000;

/** The profile keys learning fills, and `learned_from`; `{}` when nothing was learned. */
export type LearnedKeys = Readonly<Record<string, unknown>>;

export async function learnForProfile(config: ClientConfig, out: NodeJS.WritableStream): Promise<LearnedKeys> {
  const client = new MdpsClient(config, { retry: { maxRetries: 1 }, timeoutMs: LEARN_TIMEOUT_MS });
  let learned: Learned;
  try {
    out.write("Learning the service's wire choices (its OpenAPI document, else requests it refuses)...\n");
    learned = await learnService(client);
  } finally {
    await client.close();
  }
  out.write(learnedText(learned));
  if (Object.keys(learned.from).length === 0) return {};
  // A fact settled as mdps's default removes what the profile said before ({} or "" removes a
  // key); only facts that differ are written, with where each was learned (none: no learned_from).
  const defaults = Object.fromEntries(
    Object.keys(learned.from).map((key) => [key, key === "param_spelling" ? "" : {}]),
  );
  const learnedFrom = Object.fromEntries(
    Object.entries(learned.from).filter(([key]) => learned.values[key as keyof Learned["values"]] !== undefined),
  );
  return { ...defaults, ...learned.values, learned_from: learnedFrom };
}

/** One line per fact (its value, or mdps's default, and where it was learned), then the notes. */
export function learnedText(learned: Learned): string {
  const lines = Object.entries(learned.from).map(([key, source]) => {
    const value = learned.values[key as keyof Learned["values"]];
    const shown =
      value === undefined
        ? "mdps's default"
        : typeof value === "string"
          ? value
          : Object.entries(value)
              .map(([ours, theirs]) => `${ours}=${theirs}`)
              .join(",");
    return `  ${key}: ${shown} (${source})\n`;
  });
  const notes = learned.notes.map((note) => `  note: ${note}\n`);
  return lines.length + notes.length === 0 ? "" : [...lines, ...notes].join("");
}
