import { message, type Command } from "./types.js";

export const framesCommand: Command = {
  name: "frames",
  aliases: ["ls"],
  description: "List the named frames (they are JavaScript variables too).",
  usage: "/frames",
  action(ctx) {
    const names = ctx.workspace.frameNames();
    if (names.length === 0) return message("No frames yet: /load a file.", "muted");
    return {
      type: "table",
      columns: ["frame", "shape", "from"],
      rows: names.map((n) => {
        const [rows, columns] = ctx.workspace.frame(n).shape;
        return [n, `${rows} × ${columns}`, ctx.workspace.frameInfo(n).origin];
      }),
    };
  },
};
