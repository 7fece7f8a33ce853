/**
 * job.wait() against the real service, which declares `wait` in health: the client reads
 * changes with job get's `wait`/`since` instead of polling (src/session/job-polling.ts).
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
    // queued -> running -> succeeded is at most one read per change, and no flat-out polling.
    expect(gets.length).toBeLessThanOrEqual(3);
    for (const get of gets) expect(get).toMatch(/[?&]wait=\d+(\.\d+)?(&|$)/);
    expect(gets[0]).toContain(`since=${String(sent)}`);
    expect(updates.at(-1)).toBe("succeeded");
    expect(updates[0]).toBe("queued"); // replayed from the events
  });
});
