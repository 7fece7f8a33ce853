import { afterAll, beforeAll, expect, it } from "vitest";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import * as dfd from "danfojs-node";
import { Session } from "../../src/index.js";
import { setNotebookKernel } from "../../src/display/notebook/kernel-display.js";
import { AbortError } from "../../src/client/errors.js";

const outputs: string[] = [];
const display = { html: (s: string) => outputs.push(s), text: (s: string) => outputs.push(s) };
let dir = "";
// Undefined when beforeAll failed: afterAll still runs then.
let session: Session | undefined;
function opened(): Session {
  if (!session) throw new Error("beforeAll did not open the session");
  return session;
}
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdps-wire-"));
  session = await Session.local({ dataDir: dir });
});
afterAll(async () => {
  setNotebookKernel(undefined);
  await session?.close();
  await rm(dir, { recursive: true, force: true });
});

it("job.wait() shows the live status in a notebook, nothing outside", async () => {
  const df = new dfd.DataFrame({ a: [1, 2, 3, 4], b: [2, 4, 6, 9] });
  setNotebookKernel(null);
  const quiet = await opened().preprocess(df, { type: "StandardScaler" });
  await quiet.wait();
  expect(outputs).toHaveLength(0);
  setNotebookKernel({ newDisplay: () => display, display });
  const job = await opened().preprocess(df, { type: "StandardScaler" });
  await job.wait();
  expect(outputs.at(-1)).toContain("succeeded");
  expect(outputs.at(-1)).toContain("StandardScaler · job");
  const n = outputs.length;
  await job.wait({ progress: false });
  expect(outputs).toHaveLength(n);
  // Under the card, the one-line summary (Job(3f2a…, succeeded)), not the card's fields again.
  expect(inspect(job)).toBe(job.toString());
  expect(job.toString()).toMatch(/^Job\(.*succeeded\)$/);
  expect(outputs.at(-1)).toContain("mdps Job");
  expect(inspect(opened())).toBe(opened().toString());
  expect(outputs.at(-1)).toContain("mdps Session");
  const chart = await job.compare();
  expect(chart.svg).toContain("<svg");
  // An uploaded blob, so that the service (not the pre-flight check) refuses it.
  const negative = await opened().upload(new dfd.DataFrame({ x: [-1, 2] }));
  const failing = await opened().preprocess(negative, {
    type: "PowerTransformer",
    params: { method: "box-cox" },
  });
  await expect(failing.wait()).rejects.toThrow();
  expect(outputs.at(-1)).toContain("failed");
});

it("a kernel interrupt (SIGINT in tslab) stops job.wait(), shows it, and leaves no listener behind", async () => {
  setNotebookKernel({ newDisplay: () => display, display });
  const listeners = process.listenerCount("SIGINT");
  const n = 50_000;
  const df = new dfd.DataFrame({
    a: Array.from({ length: n }, (_, i) => Math.sin(i) * 10 + i / n),
    b: Array.from({ length: n }, (_, i) => (i % 97) / 7),
  });
  const job = await opened().preprocess(df, { type: "PowerTransformer" });
  const waiting = job.wait().catch((e: unknown) => e);
  // The wait listens from the next turn of the event loop (see kernel-interrupt.ts).
  await new Promise((r) => setImmediate(r));
  expect(process.listenerCount("SIGINT")).toBe(listeners + 1);
  process.emit("SIGINT");
  const err = await waiting;
  expect(err).toBeInstanceOf(AbortError);
  expect((err as Error).message).toContain("the kernel was interrupted");
  expect((err as Error).message).toContain(
    "The job goes on: `await job.wait()` follows it again, `await job.cancel()` stops it.",
  );
  expect(outputs.at(-1)).toContain("stopped waiting");
  expect(process.listenerCount("SIGINT")).toBe(listeners);
  // The job went on: waiting again follows it to the end.
  expect((await job.wait()).status).toBe("succeeded");
  expect(process.listenerCount("SIGINT")).toBe(listeners);

  // Many waits at once share one listener (no MaxListenersExceededWarning), and one
  // interrupt stops them all.
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  process.on("warning", onWarning);
  const many = await Promise.all(
    Array.from({ length: 12 }, () => opened().preprocess(df, { type: "PowerTransformer" })),
  );
  const all = many.map((j) => j.wait({ progress: false }).catch((e: unknown) => e));
  await new Promise((r) => setImmediate(r));
  expect(process.listenerCount("SIGINT")).toBe(listeners + 1);
  process.emit("SIGINT");
  for (const e of await Promise.all(all)) expect((e as Error).message).toContain("the kernel was interrupted");
  expect(process.listenerCount("SIGINT")).toBe(listeners);
  await new Promise((r) => setTimeout(r, 50));
  process.off("warning", onWarning);
  expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
  await Promise.all(many.map((j) => j.wait({ progress: false })));

  // Outside a notebook a wait never listens for SIGINT (Ctrl+C must still end a script).
  setNotebookKernel(null);
  const plain = await opened().preprocess(new dfd.DataFrame({ a: [1, 2, 3] }), { type: "MaxAbsScaler" });
  const pending = plain.wait();
  expect(process.listenerCount("SIGINT")).toBe(listeners);
  await pending;
}, 60_000);

/** Resolves once `ready()` holds, checking on every turn of the event loop (at most 2 s). */
/** Every file under the data dir's tmp/ (each service process has its own folder there). */
async function tempFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(join(dataDir, "tmp"), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

async function turnsUntil(ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error("condition not met within 2 s");
    await new Promise((r) => setImmediate(r));
  }
}

it("a kernel interrupt stops an upload and a download, says what became of the data, and the service keeps serving", async () => {
  setNotebookKernel({ newDisplay: () => display, display });
  const listeners = process.listenerCount("SIGINT");
  const blobFiles = async () => (await readdir(join(dir, "blobs"))).sort();
  const before = await blobFiles();
  // 64 MiB: still on its way when the interrupt comes.
  const big = new Uint8Array(64 << 20).fill(0x31);

  const uploading = opened()
    .upload(big, { recordType: "csv", name: "big.csv" })
    .catch((e: unknown) => e);
  await turnsUntil(() => process.listenerCount("SIGINT") === listeners + 1);
  process.emit("SIGINT");
  const uploadError = await uploading;
  expect(uploadError).toBeInstanceOf(AbortError);
  expect((uploadError as Error).message).toBe(
    'Stopped uploading "big.csv": the kernel was interrupted. The service keeps nothing of an upload it did not receive whole: upload again.',
  );
  expect(process.listenerCount("SIGINT")).toBe(listeners);
  // The partial upload's temp file goes; no blob file was added.
  await expect.poll(async () => tempFiles(dir), { timeout: 5000 }).toEqual([]);
  expect(await blobFiles()).toEqual(before);

  const blob = await opened().upload(big, { recordType: "csv", name: "big.csv" });
  const downloading = blob.bytes().catch((e: unknown) => e);
  await turnsUntil(() => process.listenerCount("SIGINT") === listeners + 1);
  process.emit("SIGINT");
  const downloadError = await downloading;
  expect(downloadError).toBeInstanceOf(AbortError);
  expect((downloadError as Error).message).toBe(
    `Stopped downloading blob ${blob.id}: the kernel was interrupted. Nothing changed on the service: call it again to download.`,
  );
  expect(process.listenerCount("SIGINT")).toBe(listeners);
  // Again, uninterrupted: the whole content.
  expect((await blob.bytes()).length).toBe(big.length);
  expect(process.listenerCount("SIGINT")).toBe(listeners);
}, 60_000);
