/**
 * A small HTTP forward proxy for proxy tests and latency measurements: absolute-form requests
 * (`GET http://host/path`, as HTTP_PROXY clients send for http:// targets) are forwarded, and
 * CONNECT opens a TCP tunnel. It counts both and can add a fixed delay each way.
 *
 * @example
 * const proxy = await startForwardingProxy({ delayMs: 50 });
 * const dispatcher = new ProxyAgent({ uri: proxy.url }); // undici tunnels with CONNECT
 * // ... requests through `dispatcher` ...
 * proxy.requests(); // [{ kind: "connect", target: "127.0.0.1:40123" }, ...]
 * await proxy.close();
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { Transform, type TransformCallback } from "node:stream";

export interface ForwardingProxyOptions {
  /** Added once before forwarding a request and once before relaying its response; for a tunnel, to every chunk each way. */
  readonly delayMs?: number;
  /** Host names the proxy resolves itself (name to address), for targets that are not loopback to the client. */
  readonly hosts?: Readonly<Record<string, string>>;
}

export interface ProxiedRequest {
  readonly kind: "forward" | "connect";
  readonly method: string;
  /** The absolute URL for a forward, `host:port` for a CONNECT. */
  readonly target: string;
}

export interface ForwardingProxy {
  /** `http://127.0.0.1:<port>`, to use as HTTP_PROXY or a ProxyAgent's uri. */
  readonly url: string;
  requests(): readonly ProxiedRequest[];
  close(): Promise<void>;
}

// Hop-by-hop headers (RFC 9110, 7.6.1) are the proxy's own and are not forwarded.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

export async function startForwardingProxy(options: ForwardingProxyOptions = {}): Promise<ForwardingProxy> {
  const delayMs = options.delayMs ?? 0;
  const resolve = (host: string) => options.hosts?.[host] ?? host;
  const seen: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const target = parseAbsoluteUrl(request.url);
    if (target === undefined) {
      response.writeHead(400, { "content-type": "text/plain" }).end("proxy: absolute-form request URL required");
      return;
    }
    seen.push({ kind: "forward", method: request.method ?? "GET", target: target.href });
    void sleep(delayMs).then(() => {
      const upstream = httpRequest(
        target,
        { method: request.method, hostname: resolve(target.hostname), headers: endToEnd(request.headers, target.host) },
        (reply: IncomingMessage) => {
          void sleep(delayMs).then(() => {
            response.writeHead(reply.statusCode ?? 502, endToEnd(reply.headers));
            reply.pipe(response);
          });
        },
      );
      upstream.on("error", (error) => {
        if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
        response.end(`proxy: ${error.message}`);
      });
      request.pipe(upstream);
    });
  });

  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    const target = request.url ?? "";
    seen.push({ kind: "connect", method: "CONNECT", target });
    const [host, port] = splitHostPort(target);
    void sleep(delayMs).then(() => {
      const upstream = connect(port, resolve(host), () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        client.pipe(delayStream(delayMs)).pipe(upstream);
        upstream.pipe(delayStream(delayMs)).pipe(client);
      });
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
      client.on("error", () => upstream.destroy());
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...seen],
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function parseAbsoluteUrl(url: string | undefined): URL | undefined {
  if (url === undefined || !/^http:\/\//i.test(url)) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function endToEnd(headers: IncomingHttpHeaders, host?: string): Record<string, string | string[]> {
  const named = new Set((headers.connection ?? "").split(",").map((name) => name.trim().toLowerCase()));
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    kept[name] = value;
  }
  if (host !== undefined) kept["host"] = host;
  return kept;
}

function splitHostPort(authority: string): [string, number] {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
  return match?.[1] !== undefined && match[2] !== undefined ? [match[1], Number(match[2])] : [authority, 443];
}

/** Delays every chunk by `ms` without serialising them: timers of equal length fire in order. */
function delayStream(ms: number): Transform {
  let pending = 0;
  let flushed: TransformCallback | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (ms <= 0) {
        callback(null, chunk);
        return;
      }
      pending += 1;
      setTimeout(() => {
        this.push(chunk);
        pending -= 1;
        if (pending === 0) flushed?.();
      }, ms);
      callback();
    },
    flush(callback) {
      if (pending === 0) callback();
      else flushed = callback;
    },
  });
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
