/**
 * One line in, one output back: a slash command goes to its command object, anything
 * else is JavaScript. Every failure is caught here and becomes an error output, so
 * no mistake, service error or exception can end the session.
 */
import { parseArgs } from "./commands/args.js";
import type { Command, CommandContext, Output } from "./commands/types.js";
import { errorOutput, ReplError } from "./errors.js";
import { tokenize } from "./input/tokenize.js";

export function findCommand(commands: readonly Command[], name: string): Command | undefined {
  const key = name.toLowerCase();
  return commands.find((c) => c.name === key || c.aliases?.includes(key));
}

export async function dispatch(line: string, ctx: CommandContext): Promise<Output> {
  const text = line.trim();
  if (text === "") return { type: "none" };
  try {
    if (!text.startsWith("/")) return await ctx.workspace.evaluate(text, ctx.signal, ctx.width);
    const { words, unterminated } = tokenize(text);
    if (unterminated) throw new ReplError("A quote is not closed.", 'Close it, e.g. /load "my data.csv".');
    const [head, ...rest] = words;
    const name = head!.text.slice(1);
    const command = findCommand(ctx.commands, name);
    if (command === undefined) {
      throw new ReplError(`Unknown command /${name}.`, `/help lists the commands; Tab completes them.`);
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
