/**
 * A vendor whose two job APIs keep their jobs apart (test/foreign-service `jobFamilies:
 * separate`): a job is read through the family it was sent to, or through the base its
 * send's `Location` named, also after a restart (the journal remembers which).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../session/session-fixture.js";
import { connectTo, runWorkflow, SCALED_A, useForeignSessions } from "./foreign-helpers.js";

const { start, keep } = useForeignSessions({ jobDelayMs: 30, jobFamilies: "separate" });

const reads = (paths: readonly { method: string; path: string }[], jobId: string) =>
  paths.filter((r) => r.method === "GET" && r.path.includes(jobId)).map((r) => r.path.replace(jobId, "{id}"));

describe("separate job families", () => {
  it("a job sent to /api/ml/preprocessing/job/send is read there: wait, result, logs, output", async () => {
    const service = await start();
    const session = keep(await connectTo(service));
    const { job, output, logs } = await runWorkflow(session);
    (output["a"] as { values: number[] }).values.forEach((v, i) => expect(v).toBeCloseTo(SCALED_A[i]!, 12));
    expect(logs.map((m) => m.message).join("\n")).toContain("Job succeeded");
    const paths = reads(service.requests(), job.id);
    expect(paths.length).toBeGreaterThan(2);
    expect(paths.every((p) => p.startsWith("/api/ml/preprocessing/job/{id}/"))).toBe(true);
    expect(job.place.family).toBe("preprocessing");
    // This service offers no cancel; the job has ended, so nothing "goes on running".
    await expect(job.cancel()).rejects.toThrow(
      /does not offer cancel .*; job \S+ already ended as succeeded, so there is nothing to stop\./,
    );
  });

  it("a restarted session reads journaled jobs through their family; a bare id finds its family after a 404", async () => {
    const service = await start();
    const journal = join(tempDir("mdps-families-").path, "journal.jsonl");
    const first = keep(await connectTo(service, { journal }));
    const { job } = await runWorkflow(first);
    await first.close();

    const second = keep(await connectTo(service, { journal }));
    const before = service.requests().length;
    const [again] = await second.jobs();
    expect(again?.record?.status).toBe("succeeded");
    expect(second.job(job.id).place.family).toBe("preprocessing");
    expect(reads(service.requests().slice(before), job.id)).toEqual(["/api/ml/preprocessing/job/{id}/get"]);

    // Without a journal nothing says where it was sent: /api/job answers 404, the other family has it.
    const bare = keep(await connectTo(service, { journal: false }));
    const handle = bare.job(job.id);
    expect((await handle.status()).status).toBe("succeeded");
    expect(handle.place.family).toBe("preprocessing");
    const unknown = bare.job("00000000-0000-4000-8000-000000000000");
    await expect(unknown.status()).rejects.toThrow(/404.*job 00000000-0000-4000-8000-000000000000 not found/);
  });

  it("reads go where the send's 202 Location says, and the journal keeps that base", async () => {
    const service = await start({ sendStatus: 202, locationReadBase: "/api/v2/jobs" });
    const journal = join(tempDir("mdps-location-").path, "journal.jsonl");
    const session = keep(await connectTo(service, { journal }));
    const { job } = await runWorkflow(session);
    expect(job.place.readBase).toBe(`${service.baseUrl}/api/v2/jobs`);
    const paths = reads(service.requests(), job.id);
    expect(paths.length).toBeGreaterThan(2);
    expect(paths.every((p) => p.startsWith("/api/v2/jobs/{id}/"))).toBe(true);

    const restarted = keep(await connectTo(service, { journal }));
    const before = service.requests().length;
    expect((await restarted.job(job.id).status()).status).toBe("succeeded");
    expect(reads(service.requests().slice(before), job.id)).toEqual(["/api/v2/jobs/{id}/get"]);
  });
});
