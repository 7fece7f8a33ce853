/** A REPL in a tmux window for tests: keys in like a person, the screen back as text. */
import { setTimeout as sleep } from "node:timers/promises";
import { tmuxOn } from "../tmux.js";

export class TmuxScreen {
  readonly #tmux: (...args: string[]) => string;

  constructor(
    socket: string,
    readonly session: string,
  ) {
    this.#tmux = tmuxOn(socket);
  }

  /** Runs `command` in a new window of `width` × `height`. */
  start(command: string, width = 120, height = 40): void {
    this.#tmux("new-session", "-d", "-s", this.session, "-x", String(width), "-y", String(height), command);
  }

  screen(): string {
    return this.#tmux("capture-pane", "-p", "-t", this.session);
  }

  /** The whole scrollback, for lines that scrolled off the visible rows. */
  history(): string {
    return this.#tmux("capture-pane", "-p", "-S", "-", "-t", this.session);
  }

  /** The screen (or with `read`, the scrollback) once `check` holds; a clear failure after `timeoutMs`. */
  async waitFor(
    check: (text: string) => boolean,
    what: string,
    timeoutMs = 30_000,
    read: () => string = () => this.screen(),
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = read();
      if (check(text)) return text;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
      await sleep(50);
    }
  }

  /** Types like a person: text, then each special key on its own. */
  async keys(...items: string[]): Promise<void> {
    for (const item of items) {
      if (/^(Enter|Tab|Up|Down|C-[a-z])$/.test(item)) this.#tmux("send-keys", "-t", this.session, item);
      else this.#tmux("send-keys", "-t", this.session, "-l", item);
      await sleep(60);
    }
  }
}
