/**
 * Turns the words after a command name into positionals and flags, using the
 * command's flag declarations so `--columns a,b` takes a value and `--wait` does not.
 */
import { ReplError } from "../errors.js";

export type FlagKind = "value" | "boolean";

export interface ParsedArgs {
  readonly positional: readonly string[];
  readonly flags: ReadonlyMap<string, string | true>;
  /** The text after the command name, untouched. */
  readonly raw: string;
}

export function parseArgs(
  words: readonly string[],
  declared: Readonly<Record<string, FlagKind>> = {},
  usage = "",
  raw = words.join(" "),
): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("--") || word === "--") {
      positional.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const name = word.slice(2, eq < 0 ? undefined : eq);
    const kind = declared[name];
    if (kind === undefined) {
      const known = Object.keys(declared).map((f) => `--${f}`);
      throw new ReplError(
        `Unknown option --${name}.`,
        known.length > 0
          ? `Options of this command: ${known.join(", ")}. Usage: ${usage}`
          : `This command takes no options. Usage: ${usage}`,
      );
    }
    if (kind === "boolean") {
      flags.set(name, true);
    } else if (eq >= 0) {
      flags.set(name, word.slice(eq + 1));
    } else {
      const value = words[i + 1];
      if (value === undefined) throw new ReplError(`Option --${name} needs a value.`, `Usage: ${usage}`);
      flags.set(name, value);
      i++;
    }
  }
  return { positional, flags, raw };
}

/** `a,b , c` -> ["a", "b", "c"]; empty items dropped. */
export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
