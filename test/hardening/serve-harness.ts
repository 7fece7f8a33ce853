/**
 * The hardening suite runs the compiled `mdps serve` as users do, in child processes
 * it can SIGKILL, and talks to them over raw sockets as well as fetch. Everything
 * started here is stopped and removed by `cleanup()`.
 *
 * MDPS_HARDENING_MAIN=<path to another build's dist/bundle/main.js> runs the same
 * tests against that build (how the defect tests were seen failing before their fixes).
 */
import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { hardeningMain } from "../harness/built.js";
import { ServiceStarter, type ServiceChild } from "../harness/service-starter.js";

export { registerApp } from "../harness/service-starter.js";
export { tokenFor as tokenOf } from "../service/service-harness.js";

export interface Served extends ServiceChild {
  dataDir: string;
  /** Everything the process wrote to stderr (its request log with --log). */
  log(): string;
}

const DEFAULT_ARGS = ["--log", "--api-rate-limit", "0", "--token-rate-limit", "0", "--token-address-rate-limit", "0"];

/** A `ServiceStarter` whose `serve` is `mdps serve` as the hardening tests run it. */
export class ServeHarness extends ServiceStarter {
  constructor() {
    super("mdps-hardening-");
  }

  /** `mdps serve --data-dir <dataDir> --log` with rate limits off, plus `args`. */
  async serve(dataDir?: string, args: string[] = []): Promise<Served> {
    const dir = dataDir ?? (await this.tempDir());
    const served = await this.spawn({ main: hardeningMain(), args: ["--data-dir", dir, ...DEFAULT_ARGS, ...args] });
    return { ...served, dataDir: dir, log: served.stderr };
  }
}

export interface RawReply {
  /** 0 when the server closed without answering. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when nothing (or only part) came back within the time allowed. */
  timedOut: boolean;
  elapsedMs: number;
}

/**
 * Sends `head` and `body` as bytes on a fresh socket and reads the first answer.
 * `halfClose` ends the client's side after sending; the reply is read until the server
 * closes, or until the Content-Length is complete.
 */
export function rawRequest(
  port: number,
  head: string,
  body: Buffer | string = "",
  options: { halfClose?: boolean; timeoutMs?: number; chunks?: (Buffer | string)[] } = {},
): Promise<RawReply> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseReply(received), timedOut, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(true), options.timeoutMs ?? 5000);
    socket.on("data", (d: Buffer) => {
      received = Buffer.concat([received, d]);
      const reply = parseReply(received);
      const length = Number(reply.headers["content-length"] ?? NaN);
      const chunkedEnd = reply.headers["transfer-encoding"] === "chunked" && reply.body.endsWith("0\r\n\r\n");
      const bodiless = head.startsWith("HEAD ") || reply.status === 204 || reply.status === 304;
      if (
        reply.status &&
        (bodiless || (Number.isFinite(length) && Buffer.byteLength(reply.body) >= length) || chunkedEnd)
      )
        finish(false);
    });
    socket.on("error", () => finish(false));
    socket.on("close", () => finish(false));
    socket.write(head);
    for (const chunk of [body, ...(options.chunks ?? [])]) if (chunk.length) socket.write(chunk);
    if (options.halfClose) socket.end();
  });
}

function parseReply(bytes: Buffer): { status: number; headers: Record<string, string>; body: string } {
  const text = bytes.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return { status: 0, headers: {}, body: "" };
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  // Only the first response: a server may answer again on the same socket (an answer
  // given before the body was read, then a 400 for bytes that did not frame).
  const length = Number(headers["content-length"] ?? NaN);
  const rest = Buffer.from(text.slice(end + 4), "latin1");
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers,
    body: (Number.isFinite(length) ? rest.subarray(0, length) : rest).toString("utf8"),
  };
}

/** A multipart body: `fields` as plain parts, then (unless omitted) a File part. */
export function multipartBody(
  boundary: string,
  fields: [string, string][],
  file?: Buffer | string,
  options: { fileFirst?: boolean; cutInsideFile?: boolean } = {},
): Buffer {
  const plain = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const parts: Buffer[] = [];
  const filePart =
    file === undefined
      ? []
      : [
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="File"; filename="data.csv"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          ),
          Buffer.from(file),
          Buffer.from(options.cutInsideFile ? "" : "\r\n"),
        ];
  if (options.fileFirst) parts.push(...filePart, Buffer.from(plain.join("")));
  else parts.push(Buffer.from(plain.join("")), ...filePart);
  if (!options.cutInsideFile) parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/** Open file descriptors of a process (Linux). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Open fds of a process that point at files under `dir`. */
export function fdsUnder(pid: number, dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith(dir)) out.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** Files (not folders) anywhere under `<dataDir>/tmp`. */
export function tmpFiles(dataDir: string): string[] {
  const root = join(dataDir, "tmp");
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk(root);
  return out;
}

export async function until(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
