import type { Command } from "./types.js";

export const quitCommand: Command = {
  name: "quit",
  aliases: ["exit", "q"],
  description: "End the session (Ctrl+D does the same). Running jobs go on on the service.",
  usage: "/quit",
  action: () => ({ type: "quit" }),
};
