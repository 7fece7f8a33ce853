import { describe, expect, it } from "vitest";
import { AbortError, TimeoutError, type JobRecord } from "../../src/index.js";
import { newStart, pollDelayMs, pollUntilTerminal } from "../../src/session/job-polling.js";

function record(status: string, progress: number, phase: string | null): JobRecord {
  return {
    id: "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f50",
    model_id: "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f51",
    job_type: "preprocessing",
    status,
    progress,
    phase,
    created_at: "",
    started_at: null,
    finished_at: null,
    attempts: 1,
    error: null,
    request: {},
    events: [],
  };
}

describe("pollUntilTerminal", () => {
  it("reports each change once and returns the terminal record", async () => {
    const script = [
      record("queued", 0, "queued"),
      record("queued", 0, "queued"),
      record("running", 0.2, "fitting"),
      record("running", 0.2, "fitting"),
      record("running", 0.8, "transforming"),
      record("succeeded", 1, "done"),
    ];
    let i = 0;
    const seen: string[] = [];
    const final = await pollUntilTerminal("j", () => Promise.resolve(script[Math.min(i++, script.length - 1)]!), {
      onUpdate: (r) => seen.push(`${r.status}:${r.phase}:${r.progress}`),
      pollIntervalMs: 30,
    });
    expect(final.status).toBe("succeeded");
    expect(seen).toEqual(["queued:queued:0", "running:fitting:0.2", "running:transforming:0.8", "succeeded:done:1"]);
    expect(i).toBe(6);
  });

  it("replays changes that happened between two polls from the event history", async () => {
    const ev = (status: string, phase: string, progress: number, t: number) => ({
      timestamp: `t${t}`,
      status,
      phase,
      progress,
      message: null,
    });
    const first = { ...record("queued", 0, "queued"), events: [ev("queued", "queued", 0, 1)] };
    const done = {
      ...record("succeeded", 1, "done"),
      events: [
        ev("queued", "queued", 0, 1),
        ev("running", "reading", 0, 2),
        ev("running", "fitting", 0.3, 3),
        ev("succeeded", "done", 1, 4),
      ],
    };
    let i = 0;
    const seen: string[] = [];
    await pollUntilTerminal("j", () => Promise.resolve(i++ === 0 ? first : done), {
      onUpdate: (r) => seen.push(`${r.status}:${r.phase}`),
    });
    expect(seen).toEqual(["queued:queued", "running:reading", "running:fitting", "succeeded:done"]);
  });

  it("times out with a TimeoutError that says the job goes on", async () => {
    const started = Date.now();
    const err = await pollUntilTerminal("j1", () => Promise.resolve(record("running", 0.5, "fitting")), {
      timeoutMs: 200,
      pollIntervalMs: 50,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/j1 .*goes on/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("stops on abort during the pause between polls", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await pollUntilTerminal("j", () => Promise.resolve(record("running", 0, null)), {
      signal: controller.signal,
      pollIntervalMs: 10_000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
  });

  it("polls with a growing interval, capped", () => {
    expect(pollDelayMs(0, 1000)).toBe(25);
    expect(pollDelayMs(1, 1000)).toBe(37.5);
    expect(pollDelayMs(50, 1000)).toBe(1000);
  });
});

describe("newStart (log follow)", () => {
  it("finds the first unseen message when the window grows or slides", () => {
    expect(newStart([], ["a", "b"])).toBe(0);
    expect(newStart(["a", "b"], ["a", "b", "c"])).toBe(2);
    expect(newStart(["a", "b", "c"], ["b", "c", "d"])).toBe(2);
    expect(newStart(["a", "b", "c"], ["a", "b", "c"])).toBe(3);
    expect(newStart(["a", "b"], ["x", "y"])).toBe(0);
  });
});
