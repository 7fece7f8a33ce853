/**
 * Downloads from a hostile service: a body that never ends for an output whose record
 * says 10 bytes stops at 10 with an error and leaves no file; a drip that never trips a
 * per-chunk timeout stops at the download's overall deadline. Both settle with a typed
 * error (MdpsError), never a full disk or a download that runs for ever.
 */
import { existsSync, readdirSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadDeadlineMs } from "../../src/client/bounded-body.js";
import { TimeoutError, UnexpectedResponseError } from "../../src/client/errors.js";
import { Session } from "../../src/session/session.js";
import { tempDir } from "../session/session-fixture.js";

const MODEL = "00000000-0000-4000-8000-000000000000";
const JOB = "11111111-1111-4111-8111-111111111111";
const BLOB = "22222222-2222-4222-8222-222222222222";

type Body = (req: IncomingMessage, res: ServerResponse) => void;

/** 64 KiB chunks for as long as the client reads; counts what was written. */
let sent = 0;
const endless: Body = (req, res) => {
  res.writeHead(200, { "content-type": "text/csv" });
  const chunk = Buffer.alloc(64 * 1024, "a");
  const pump = () => {
    while (!res.destroyed && sent < 512 * 1024 * 1024) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
  };
  req.socket.on("close", () => res.destroy());
  pump();
};
/** Two bytes every 200 ms, for ever: each chunk resets undici's body timeout. */
const drip: Body = (req, res) => {
  res.writeHead(200, { "content-type": "text/csv" });
  const timer = setInterval(() => res.write("a\n"), 200);
  req.socket.on("close", () => clearInterval(timer));
};

let server: Server;
let url: string;
let download: Body = endless;
let recordSize: number | undefined = 10;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const path = req.url ?? "";
    const json = (value: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (path.includes("/exchange")) {
      json({ access_token: "t0ken-hostile", token_type: "Bearer", expires_in: 3600, scope: "" });
      return;
    }
    if (path.includes("/health")) {
      json({ status: "Healthy", region: "local", capabilities: [] });
      return;
    }
    if (path.endsWith("/download")) {
      download(req, res);
      return;
    }
    if (path.includes(`/${JOB}/result`)) {
      const output = { id: BLOB, model_id: MODEL, name: "out.csv", record_type: "csv", size_bytes: recordSize };
      json({ outputs: [output] });
      return;
    }
    if (path.includes(`/${JOB}`)) {
      json({ id: JOB, status: "succeeded", model_id: MODEL, progress: 1 });
      return;
    }
    res.writeHead(404, { "content-type": "application/problem+json" });
    res.end(JSON.stringify({ title: "Not Found", status: 404, detail: path }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function session(): Promise<Session> {
  return Session.connect({
    baseUrl: url,
    authUrl: url,
    clientId: "hostile-client",
    clientSecret: "hostile-secret-value",
    modelId: MODEL,
    configFile: false,
    journal: false,
    env: {},
    retry: { maxRetries: 0 },
  });
}

describe("a hostile blob download", () => {
  it("an endless body for a 10-byte output stops at 10 bytes with an error, and no file is left", async () => {
    download = endless;
    recordSize = 10;
    sent = 0;
    const dir = tempDir("mdps-hostile-dl-");
    const s = await session();
    try {
      const target = join(dir.path, "out.csv");
      const error = await s
        .job(JOB)
        .download(target)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect((error as Error).message).toMatch(/more than 10 bytes/);
      expect(existsSync(target)).toBe(false);
      expect(readdirSync(dir.path)).toEqual([]);
      // Stopped at once: far from the 512 MiB the server would send.
      expect(sent).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await s.close();
      dir.remove();
    }
  }, 60_000);

  it("a drip stops at the download's overall deadline with a TimeoutError", async () => {
    download = drip;
    recordSize = 1_000_000;
    const dir = tempDir("mdps-hostile-dl-");
    const s = await session();
    try {
      const started = Date.now();
      const error = await s
        .job(JOB)
        .download(join(dir.path, "out.csv"), { downloadDeadlineMs: 1500 })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toMatch(/deadline/);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(readdirSync(dir.path)).toEqual([]);
    } finally {
      await s.close();
      dir.remove();
    }
  }, 60_000);

  it("the default deadline scales with the size: two minutes plus a second per 256 KiB; an hour when unknown", () => {
    expect(downloadDeadlineMs(10)).toBe(120_001);
    expect(downloadDeadlineMs(0)).toBe(120_000);
    expect(downloadDeadlineMs(1024 ** 3)).toBe(120_000 + 4096_000);
    expect(downloadDeadlineMs(undefined)).toBe(3_600_000);
    expect(downloadDeadlineMs(Number.NaN)).toBe(3_600_000);
  });
});
