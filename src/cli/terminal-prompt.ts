/**
 * Questions at a terminal, one readline interface for all of them. Hidden answers (a
 * client secret) are read with the echo muted: readline still handles editing and
 * pasting, but nothing it would draw reaches the terminal, and with no line history
 * the secret cannot come back with the Up key at a later question.
 */
import { createInterface, type Interface } from "node:readline/promises";
import { Writable } from "node:stream";

/** Ctrl+C (or Ctrl+D) at a question: the caller stops and writes nothing. */
export class PromptCancelled extends Error {
  constructor() {
    super("cancelled at the prompt");
    this.name = "PromptCancelled";
  }
}

export interface AskOptions {
  /** Returned for an empty answer; shown in brackets unless the answer is hidden. */
  readonly defaultValue?: string | undefined;
  /** No echo: for secrets. */
  readonly hidden?: boolean | undefined;
}

export interface Prompter {
  ask(question: string, options?: AskOptions): Promise<string>;
  /** Writes a line between questions (an error about the last answer). */
  say(line: string): void;
  close(): void;
}

/** Passes writes on to the terminal unless muted. */
class MutableOutput extends Writable {
  muted = false;
  readonly #target: NodeJS.WriteStream;

  constructor(target: NodeJS.WriteStream) {
    super();
    this.#target = target;
  }

  get columns(): number {
    return this.#target.columns;
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.muted) this.#target.write(chunk, encoding);
    callback();
  }
}

/** Questions on `input` (a TTY), answers echoed to `output` except hidden ones. */
export function terminalPrompter(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stdout,
): Prompter {
  const muted = new MutableOutput(output);
  const rl: Interface = createInterface({ input, output: muted, terminal: true, historySize: 0 });
  let cancel: (() => void) | undefined;
  let cancelled = false;
  const onCancel = () => {
    cancelled = true;
    cancel?.();
  };
  rl.on("SIGINT", onCancel);
  rl.on("close", onCancel);

  return {
    async ask(question, options = {}) {
      if (cancelled) throw new PromptCancelled();
      const shown = options.defaultValue === undefined || options.hidden ? "" : ` [${options.defaultValue}]`;
      const controller = new AbortController();
      cancel = () => controller.abort();
      try {
        if (options.hidden) {
          output.write(`${question}${shown}: `);
          muted.muted = true;
        }
        const answer = await rl.question(options.hidden ? "" : `${question}${shown}: `, { signal: controller.signal });
        const trimmed = answer.trim();
        return trimmed === "" && options.defaultValue !== undefined ? options.defaultValue : trimmed;
      } catch (error) {
        if (controller.signal.aborted) throw new PromptCancelled();
        throw error;
      } finally {
        cancel = undefined;
        if (options.hidden) {
          muted.muted = false;
          // The Enter was not echoed either.
          output.write("\n");
        }
      }
    },
    say(line) {
      output.write(`${line}\n`);
    },
    close() {
      rl.off("close", onCancel);
      rl.close();
    },
  };
}
