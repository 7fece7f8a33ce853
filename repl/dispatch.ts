/**
 * One line in, one output back: a slash command goes to its command object, anything
 * else is JavaScript. Every failure is caught here and becomes an error output, so
 * no mistake, service error or exception can end the session.
 */
import { didYouMean } from "../src/internal/index.js";
import { parseArgs } from "./commands/args.js";
import type { Command, CommandContext, Output } from "./commands/types.js";
import { errorOutput, ReplError } from "./errors.js";
import { tokenize } from "./input/tokenize.js";

export function findCommand(commands: readonly Command[], name: string): Command | undefined {
  const key = name.toLowerCase();
  return commands.find((c) => c.name === key || c.aliases?.includes(key));
}

/**
 * `help`, `exit` and `quit` typed bare (or called, `help()`), as Python's REPL (3.13)
 * takes them: the command, unless the user's JavaScript defined that name.
 */
const BARE_WORDS = /^(help|exit|quit)(?:\(\))?$/;

/** Every name a typo at the prompt may have meant: frames, JavaScript names, /commands. */
function knownNames(ctx: CommandContext): string[] {
  const commands = ctx.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]).map((n) => `/${n}`);
  return [...ctx.workspace.frameNames(), ...ctx.workspace.jsNames(), ...commands];
}

export async function dispatch(line: string, ctx: CommandContext): Promise<Output> {
  const output = await dispatchLine(line, ctx);
  // One-line notices of the Session (a normalised upload, an id-like column transformed).
  const notices = ctx.workspace.takeNotices().map((text): Output => ({ type: "message", tone: "warning", text }));
  return notices.length === 0 ? output : { type: "group", items: [...notices, output] };
}

async function dispatchLine(line: string, ctx: CommandContext): Promise<Output> {
  const text = line.trim();
  if (text === "") return { type: "none" };
  try {
    const bare = BARE_WORDS.exec(text);
    if (bare !== null && !ctx.workspace.jsNames().includes(bare[1]!)) {
      return await dispatchLine(`/${bare[1]!}`, ctx);
    }
    if (!text.startsWith("/")) return await evaluate(text, ctx);
    const { words, unterminated } = tokenize(text);
    if (unterminated) throw new ReplError("A quote is not closed.", 'Close it, e.g. /load "my data.csv".');
    const [head, ...rest] = words;
    const name = head!.text.slice(1);
    const command = findCommand(ctx.commands, name);
    if (command === undefined) {
      const names = ctx.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
      throw new ReplError(
        `Unknown command /${name}${didYouMean(name, names, "/")}.`,
        `/help lists the commands; Tab completes them.`,
      );
    }
    const raw = rest.length > 0 ? text.slice(rest[0]!.start) : "";
    const args = parseArgs(
      rest.map((w) => w.text),
      command.flags,
      command.usage,
      raw,
    );
    return await command.action(ctx, args);
  } catch (error) {
    return errorOutput(error);
  }
}

/** JavaScript; a name that is not defined gets "did you mean" among frames, variables and commands. */
async function evaluate(text: string, ctx: CommandContext): Promise<Output> {
  try {
    return await ctx.workspace.evaluate(text, ctx.signal, ctx.width);
  } catch (error) {
    // Errors of typed JavaScript come from the vm context's realm: read the message, not instanceof.
    const message = (error as { message?: unknown } | null)?.message;
    const undefinedName = typeof message === "string" ? /^(\S+) is not defined$/.exec(message)?.[1] : undefined;
    const near = undefinedName === undefined ? "" : didYouMean(undefinedName, knownNames(ctx));
    if (near === "") throw error;
    const output = errorOutput(error);
    return { ...output, title: `${output.title}${near}` };
  }
}
