/**
 * Without a terminal (piped stdin, CI): read lines, run each to the end, print the
 * transcript as plain text. Lines starting with `#` are narration and are printed as
 * they are. The exit status is 1 when any line failed (the rest still run, as in
 * the interactive session), 130 when interrupted.
 */
import { createInterface } from "node:readline";
import type { ReplController } from "../controller.js";
import { itemLines } from "./item-lines.js";

export interface PipedIo {
  readonly input: NodeJS.ReadableStream;
  readonly output: { write(text: string): unknown };
}

export async function runPiped(controller: ReplController, io: PipedIo): Promise<number> {
  let printed = 0;
  let epoch = controller.snapshot().epoch;
  const flush = (): void => {
    const state = controller.snapshot();
    if (state.epoch !== epoch) {
      epoch = state.epoch;
      printed = 0;
    }
    for (const item of state.items.slice(printed)) {
      io.output.write(
        itemLines(item, controller.width)
          .map((l) => `${l.trimEnd()}\n`)
          .join(""),
      );
    }
    printed = state.items.length;
  };
  const unsubscribe = controller.subscribe(flush);
  flush();

  // Set by the SIGINT handler, so an object: flow analysis would take a local `let` as still false.
  const interrupt = { requested: false };
  const onSigint = (): void => {
    if (!controller.cancel()) {
      interrupt.requested = true;
      lines.close();
    }
  };
  process.on("SIGINT", onSigint);
  const lines = createInterface({ input: io.input, crlfDelay: Infinity, terminal: false });
  try {
    for await (const line of lines) {
      const text = line.trim();
      if (text === "") continue;
      if (text.startsWith("#")) {
        controller.add({ kind: "comment", text });
        continue;
      }
      await controller.submit(text);
      if (controller.snapshot().quitting || interrupt.requested) break;
    }
    // Jobs still running (sent from JavaScript or with no /fetch) are waited for, so
    // their outcome is printed and counted.
    for (const job of controller.workspace.jobs.running) {
      const done = await controller.workspace.jobs.waitFor(job.ref);
      if (done.status !== "succeeded") controller.failures++;
    }
  } finally {
    process.off("SIGINT", onSigint);
    lines.close();
    unsubscribe();
    flush();
  }
  if (interrupt.requested) return 130;
  return controller.failures > 0 ? 1 : 0;
}
