import type { Command } from "./types.js";

export const clearCommand: Command = {
  name: "clear",
  aliases: ["cls"],
  description: "Clear the screen (frames, blobs and jobs stay).",
  usage: "/clear",
  action: () => ({ type: "clear" }),
};
