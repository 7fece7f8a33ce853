import { describe, expect, it } from "vitest";
import { AbortError, TimeoutError, type JobRecord } from "../../src/index.js";
import { newStart, pollDelayMs, pollUntilTerminal, type ChangeWait } from "../../src/session/job/polling.js";

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
    // The job never ends: without the timeout this would not return at all.
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
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

  it("with changeWait, each read waits for a revision after the last one seen, with no pause between reads", async () => {
    const script = [
      { ...record("running", 0, "reading"), revision: 3 },
      { ...record("running", 0.5, "fitting"), revision: 5 },
      { ...record("succeeded", 1, "done"), revision: 6 },
    ];
    const asked: (ChangeWait | undefined)[] = [];
    const started = performance.now();
    const final = await pollUntilTerminal(
      "j",
      (_signal, change) => {
        asked.push(change);
        return Promise.resolve(script[asked.length - 1]!);
      },
      { changeWait: true, since: 1, pollIntervalMs: 10_000, timeoutMs: 60_000 },
    );
    expect(final.status).toBe("succeeded");
    expect(asked.map((a) => a?.since)).toEqual([1, 3, 5]);
    for (const a of asked) expect(a!.waitMs).toBeGreaterThan(15_000);
    // A pause between the waits would have been the 10 s poll interval each.
    expect(performance.now() - started).toBeLessThan(9_000);
  });

  it("without a known revision, reads once plainly and then waits for changes after it", async () => {
    const asked: (ChangeWait | undefined)[] = [];
    await pollUntilTerminal(
      "j",
      (_signal, change) => {
        asked.push(change);
        return Promise.resolve(
          asked.length === 1
            ? { ...record("queued", 0, null), revision: 1 }
            : { ...record("succeeded", 1, null), revision: 4 },
        );
      },
      { changeWait: true },
    );
    expect(asked).toEqual([undefined, { since: 1, waitMs: 20_000 }]);
  });

  it("falls back to backoff polling when the service answers a wait at once with the same revision (it ignores wait)", async () => {
    const asked: (ChangeWait | undefined)[] = [];
    const err = await pollUntilTerminal(
      "j",
      (_signal, change) => {
        asked.push(change);
        return Promise.resolve({ ...record("running", 0.5, null), revision: 7 });
      },
      { changeWait: true, since: 7, timeoutMs: 400, pollIntervalMs: 1000 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    // Flat out would be thousands of reads in 400 ms; 25 ms x 1.5^n allows at most 8.
    expect(asked.length).toBeLessThanOrEqual(8);
    expect(asked[0]).toEqual({ since: 7, waitMs: expect.any(Number) as number });
    expect(asked.slice(1).every((a) => a === undefined)).toBe(true);
  });

  it("falls back to polling when the records carry no revision", async () => {
    const asked: (ChangeWait | undefined)[] = [];
    const err = await pollUntilTerminal(
      "j",
      (_signal, change) => {
        asked.push(change);
        return Promise.resolve(record("running", 0.5, null));
      },
      { changeWait: true, timeoutMs: 300 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(asked.every((a) => a === undefined)).toBe(true);
    expect(asked.length).toBeLessThanOrEqual(7);
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
