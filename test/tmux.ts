/** A real terminal for tests: tmux, on a private server socket so no one's own sessions are touched. */
import { execFileSync, spawnSync } from "node:child_process";
import type { RequiredTool } from "./required-tool.js";

const check = spawnSync("tmux", ["-V"]);

export const tmuxTool: RequiredTool = {
  name: "tmux",
  missing:
    check.status === 0
      ? null
      : `tmux is not on PATH or does not run (${check.error?.message ?? `tmux -V exited ${String(check.status)}`}): apt-get install tmux`,
};

/** `tmux -L <socket> ...args`, its output as text. */
export function tmuxOn(socket: string): (...args: string[]) => string {
  return (...args) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}
