/**
 * Upload bodies that end early or stop arriving: a multipart body with a correct
 * Content-Length but no closing boundary (a truncating proxy, a buggy client) is
 * answered 400 at once, one that stops arriving 408 after the body-idle timeout; either
 * way its temp file is gone. A whole body whose closing boundary arrives split across
 * two writes is stored as ever.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { ServiceStarter, type StartedService } from "../harness/service-starter.js";
import { tokenFor } from "../service/service-harness.js";
import { multipartBody, rawRequest, tmpFiles, until } from "./serve-harness.js";

const IDLE_MS = 1500;
const FIELDS: [string, string][] = [
  ["Name", "d.csv"],
  ["RecordType", "csv"],
  ["AccessTier", "hot"],
];

const starter = new ServiceStarter("mdps-truncated-");
let service: StartedService;
let head: (length: number) => string;
let port: number;

beforeAll(async () => {
  service = await starter.start({ bodyIdleMs: IDLE_MS, rateLimit: false });
  const app = starter.app(service.dataDir);
  const token = await tokenFor(service, app);
  port = Number(new URL(service.url).port);
  head = (length) =>
    `POST /api/model/${app.modelId}/shared/blob/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: multipart/form-data; boundary=fb\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
});
afterAll(() => starter.cleanup());

/** The body without its closing delimiter: every part complete, `--fb--` never sent. */
function withoutClosing(body: Buffer): Buffer {
  const text = body.toString("latin1");
  return Buffer.from(text.slice(0, text.lastIndexOf("--fb--")), "latin1");
}

it("a four-part body (File first) without its closing boundary: 400 at once, no temp file", async () => {
  const body = withoutClosing(multipartBody("fb", FIELDS, "a,b\n1,2\n", { fileFirst: true }));
  const reply = await rawRequest(port, head(body.length), body, { timeoutMs: 5000 });
  expect(reply.timedOut).toBe(false);
  expect(reply.status).toBe(400);
  expect(reply.elapsedMs).toBeLessThan(3000);
  expect(reply.body).toContain("closing boundary (--fb--)");
  expect(await until(() => tmpFiles(service.dataDir).length === 0)).toBe(true);
});

it("a body cut inside the File part: 400 at once, no temp file", async () => {
  const body = multipartBody("fb", FIELDS, "a,b\n1,2\n3,4\n", { cutInsideFile: true });
  const reply = await rawRequest(port, head(body.length), body, { timeoutMs: 5000 });
  expect(reply.status).toBe(400);
  expect(reply.elapsedMs).toBeLessThan(3000);
  expect(await until(() => tmpFiles(service.dataDir).length === 0)).toBe(true);
});

it("a whole body whose closing boundary arrives split across two writes is stored", async () => {
  const body = multipartBody("fb", FIELDS, "a,b\n1,2\n");
  const cut = body.length - 5; // inside `--fb--\r\n`
  const reply = await rawRequest(port, head(body.length), body.subarray(0, cut), {
    chunks: [body.subarray(cut)],
    timeoutMs: 5000,
  });
  expect(reply.status, reply.body).toBe(200);
  expect(JSON.parse(reply.body)).toMatchObject({ name: "d.csv", size_bytes: 8 });
});

it("a body that stops arriving: 408 after the body-idle timeout, no temp file", async () => {
  const body = multipartBody("fb", FIELDS, "a,b\n1,2\n".repeat(1000));
  const reply = await rawRequest(port, head(body.length), body.subarray(0, body.length / 2), {
    timeoutMs: IDLE_MS + 5000,
  });
  expect(reply.timedOut).toBe(false);
  expect(reply.status).toBe(408);
  expect(reply.elapsedMs).toBeGreaterThanOrEqual(IDLE_MS - 100);
  expect(reply.body).toContain("stopped arriving");
  expect(await until(() => tmpFiles(service.dataDir).length === 0)).toBe(true);
});
