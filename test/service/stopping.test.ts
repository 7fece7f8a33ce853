/**
 * A service process that is stopping (SIGTERM, a rolling restart) while an upload is
 * still arriving: a request that comes meanwhile on an open keep-alive connection is
 * answered 503 problem+json with Retry-After and code `service_stopping`, not Fastify's
 * bare 503, so a client or proxy knows to send it again elsewhere.
 */
import { connect, type Socket } from "node:net";
import { afterAll, expect, it } from "vitest";
import { ServiceStarter } from "../harness/service-starter.js";
import { tokenFor } from "./service-harness.js";

const starter = new ServiceStarter("mdps-stopping-");
afterAll(() => starter.cleanup());

/** Reads from `socket` until `text` has arrived; everything read. */
function readUntil(socket: Socket, text: RegExp, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = "";
    const timer = setTimeout(() => reject(new Error(`no ${String(text)} in ${timeoutMs} ms: ${got}`)), timeoutMs);
    const onData = (d: Buffer) => {
      got += d.toString("utf8");
      if (text.test(got)) {
        clearTimeout(timer);
        socket.off("data", onData);
        resolve(got);
      }
    };
    socket.on("data", onData);
  });
}

it("a request pipelined behind an upload that was under way when the process began to stop: the upload is stored, the request answered 503 problem+json with Retry-After", async () => {
  const service = await starter.start({ rateLimit: false });
  const app = starter.app(service.dataDir);
  const token = await tokenFor(service, app);
  const { port } = new URL(service.url);
  const socket = connect(Number(port), "127.0.0.1");
  const part = (name: string, value: string, file = false) =>
    `--b\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="d.csv"' : ""}\r\n\r\n${value}\r\n`;
  const body =
    part("Name", "d.csv") +
    part("RecordType", "csv") +
    part("AccessTier", "hot") +
    part("File", "a\n1\n", true) +
    "--b--\r\n";
  socket.write(
    `POST /api/model/${app.modelId}/shared/blob/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
  );
  await new Promise((r) => setTimeout(r, 200));
  // The stop waits for the upload under way (its grace period); meanwhile the rest arrives,
  // and behind it, on the same connection, one more request.
  const stopped = service.close();
  await new Promise((r) => setTimeout(r, 200));
  socket.write(body.slice(20));
  socket.write(`GET /api/shared/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  const replies = (await readUntil(socket, /HTTP\/1\.1 [\s\S]*HTTP\/1\.1 [\s\S]*\r\n\r\n\{[^]*\}$/)).split(
    /(?=HTTP\/1\.1 )/,
  );
  expect(replies[0]).toMatch(/^HTTP\/1\.1 200/);
  const [head = "", problemBody = ""] = replies[1]!.split("\r\n\r\n");
  expect(head).toMatch(/^HTTP\/1\.1 503/);
  expect(head).toMatch(/\r\nretry-after: 1\r\n/i);
  expect(head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
  const problem = JSON.parse(problemBody) as { status: number; code: string; detail: string };
  expect(problem).toMatchObject({ status: 503, code: "service_stopping" });
  expect(problem.detail).toContain("nothing was stored");
  socket.destroy();
  await stopped;
}, 30_000);
