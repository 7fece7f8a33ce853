/** /blobs --all and /jobs --all: the model's blobs and jobs from the service. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobsCommand } from "../../../repl/commands/blobs.js";
import { jobsCommand } from "../../../repl/commands/jobs.js";
import { commandContext, openTestWorkspace, run, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

describe("/blobs --all and /jobs --all", () => {
  it("list the model's blobs and jobs from the service, newest first", async () => {
    const ctx = commandContext(t.workspace);
    const session = t.workspace.session;
    const csv = new TextEncoder().encode("a,b\n1,2\n3,5\n");
    const older = await session.upload(csv, { name: "older.csv", recordType: "csv", tags: ["lesson"] });
    const newer = await session.upload(csv, { name: "newer.csv", recordType: "csv" });
    const blobs = await run(blobsCommand, ctx, "--all");
    if (blobs.type !== "table") throw new Error(blobs.type);
    const ids = blobs.rows.map((r) => r[6]);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(blobs.rows.find((r) => r[6] === older.id)?.slice(0, 4)).toEqual(["older.csv", "csv", "hot", "lesson"]);

    const job = await session.preprocess(older, { type: "MinMaxScaler" });
    await job.wait();
    const jobs = await run(jobsCommand, ctx, "--all");
    if (jobs.type !== "table") throw new Error(jobs.type);
    expect(jobs.rows.find((r) => r[3] === job.id)?.[1]).toBe("succeeded");
  });
});
