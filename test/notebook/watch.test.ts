import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chartLabels } from "./chart-labels.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dfd from "danfojs-node";
import { Session } from "../../src/index.js";
import { LiveStatus } from "../../src/display/notebook/live-status.js";
import { watch } from "../../src/display/notebook/job-progress.js";
import { plotComparison } from "../../src/display/notebook/job-plot.js";
import { toHTML } from "../../src/display/notebook/show.js";
import { readFile } from "node:fs/promises";
import type { NotebookDisplay } from "../../src/display/notebook/kernel-display.js";

class RecordingDisplay implements NotebookDisplay {
  writes: string[] = [];
  html(html: string) {
    this.writes.push(html);
  }
  text(text: string) {
    this.writes.push(text);
  }
  get current() {
    return this.writes.at(-1) ?? "";
  }
}

let dir = "";
let opened: Session | undefined;
/** The session beforeAll opened. */
const session = (): Session => {
  if (!opened) throw new Error("the session did not open (see beforeAll)");
  return opened;
};
const n = 500;
const frame = () =>
  new dfd.DataFrame({
    age: Array.from({ length: n }, (_, i) => 18 + (i % 60)),
    income: Array.from({ length: n }, (_, i) => 20_000 + ((i * 7919) % 1000) * 75.5),
    city: Array.from({ length: n }, (_, i) => ["Oslo", "Lima", "Pune"][i % 3]!),
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdps-watch-"));
  opened = await Session.local({ dataDir: dir });
});

afterAll(async () => {
  await opened?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("watch a job of the real local service", () => {
  it("shows the live status in place and ends on succeeded with the latest logs", async () => {
    const job = await session().preprocess(frame(), { type: "StandardScaler", columns: ["age", "income"] });
    const display = new RecordingDisplay();
    await watch(job, { display, logLines: 3 });
    expect(job.record?.status).toBe("succeeded");
    expect(display.writes.length).toBeGreaterThan(0);
    expect(display.current).toContain("StandardScaler · job " + job.id.slice(0, 8));
    expect(display.current).toContain("succeeded");
    expect(display.current).toContain("100%");
    expect(display.current).toMatch(/ran [\d.]+ (ms|s) after [\d.]+ (ms|s) in the queue/);
    expect(display.current).toContain("<pre"); // log lines from the service
  });

  it("shows a failed job's error, then rethrows it", async () => {
    // Uploaded first, so that the service (not the pre-flight check) refuses it.
    const negative = await session().upload(new dfd.DataFrame({ x: [-1, 2, 3, 4] }));
    const job = await session().preprocess(negative, { type: "PowerTransformer", params: { method: "box-cox" } });
    const display = new RecordingDisplay();
    await expect(watch(job, { display })).rejects.toThrow();
    expect(display.current).toContain("failed");
    expect(display.current).toMatch(/positive/i);
  });

  it("watches several jobs at once to their ends, resolves to nothing, and rethrows the first failure", async () => {
    const types = ["StandardScaler", "MinMaxScaler", "RobustScaler"] as const;
    const jobs = new Map<string, Awaited<ReturnType<Session["preprocess"]>>>();
    for (const type of types) jobs.set(type, await session().preprocess(frame(), { type, columns: ["age", "income"] }));
    const display = new RecordingDisplay();
    // Resolves to nothing (typed void): a cell ending in it prints nothing below the statuses.
    await expect(watch(jobs.values(), { display })).resolves.toBeUndefined();
    expect([...jobs.values()].map((job) => job.record?.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    for (const job of jobs.values()) expect(display.writes.join("\n")).toContain(`job ${job.id.slice(0, 8)}`);

    const negative = await session().upload(new dfd.DataFrame({ x: [-1, 2, 3, 4] }));
    const failing = await session().preprocess(negative, { type: "PowerTransformer", params: { method: "box-cox" } });
    const slower = await session().preprocess(frame(), {
      type: "QuantileTransformer",
      params: { n_quantiles: 100 },
      columns: ["age", "income"],
    });
    await expect(watch([failing, slower], { display: new RecordingDisplay() })).rejects.toThrow(/positive/i);
    // The other job was followed to its end before the failure was rethrown.
    expect(slower.record?.status).toBe("succeeded");
  });

  it("says it stopped waiting when aborted, and the job goes on", async () => {
    const job = await session().preprocess(frame(), { type: "QuantileTransformer", params: { n_quantiles: 100 } });
    const display = new RecordingDisplay();
    const controller = new AbortController();
    controller.abort(new Error("kernel interrupted"));
    await expect(watch(job, { display, signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(display.current).toContain("stopped waiting");
    expect(display.current).toContain("The job goes on");
    await watch(job, { progress: new LiveStatus({ display }) });
    expect(job.record?.status).toBe("succeeded");
    expect(display.current).toContain("succeeded");
  });

  it("plots the job's input against its output", async () => {
    const job = await session().preprocess(frame(), { type: "MinMaxScaler", columns: ["age", "income"] });
    await watch(job, { progress: "none" });
    const chart = await plotComparison(job);
    const titles = chartLabels(chart.svg);
    expect(titles).toEqual(["age", "income", "before", "after", "MinMaxScaler"]);
    await expect(
      plotComparison({
        id: job.id,
        input: session().job(job.id).input,
        result: () => job.result(),
        dataframe: () => job.dataframe(),
      }),
    ).rejects.toThrow("pass the input data");
  });
});

describe("rich output of the Session's own handles", () => {
  it("renders session, blob, job, blob list and result without the secret or keys", async () => {
    const secret = (JSON.parse(await readFile(join(dir, "local-session.json"), "utf8")) as { client_secret: string })
      .client_secret;
    const blob = await session().upload(frame(), { name: "people", tags: ["demo"], encrypt: true });
    const key = blob.encryptionKey!.reveal();
    const job = await session().preprocess(blob, { type: "RobustScaler" });
    await job.wait();
    const pieces = [
      toHTML(session()),
      toHTML(blob),
      toHTML(job),
      toHTML(session().blobs()),
      toHTML(await job.result()),
    ];
    for (const html of pieces) {
      expect(html).toBeTypeOf("string");
      expect(html).not.toContain(secret);
      expect(html).not.toContain(key);
    }
    const [s, b, j, list, result] = pieces as string[];
    expect(s).toContain(session().baseUrl);
    expect(s).toContain(session().modelId.slice(0, 8));
    expect(b).toContain("people");
    expect(b).toContain("🔒");
    expect(j).toContain("RobustScaler");
    expect(j).toContain("succeeded");
    expect(list).toMatch(/\d+ blobs?/);
    expect(result).toContain("center_");
  });
});
