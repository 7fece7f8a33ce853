/**
 * Tab completion for the prompt: command names, then whatever the command offers
 * for the word being typed (frames, transforms, parameters, paths, jobs), then
 * JavaScript names in scope. Pure apart from the command's own completer.
 */
import type { Command, CompletionContext } from "../commands/types.js";
import { quoteWord, tokenize } from "./tokenize.js";

export interface Completion {
  /** The new input line (unchanged when nothing matched). */
  readonly line: string;
  /** Every match, shown when there is more than one. */
  readonly candidates: readonly string[];
}

export interface Completer {
  readonly commands: readonly Command[];
  readonly context: CompletionContext;
  /** JavaScript names in scope (frames, session, dfd, the user's variables). */
  readonly jsNames: () => readonly string[];
}

export function complete(line: string, completer: Completer): Completion {
  if (!line.trimStart().startsWith("/")) return completeJs(line, completer.jsNames());
  const { words, trailingSpace } = tokenize(line);
  const first = words[0];
  if (first === undefined) return { line, candidates: [] };
  if (words.length === 1 && !trailingSpace) {
    const names = completer.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])].map((n) => `/${n}`));
    return apply(line, first.start, first.text, names, " ");
  }
  const name = first.text.slice(1);
  const command = completer.commands.find((c) => c.name === name || c.aliases?.includes(name));
  if (command === undefined) return { line, candidates: [] };
  const typing = trailingSpace ? undefined : words[words.length - 1];
  const partial = typing?.text ?? "";
  const args = words.slice(1, typing ? -1 : undefined).map((w) => w.text);
  let candidates: readonly string[];
  if (partial.startsWith("--")) candidates = Object.keys(command.flags ?? {}).map((f) => `--${f}`);
  else candidates = command.complete?.(completer.context, args, partial) ?? [];
  // Inside a list (`--columns a,b`, `Step(a,b)`) a completed name stays open for a comma.
  const inList = args.at(-1) === "--columns" || /[(,]/.test(partial);
  return apply(line, typing?.start ?? line.length, partial, candidates, inList ? "" : " ");
}

function completeJs(line: string, names: readonly string[]): Completion {
  const match = /[A-Za-z_$][\w$]*$/.exec(line);
  // After a dot is a property, which would need the value; leave it alone.
  if (match === null || line[match.index - 1] === ".") return { line, candidates: [] };
  return apply(line, match.index, match[0], names, "");
}

/**
 * Replaces the word at `start` with the single match (plus `suffix`), or with the
 * longest common prefix of several. Words ending in `/` or `=` get no suffix: the
 * user goes on typing inside them.
 */
function apply(line: string, start: number, partial: string, options: readonly string[], suffix: string): Completion {
  const lower = partial.toLowerCase();
  const matches = [...new Set(options)].filter((o) => o.toLowerCase().startsWith(lower));
  if (matches.length === 0) return { line, candidates: [] };
  const head = line.slice(0, start);
  if (matches.length === 1) {
    const word = matches[0]!;
    const open = /[/=]$/.test(word) || word.endsWith(",");
    return { line: head + quoteIfNeeded(word) + (open ? "" : suffix), candidates: matches };
  }
  const common = commonPrefix(matches);
  const word = common.length >= partial.length ? common : partial;
  return { line: head + quoteIfNeeded(word), candidates: matches };
}

function quoteIfNeeded(word: string): string {
  return /[\s"'\\]/.test(word) ? quoteWord(word) : word;
}

export function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return "";
  let prefix = words[0]!;
  for (const w of words) {
    let i = 0;
    while (i < prefix.length && i < w.length && prefix[i]!.toLowerCase() === w[i]!.toLowerCase()) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}
