/**
 * /cancel against the reference service (Session.local() on a temp data dir): a running
 * job, twice, a finished one, completion of job refs; and against a service without
 * cancel (the foreign service), which gets one sentence and nothing else breaks.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelCommand } from "../../../repl/commands/cancel.js";
import { COMMANDS } from "../../../repl/commands/registry.js";
import { jobsCommand } from "../../../repl/commands/jobs.js";
import { preprocessCommand } from "../../../repl/commands/preprocess.js";
import type { Output } from "../../../repl/commands/types.js";
import { WaitStoppedError } from "../../../repl/errors.js";
import { Workspace } from "../../../repl/workspace/workspace.js";
import { Session } from "../../../src/index.js";
import { startForeignService, type ForeignService } from "../../foreign-service/index.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
  // Slow enough to be running when cancelled: PowerTransformer on a million rows.
  await t.workspace.evaluate(
    "const big = new dfd.DataFrame({ a: Array.from({ length: 1000000 }, (_, i) => Math.sin(i) * 10 + i / 1e6), b: Array.from({ length: 1000000 }, (_, i) => (i % 97) / 7) })",
    new AbortController().signal,
    120,
  );
}, 120_000);
afterAll(() => t.close());

const text = (out: Output): string => texts(out).join("\n");

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("/cancel", () => {
  it("is registered, and completes job refs", () => {
    expect(COMMANDS).toContain(cancelCommand);
    const ctx = t.workspace.completion(() => []);
    expect(cancelCommand.complete?.({ ...ctx, jobRefs: () => ["j1", "j2"] }, [], "j")).toEqual(["j1", "j2"]);
    expect(cancelCommand.complete?.({ ...ctx, jobRefs: () => ["j1"] }, ["j1"], "")).toEqual([]);
  });

  it("asks which job, and names the known ones when the ref is unknown", async () => {
    const ctx = commandContext(t.workspace);
    await expect(run(cancelCommand, ctx)).rejects.toThrow("Which job?");
    await expect(run(cancelCommand, ctx, "j9")).rejects.toThrow('No job "j9" in this session.');
  });

  it("cancels a running job; twice is fine; /jobs shows it cancelled", async () => {
    const ctx = commandContext(t.workspace);
    const sent = await run(preprocessCommand, ctx, "big", "PowerTransformer");
    expect(text(sent)).toMatch(/^j1: PowerTransformer on big sent/);
    const { handle } = t.workspace.findJob("j1");
    await until(
      () => handle.record?.status === "running" || t.workspace.jobs.find("j1")?.status === "running",
      "j1 running",
    );

    const out = await run(cancelCommand, ctx, "j1");
    expect(out).toEqual({
      type: "message",
      tone: "success",
      text: "Cancelled j1 (PowerTransformer on big); it keeps no output.",
    });
    expect(t.workspace.jobs.find("j1")).toMatchObject({ status: "cancelled" });
    expect(await run(cancelCommand, ctx, "j1")).toMatchObject({
      text: "j1 (PowerTransformer on big) was already cancelled.",
    });
    const jobs = await run(jobsCommand, ctx);
    if (jobs.type !== "table") throw new Error(jobs.type);
    expect(jobs.rows[0]?.slice(0, 3)).toEqual(["j1", "PowerTransformer on big", "cancelled"]);
  }, 60_000);

  it("says a finished job already ended, with its status, and keeps its result", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    await run(preprocessCommand, ctx, "customers", "StandardScaler", "--wait");
    const error = await run(cancelCommand, ctx, "j2").catch((e: unknown) => e);
    expect(error).toMatchObject({
      message: "j2 already ended as succeeded; there is nothing to cancel.",
      hint: "/fetch j2 brings its result back.",
    });
    expect(t.workspace.jobs.find("j2")).toMatchObject({ status: "succeeded" });
  }, 60_000);
});

describe("Ctrl+C during a wait", () => {
  it("says the job goes on and how to cancel it; piped mode (no second Ctrl+C) offers /cancel only", () => {
    expect(new WaitStoppedError("j7")).toMatchObject({
      message: "Stopped waiting for j7; the job goes on.",
      hint: "/cancel j7 cancels it (so does Ctrl+C again within 2 s); /jobs shows how it is doing.",
    });
    expect(new WaitStoppedError("j7", { what: "following j7's log", secondCtrlC: false })).toMatchObject({
      message: "Stopped following j7's log; the job goes on.",
      hint: "/cancel j7 cancels it; /jobs shows how it is doing.",
    });
  });
});

describe("/cancel against a service without cancel", () => {
  let foreign: ForeignService;
  let ws: Workspace;
  beforeAll(async () => {
    foreign = await startForeignService();
    const session = await Session.connect({
      baseUrl: foreign.url,
      authUrl: foreign.url,
      clientId: foreign.clientId,
      clientSecret: foreign.clientSecret,
      modelId: foreign.modelId,
      env: {},
      configFile: false,
      verify: false,
    });
    ws = new Workspace(session);
  });
  afterAll(async () => {
    await ws.close();
    await foreign.close();
  });

  it("says so in one sentence; the job stays tracked and the REPL goes on", async () => {
    const id = randomUUID();
    ws.jobs.track(ws.session.job(id), "StandardScaler on data");
    const ctx = commandContext(ws);
    const error = await run(cancelCommand, ctx, "j1").catch((e: unknown) => e);
    expect(error).toMatchObject({
      message: `This service (${foreign.url}) does not offer cancel (it does not declare it in health's capabilities), so job ${id} goes on running.`,
      hint: undefined,
    });
    expect(ws.jobs.find("j1")?.status).not.toBe("cancelled");
    expect((await run(jobsCommand, ctx)).type).toBe("table");
  });
});
