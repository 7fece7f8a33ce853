/**
 * The service's words for record types and access tiers in `mdps configure`: the
 * interface does not list the values of RecordType and AccessTier, so a service may want
 * its own (`Csv`, `Hot`). Optional: Enter keeps the profile's words (or mdps's own when it
 * has none), `-` goes back to mdps's own (an empty map, which removes the profile key).
 */
import { ACCESS_TIERS, RECORD_TYPES } from "../core/contract/blob.js";
import { ConfigError } from "../client/errors.js";
import { parseWordMap, wordMapText } from "../client/vendor/service-settings.js";
import type { Prompter } from "./terminal-prompt.js";

export type WordMap = Readonly<Record<string, string>>;

/** Each map as the profile is to hold it: `{}` for mdps's own words, undefined to keep the file's. */
export interface ConfiguredWords {
  readonly record_types: WordMap | undefined;
  readonly access_tiers: WordMap | undefined;
}

interface WordSetting {
  readonly key: keyof ConfiguredWords;
  readonly flag: string;
  readonly known: readonly string[];
  readonly what: string;
  readonly example: string;
}

const WORD_SETTINGS: readonly WordSetting[] = [
  { key: "record_types", flag: "--record-types", known: RECORD_TYPES, what: "record types", example: "csv=Csv" },
  { key: "access_tiers", flag: "--access-tiers", known: ACCESS_TIERS, what: "access tiers", example: "hot=Hot" },
];

/** The answer that goes back to mdps's own words. */
const OWN_WORDS = "-";

type Checked = { readonly value: WordMap } | { readonly problem: string };

function check(setting: WordSetting, answer: string): Checked {
  const text = answer.trim();
  if (text === "" || text === OWN_WORDS) return { value: {} };
  const problems: string[] = [];
  const map = parseWordMap({ text, known: setting.known, name: setting.flag, problems });
  if (problems.length > 0 || map === undefined) return { problem: problems.join("; ") };
  return { value: map as WordMap };
}

/**
 * Each word map: the flag's (checked), else the answer to its question (asked again
 * until valid), else the profile's current map.
 */
export async function settleWords(input: {
  readonly flags: { readonly recordTypes?: string | undefined; readonly accessTiers?: string | undefined };
  readonly current: Readonly<Record<string, unknown>>;
  readonly prompter: Prompter | undefined;
}): Promise<ConfiguredWords> {
  const { flags, current, prompter } = input;
  const out: Record<string, WordMap | undefined> = {};
  const problems: string[] = [];
  for (const setting of WORD_SETTINGS) {
    const flag = setting.key === "record_types" ? flags.recordTypes : flags.accessTiers;
    const now = currentMap(current[setting.key]);
    if (flag !== undefined) {
      const checked = check(setting, flag);
      if ("problem" in checked) problems.push(`${checked.problem}.`);
      else out[setting.key] = checked.value;
      continue;
    }
    if (prompter === undefined) {
      out[setting.key] = now;
      continue;
    }
    const question =
      `The service's words for ${setting.what}, e.g. ${setting.example} ` +
      `(Enter: ${now ? "keep these" : `mdps's own, ${setting.known.join(", ")}`}; ${OWN_WORDS}: mdps's own)`;
    for (;;) {
      const checked = check(setting, await prompter.ask(question, { defaultValue: wordMapText(now) }));
      if ("value" in checked) {
        out[setting.key] = checked.value;
        break;
      }
      prompter.say(`  ${checked.problem}.`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join(" "));
  return { record_types: out.record_types, access_tiers: out.access_tiers };
}

/** What the configured words are, in one line, for the closing message; empty when mdps's own. */
export function wordsLine(words: ConfiguredWords): string {
  const parts = WORD_SETTINGS.flatMap((s) => {
    const text = wordMapText(words[s.key]);
    return text === undefined ? [] : [`${s.what} ${text}`];
  });
  return parts.length === 0
    ? ""
    : `The service's words: ${parts.join("; ")}. \`mdps doctor --probe\` tries them with a one-row upload.\n`;
}

function currentMap(value: unknown): WordMap | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string");
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}
