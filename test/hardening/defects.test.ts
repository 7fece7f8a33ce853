/**
 * Defects found in review, each reproduced on the wire against `mdps serve`: raw
 * bytes on a socket, so nothing a client library does (FormData, keep-alive, framing)
 * hides them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppCredentials } from "../service/service-harness.js";
import {
  fdsUnder,
  multipartBody,
  openFds,
  rawRequest,
  registerApp,
  ServeHarness,
  tmpFiles,
  tokenOf,
  until,
  type RawReply,
  type Served,
} from "./serve-harness.js";

const h = new ServeHarness();
let served: Served;
let app: AppCredentials;
let token: string;

beforeAll(async () => {
  served = await h.serve();
  app = registerApp(served.dataDir);
  token = await tokenOf(served.url, app);
}, 90_000);
afterAll(() => h.cleanup());

const BOUNDARY = "hardening-boundary";
const FORM: [string, string][] = [
  ["Name", "a.csv"],
  ["RecordType", "csv"],
  ["AccessTier", "hot"],
];

function uploadHead(length: number | "chunked", extra = ""): string {
  const framing = length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`;
  return (
    `POST /api/model/${app.modelId}/shared/blob/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    `Authorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
    `${framing}\r\n${extra}\r\n`
  );
}

function expectProblemReply(reply: RawReply, status: number): Record<string, unknown> {
  expect(reply.timedOut, `no answer in ${reply.elapsedMs} ms`).toBe(false);
  expect(reply.status).toBe(status);
  expect(reply.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  expect(body.status).toBe(status);
  expect(typeof body.detail).toBe("string");
  return body;
}

/** Open fds on files of the data dir other than the database's. */
function blobFds(): string[] {
  // The database and the process's own lock file (held open for its whole life) are not leftovers.
  return fdsUnder(served.pid, served.dataDir).filter(
    (p) => !/\.(db|sqlite3?)(-wal|-shm)?$|\/locks\/[^/]+\.lock$/.test(p),
  );
}

async function expectNoLeftovers(): Promise<void> {
  await until(() => tmpFiles(served.dataDir).length === 0 && blobFds().length === 0);
  expect(tmpFiles(served.dataDir)).toEqual([]);
  expect(blobFds()).toEqual([]);
}

describe("1: more than 64 fields before File", () => {
  for (const extra of [61, 62, 70, 76, 100]) {
    it(`${extra} extra fields: a prompt 413 problem, no fd or temp file left`, async () => {
      const fields: [string, string][] = [...FORM];
      for (let i = 0; i < extra; i++) fields.push([`extra${i}`, "v"]);
      // A File big enough that it cannot all sit in socket buffers.
      const body = multipartBody(BOUNDARY, fields, Buffer.alloc(4 << 20, 0x31));
      const before = openFds(served.pid);
      const replies = await Promise.all(
        Array.from({ length: 5 }, () => rawRequest(served.port, uploadHead(body.length), body)),
      );
      for (const reply of replies) expectProblemReply(reply, fields.length > 64 ? 413 : 400);
      await expectNoLeftovers();
      expect(await until(() => openFds(served.pid) <= before)).toBe(true);
    });
  }
});

describe("3: secrets in the URL query never reach the log", () => {
  it("a token or client secret in the query of any endpoint is not logged", async () => {
    const marker = `qs-${Date.now()}`;
    const paths = [
      `/api/shared/health?access_token=${token}&m=${marker}`,
      `/api/model/${app.modelId}/shared/blob/list?access_token=${token}`,
      `/api/job/00000000-0000-4000-8000-000000000000/get?client_secret=${app.clientSecret}`,
      `/no/such/endpoint?client_secret=${app.clientSecret}`,
      `/api/authorization/exchange?grant_type=client_credentials&client_id=${app.clientId}&client_secret=${app.clientSecret}`,
    ];
    for (const path of paths) {
      const method = path.startsWith("/api/authorization") ? "POST" : "GET";
      await fetch(`${served.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    }
    await fetch(`${served.url}/api/authorization/exchange?client_secret=${app.clientSecret}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=client_credentials&client_id=${app.clientId}&client_secret=${app.clientSecret}`,
    });
    expect(await until(() => served.log().includes("/api/shared/health"))).toBe(true);
    const log = served.log();
    expect(log).not.toContain(token);
    expect(log).not.toContain(app.clientSecret);
    expect(log).not.toContain(marker);
  });
});

describe("4: a body that ends inside the File part", () => {
  it("leaves no temp file, whether the connection drops or the chunked body ends", async () => {
    const body = multipartBody(BOUNDARY, FORM, Buffer.alloc(64 << 10, 0x32), { cutInsideFile: true });
    const attempts: Promise<RawReply>[] = [];
    for (let i = 0; i < 60; i++) {
      // Content-Length promises more than comes, then the client goes away.
      attempts.push(rawRequest(served.port, uploadHead(body.length + 1000), body, { timeoutMs: 300 }));
      // A chunked body whose last chunk arrives inside the File part.
      const chunked = Buffer.concat([
        Buffer.from(`${body.length.toString(16)}\r\n`),
        body,
        Buffer.from("\r\n0\r\n\r\n"),
      ]);
      // A complete request: its 400 comes whatever the load (the limit only stops a hang).
      attempts.push(rawRequest(served.port, uploadHead("chunked"), chunked, { timeoutMs: 60_000 }));
    }
    const replies = await Promise.all(attempts);
    for (const reply of replies.filter((_, i) => i % 2 === 1)) expectProblemReply(reply, 400);
    await expectNoLeftovers();
  });
});

describe("5: requests Node or the router reject are problem+json", () => {
  const cases: [string, string, number][] = [
    [
      "bad framing",
      "GET /api/shared/health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
      400,
    ],
    ["a header that is not a header", "GET /api/shared/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400],
    ["headers over 16 KiB", `GET /api/shared/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
    ["a URL over 16 KiB", `GET /api/shared/health?access_token=${"t".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    // find-my-way finds no route for a parameter over its limit: a 404 like any unknown path.
    [
      "a path parameter over the router's limit",
      `GET /api/job/${"j".repeat(600)}/get HTTP/1.1\r\nHost: x\r\n\r\n`,
      404,
    ],
    ["a path that is not percent-encoded properly", "GET /api/job/%E0%A4%A/get HTTP/1.1\r\nHost: x\r\n\r\n", 400],
  ];
  for (const [what, request, status] of cases) {
    it(`${what}: ${status} problem+json`, async () => {
      const body = expectProblemReply(await rawRequest(served.port, request), status);
      expect(JSON.stringify(body)).not.toMatch(/tttttttt|statusCode/);
    });
  }
});

describe("6: a client that half-closes after sending", () => {
  it("gets its answer, and the log has no 'aborted' error", async () => {
    const logFrom = served.log().length;
    const head = `GET /api/shared/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`;
    expect((await rawRequest(served.port, head, "", { halfClose: true })).status).toBe(200);
    const body = multipartBody(BOUNDARY, FORM, "x\n1\n2\n");
    const reply = await rawRequest(served.port, uploadHead(body.length), body, { halfClose: true });
    expect(reply.status).toBeLessThan(300);
    const json = `{"model_id":"${app.modelId}","input_blob_id":"${(JSON.parse(reply.body) as { id: string }).id}","preprocessing_type":"StandardScaler","output":[{"name":"o.csv"}]}`;
    const send = await rawRequest(
      served.port,
      `POST /api/ml/preprocessing/job/send HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n`,
      json,
      { halfClose: true },
    );
    expect(send.status).toBeLessThan(300);
    await new Promise((r) => setTimeout(r, 300));
    expect(served.log().slice(logFrom)).not.toMatch(/unhandled error|"aborted"/);
    await expectNoLeftovers();
  });
});
