/**
 * job.wait() against the real service, which declares `wait` in health: the client reads
 * changes with job get's `wait`/`since` instead of polling (src/session/job/polling.ts).
 */
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "../../src/index.js";
import { sampleFrame, tempDir } from "./session-fixture.js";

/** An undici Agent that remembers the method and path of each request. */
function recordingAgent(): { dispatcher: Dispatcher; paths: string[] } {
  const paths: string[] = [];
  const dispatcher = new Agent().compose((dispatch) => (options, handler) => {
    paths.push(`${options.method} ${options.path}`);
    return dispatch(options, handler);
  });
  return { dispatcher, paths };
}

describe("job.wait() on a service that declares wait", () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  let session: Session | undefined;
  const recorded = recordingAgent();
  beforeAll(async () => {
    dir = tempDir();
    session = await Session.local({ dataDir: dir.path, dispatcher: recorded.dispatcher });
  });
  afterAll(async () => {
    await session?.close();
    dir?.remove();
  });

  it("waits for changes after the send's revision, and reads no job record without wait/since", async () => {
    const job = await session!.preprocess(sampleFrame(50), { type: "StandardScaler", columns: ["x1", "x2"] });
    const sent = job.record?.revision;
    expect(sent).toBeTypeOf("number");
    recorded.paths.length = 0;
    const updates: string[] = [];
    await job.wait({ onUpdate: (r) => updates.push(r.status) });
    const gets = recorded.paths.filter((p) => /\/get(\?|$)/.test(p));
    expect(gets.length).toBeGreaterThanOrEqual(1);
    for (const get of gets) expect(get).toMatch(/[?&]wait=\d+(\.\d+)?(&|$)/);
    // Each read waited for a change after the last one seen: the `since` values climb, from
    // the send's revision, so there are at most as many reads as changes (no polling).
    const since = gets.map((get) => Number(/[?&]since=(\d+)/.exec(get)?.[1]));
    expect(since[0]).toBe(sent);
    for (let i = 1; i < since.length; i++) expect(since[i]).toBeGreaterThan(since[i - 1]!);
    const final = job.record?.revision ?? NaN;
    expect(gets.length).toBeLessThanOrEqual(final - sent!);
    expect(updates.at(-1)).toBe("succeeded");
    expect(updates[0]).toBe("queued"); // replayed from the events
  });
});
