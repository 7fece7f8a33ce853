/**
 * The service drops every connection for a while (test/foreign-service `outage`), as in a
 * restart: `job.wait()` rides it out with backoff, shows that it is reconnecting, and when
 * it gives up says that the job goes on and how to wait again.
 */
import { describe, expect, it } from "vitest";
import { ConnectionError, type JobRecord } from "../../src/index.js";
import { inputFrame, useForeignSessions } from "./foreign-helpers.js";

const { open } = useForeignSessions({ jobDelayMs: 200 });
const JOB_GET = /\/job\/[^/]+\/get$/;

describe("job.wait() through an outage", () => {
  it("a 2 s outage: the wait reconnects and ends with the job's success", async () => {
    const { service, session } = await open({ outage: { after: JOB_GET, ms: 2000 } });
    const input = await session.upload(inputFrame(), { name: "in.csv" });
    const job = await session.preprocess(input, { type: "StandardScaler" });
    const phases: string[] = [];
    const tries: number[] = [];
    const record = await job.wait({
      pollIntervalMs: 20,
      progress: "none",
      onUpdate: (r: JobRecord) => phases.push(`${r.status} ${r.phase ?? ""}`),
      onReconnecting: (info) => tries.push(info.delayMs),
    });
    expect(record.status).toBe("succeeded");
    expect(tries.length).toBeGreaterThanOrEqual(2);
    expect(tries.slice(0, 3)).toEqual([250, 500, 1000].slice(0, Math.min(3, tries.length)));
    expect(phases.some((p) => /reconnecting \(.*try 2 in 0\.25 s\)/.test(p))).toBe(true);
    expect(phases.at(-1)).toBe("succeeded ");
    expect(service.requests().filter((r) => JOB_GET.test(r.path)).length).toBeGreaterThan(tries.length);
  }, 30_000);

  it("gives up after reconnectForMs saying the job goes on; a second wait follows it to the end", async () => {
    const { session } = await open({ outage: { after: JOB_GET, ms: 1500 } });
    const input = await session.upload(inputFrame(), { name: "in.csv" });
    const job = await session.preprocess(input, { type: "StandardScaler" });
    const error = await job.wait({ progress: "none", reconnectForMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      /has not answered for \d+ s .*The job goes on at the service: `await job\.wait\(\)` follows it again/,
    );
    expect((error as Error).message).toContain(`session.job("${job.id}")`);
    expect((await job.wait({ progress: "none" })).status).toBe("succeeded");
  }, 30_000);
});
