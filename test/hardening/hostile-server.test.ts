/**
 * The client against a hostile server: malformed or huge JSON, wrong content types,
 * bodies that never end, resets and slow trickles, at the token endpoint and at health.
 * Session.connect must settle within its timeouts (plus retries), with a typed error
 * (MdpsError) or a session, and never crash the process (vitest fails a run on an
 * unhandled rejection or exception).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MdpsError } from "../../src/client/errors.js";
import { Session } from "../../src/session/session.js";

type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

const TOKEN = JSON.stringify({ access_token: "t0ken", token_type: "Bearer", expires_in: 3600, scope: "" });
const good: Behaviour = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(TOKEN);
};

const behaviours: Record<string, Behaviour> = {
  "malformed JSON": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"status": "Healthy", ');
  },
  "huge JSON (32 MB)": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(`{"status":"Healthy","region":"local","padding":"${"x".repeat(32 << 20)}"}`);
  },
  "deeply nested JSON": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
  },
  "HTML with 200": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>proxy login</body></html>");
  },
  "JSON as text/plain": (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end('{"status":"Healthy"}');
  },
  "500 with HTML": (_req, res) => {
    res.writeHead(500, { "content-type": "text/html" });
    res.end("<h1>oops</h1>");
  },
  "a body that never ends": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"status":');
  },
  "headers that never come": () => {
    // never answers
  },
  reset: (req) => {
    req.socket.destroy();
  },
  "reset after the headers": (req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    res.write('{"sta');
    setTimeout(() => req.socket.destroy(), 20);
  },
  "a slow trickle": (req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const body = '{"status":"Healthy","region":"local"}';
    let i = 0;
    const timer = setInterval(() => {
      if (i >= body.length || res.destroyed) {
        clearInterval(timer);
        res.end();
        return;
      }
      res.write(body[i++]);
    }, 400);
    req.socket.on("close", () => clearInterval(timer));
  },
  "a wrong Content-Length": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "5000" });
    res.end('{"status":"Healthy"}');
  },
};

let server: Server;
let url: string;
let current: { token: Behaviour; health: Behaviour } = { token: good, health: good };

beforeAll(async () => {
  server = createServer((req, res) => {
    const behaviour = req.url?.startsWith("/api/authorization") ? current.token : current.health;
    req.resume();
    try {
      behaviour(req, res);
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const TIMEOUT_MS = 1500;
const RETRIES = 1;
// Each attempt's limit, the retries and their backoff, and room for a loaded machine.
const BOUND_MS = TIMEOUT_MS * (RETRIES + 1) * 2 + 8000;

async function connect(): Promise<{ outcome: unknown; elapsedMs: number }> {
  const started = Date.now();
  let outcome: unknown;
  try {
    const session = await Session.connect({
      baseUrl: url,
      authUrl: url,
      clientId: "hostile-client",
      clientSecret: "hostile-secret-value",
      modelId: "00000000-0000-4000-8000-000000000000",
      timeoutMs: TIMEOUT_MS,
      retry: { maxRetries: RETRIES },
    });
    outcome = session;
    await session.close();
  } catch (error) {
    outcome = error;
  }
  return { outcome, elapsedMs: Date.now() - started };
}

for (const where of ["token", "health"] as const) {
  describe(`a hostile ${where} endpoint`, () => {
    for (const [name, behaviour] of Object.entries(behaviours)) {
      it(
        `${name}: settles within the timeouts, with a typed error or a session`,
        async () => {
          current = where === "token" ? { token: behaviour, health: good } : { token: good, health: behaviour };
          const { outcome, elapsedMs } = await connect();
          expect(elapsedMs).toBeLessThan(BOUND_MS);
          if (outcome instanceof Error) {
            expect(outcome, `${outcome.name}: ${outcome.message}`).toBeInstanceOf(MdpsError);
            expect(outcome.message).not.toContain("hostile-secret-value");
          }
        },
        BOUND_MS + 5000,
      );
    }
  });
}
