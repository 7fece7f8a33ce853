/**
 * tslab loses a stop button pressed while it compiles a cell. It runs each cell's
 * synchronous part under vm's breakOnSigint, which takes every SIGINT listener off for that
 * part; with the last listener gone Node closes its signal handle, and a signal that arrived
 * during the compile, not yet handed to a listener, goes with it. Neither tslab nor mdps
 * hears it, and the cell's job is sent and followed to its end.
 *
 * Jupyter interrupts a kernel's whole process group, so a small Node process started in
 * that group hears every stop too, and reports each one over IPC, which no vm option
 * closes. A report that Node itself also delivered (within SAME_SIGNAL_MS of it) is the
 * same stop, heard: nothing to do. One that Node did not deliver goes to `lost`.
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

/**
 * The relay: says each SIGINT to its parent, and "ready" once it listens (a SIGINT before
 * that ends it); it ends with its parent, whose end closes the IPC channel.
 */
const RELAY_SOURCE =
  'process.on("SIGINT",()=>process.send("SIGINT"));process.on("disconnect",()=>process.exit(0));process.send("ready");';
/**
 * How far apart Node's delivery of a stop and the relay's report of the same stop can fall:
 * both come in on the same turn of the event loop when the loop was busy, a few
 * milliseconds apart when it was free.
 */
const SAME_SIGNAL_MS = 100;
/** How long a report waits for Node's own delivery of its stop, which may come just after it. */
const SETTLE_MS = 30;
/** Starts of a relay that ended before it listened (a stop pressed while it started). */
const STARTS = 3;

/**
 * Starts the relay soon (not inside a cell's breakOnSigint part: a SIGINT listener added
 * there leaves Node with no signal handler once it returns). `lost` gets each stop Node
 * dropped. Resolves true once the relay listens, false if none could start: the kernel is
 * then as it was without one.
 */
export function relayLostInterrupts(lost: () => void): Promise<boolean> {
  return new Promise((ready) => {
    setImmediate(() => {
      let heardAt = Number.NEGATIVE_INFINITY;
      process.on("SIGINT", () => {
        heardAt = performance.now();
      });
      const start = (startsLeft: number) => {
        let listening = false;
        const relay = spawn(process.execPath, ["-e", RELAY_SOURCE], {
          stdio: ["ignore", "ignore", "ignore", "ipc"],
          // Nothing of the kernel's: no NODE_OPTIONS preloads, no secrets it does not need.
          env: {},
        });
        relay.on("error", () => ready(false));
        relay.on("exit", () => {
          if (listening) return;
          if (startsLeft > 1) start(startsLeft - 1);
          else ready(false);
        });
        relay.on("message", (message) => {
          if (message === "ready") {
            listening = true;
            ready(true);
            return;
          }
          const reportedAt = performance.now();
          setTimeout(() => {
            if (heardAt < reportedAt - SAME_SIGNAL_MS) lost();
          }, SETTLE_MS).unref();
        });
        // The kernel's end is never held up by its relay.
        relay.unref();
        relay.channel?.unref();
      };
      start(STARTS);
    });
  });
}
