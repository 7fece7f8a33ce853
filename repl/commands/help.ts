import { didYouMean } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";
import type { Command, HelpEntry } from "./types.js";

export function helpEntry(command: Command): HelpEntry {
  return {
    name: command.name,
    aliases: command.aliases ?? [],
    usage: command.usage,
    description: command.description,
    details: command.details,
  };
}

export const helpCommand: Command = {
  name: "help",
  aliases: ["?"],
  description: "List the commands and keys, or explain one command.",
  usage: "/help [command]",
  complete: (ctx, args) => (args.length === 0 ? ctx.commandNames() : []),
  action(ctx, args) {
    const topic = args.positional[0]?.replace(/^\//, "");
    if (topic === undefined) {
      return { type: "help", entries: ctx.commands.map((c) => ({ ...helpEntry(c), details: undefined })), keys: true };
    }
    const command = ctx.commands.find((c) => c.name === topic || c.aliases?.includes(topic));
    if (command === undefined) {
      const names = ctx.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
      throw new ReplError(
        `No command /${topic}${didYouMean(topic, names, "/")}.`,
        `Commands: ${ctx.commands.map((c) => `/${c.name}`).join(" ")}`,
      );
    }
    return { type: "help", entries: [{ ...helpEntry(command), details: command.details ?? [] }], keys: false };
  },
};
