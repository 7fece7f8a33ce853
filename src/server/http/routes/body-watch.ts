import type { IncomingMessage } from "node:http";
import { BODY_IDLE_MS } from "../../options.js";
import { HttpProblem } from "../problems.js";

/** The boundary parameter of a multipart Content-Type, quoted or not. */
export function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

const endedEarly = (boundary: string) =>
  new HttpProblem(
    400,
    `The multipart body ended without its closing boundary (--${boundary}--), so its last part may be cut short: nothing was stored. Send the whole body (a proxy or client may have truncated it).`,
  );

const idle = (ms: number) =>
  new HttpProblem(
    408,
    `The request body stopped arriving for ${Math.round(ms / 1000)} s before it was complete: nothing was stored. Send it again.`,
    { title: "Request Timeout", headers: { connection: "close" } },
  );

/**
 * Watches a multipart body as it arrives, beside the parser: when it ends without the
 * closing delimiter `--boundary--` (the parser would wait for a part that never ends) or
 * stops arriving for `idleMs`, `onFault` hears why, once, at once. `stop` ends the watch.
 */
export function watchMultipartBody(options: {
  raw: IncomingMessage;
  boundary: string;
  idleMs?: number | undefined;
  onFault: (problem: HttpProblem) => void;
}): { stop: () => void } {
  const { raw, boundary, onFault } = options;
  const idleMs = options.idleMs ?? BODY_IDLE_MS;
  const closing = Buffer.from(`--${boundary}--`);
  // The last bytes of the previous chunk: a delimiter may be split across two.
  let carry = Buffer.alloc(0);
  let closed = false;
  let done = false;
  const fault = (problem: HttpProblem) => {
    if (done) return;
    stop();
    onFault(problem);
  };
  let timer = setTimeout(() => fault(idle(idleMs)), idleMs);
  const onData = (chunk: Buffer) => {
    clearTimeout(timer);
    timer = setTimeout(() => fault(idle(idleMs)), idleMs);
    if (closed) return;
    const seen = Buffer.concat([carry, chunk]);
    if (seen.includes(closing)) closed = true;
    carry = seen.subarray(Math.max(0, seen.length - closing.length + 1));
  };
  const onEnd = () => {
    if (!closed) fault(endedEarly(boundary));
    else stop();
  };
  raw.on("data", onData);
  raw.on("end", onEnd);
  function stop() {
    done = true;
    clearTimeout(timer);
    raw.off("data", onData);
    raw.off("end", onEnd);
  }
  return { stop };
}
