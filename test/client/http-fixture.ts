/**
 * A tiny real HTTP server on 127.0.0.1 for transport tests: each test scripts the
 * responses; every request is recorded (method, path, headers, body).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export type Handler = (req: Recorded, res: ServerResponse, index: number) => void | Promise<void>;

export interface Fixture {
  readonly url: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

export async function startFixture(handler: Handler): Promise<Fixture> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => void answer(req, res));
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the client gave up mid-body (a test of aborts): nothing to answer
    }
    const recorded: Recorded = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    requests.push(recorded);
    try {
      await handler(recorded, res, requests.length - 1);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const contentType = status >= 400 && !("error" in (body as object)) ? "application/problem+json" : "application/json";
  res.writeHead(status, { "content-type": contentType, ...headers });
  res.end(JSON.stringify(body));
}

export function problem(status: number, title: string, detail: string, extra: Record<string, unknown> = {}) {
  return { type: "about:blank", title, status, detail, instance: "/x", ...extra };
}

/** An upload source yielding `parts`, then failing with `error` if one is given. */
// eslint-disable-next-line @typescript-eslint/require-await -- async on purpose: a file stream is an async source
export async function* asyncSource(parts: readonly string[], error?: Error): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
  if (error) throw error;
}
