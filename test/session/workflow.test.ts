/**
 * The whole workflow through the Session against the real reference service
 * (in-process on 127.0.0.1, temp data dir): upload, preprocess, wait, logs,
 * result DataFrame, local transformer, blob update/delete.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConflictError,
  JobFailedError,
  NotFoundError,
  PreconditionFailedError,
  Session,
  ValidationError,
  type JobRecord,
} from "../../src/index.js";
import { column, isMissing, sampleFrame, standardize, tempDir, useLocalSession } from "./session-fixture.js";

const local = useLocalSession();
let session: Session;
beforeAll(() => {
  session = local();
});
const files = tempDir();
afterAll(() => files.remove());

describe("Session.local workflow", () => {
  it("round-trips a DataFrame through a blob exactly (arrow on the wire)", async () => {
    const df = sampleFrame(50);
    const blob = await session.upload(df, { name: "sample" });
    expect(blob.recordType).toBe("arrow");
    expect(blob.record.size_bytes).toBeGreaterThan(0);
    const back = await blob.download();
    expect(back.columns).toEqual(df.columns);
    expect(back.dtypes).toEqual(df.dtypes);
    for (const name of df.columns) {
      const a = column(df, name);
      const b = column(back, name);
      a.forEach((v, i) => (isMissing(v) ? expect(isMissing(b[i])).toBe(true) : expect(Object.is(b[i], v)).toBe(true)));
    }
    expect(session.blobs()).toContain(blob);
  });

  it("preprocesses a DataFrame: feature columns scaled, others passed through in order with their dtypes", async () => {
    const df = sampleFrame(200, 2);
    const updates: JobRecord[] = [];
    const job = await session.preprocess(df, { type: "StandardScaler", columns: ["x1", "x2"] });
    expect(job.record?.status).toBe("queued");
    const final = await job.wait({ onUpdate: (r) => updates.push(r) });
    expect(final.status).toBe("succeeded");
    // Every status and phase, in order, even those that passed between two polls.
    const statuses = updates.map((u) => u.status).filter((s, i, all) => s !== all[i - 1]);
    expect(statuses).toEqual(["queued", "running", "succeeded"]);
    expect(updates.map((u) => u.phase)).toEqual(expect.arrayContaining(["reading", "fitting", "writing"]));
    expect(job.fitted?.type).toBe("StandardScaler");
    expect(job.fitted?.feature_names_in_).toEqual(["x1", "x2"]);

    const out = await job.dataframe();
    const [output] = await job.outputs();
    expect(session.blobs().map((b) => b.id)).toEqual(expect.arrayContaining([job.input!.id, output!.id]));
    expect(out.columns).toEqual(["x1", "label", "x2", "flag"]);
    expect(column(out, "label")).toEqual(column(df, "label"));
    expect(column(out, "flag")).toEqual(column(df, "flag"));
    const dtypes = Object.fromEntries(out.columns.map((c: string, i: number) => [c, out.dtypes[i]]));
    const inDtypes = Object.fromEntries(df.columns.map((c: string, i: number) => [c, df.dtypes[i]]));
    expect(dtypes.label).toBe(inDtypes.label);
    expect(dtypes.flag).toBe(inDtypes.flag);
    for (const name of ["x1", "x2"]) {
      const expected = standardize(column(df, name) as number[]);
      const got = column(out, name) as number[];
      expected.forEach((e, i) =>
        e === null ? expect(isMissing(got[i])).toBe(true) : expect(got[i]).toBeCloseTo(e, 9),
      );
    }
  });

  it("job.transformer() applies the fitted state locally, bit-identical to the service", async () => {
    const df = sampleFrame(300, 3);
    const job = await session.preprocess(df, { type: "RobustScaler", params: { quantile_range: [10, 90] } });
    const service = await job.dataframe();
    const transformer = await job.transformer();
    expect(transformer.featureNames).toEqual(["x1", "x2"]);
    const local = transformer.transform(df);
    expect(local.columns).toEqual(service.columns);
    for (const name of ["x1", "x2"]) {
      const a = column(service, name) as number[];
      const b = column(local, name) as number[];
      a.forEach((v, i) => (isMissing(v) ? expect(isMissing(b[i])).toBe(true) : expect(Object.is(v, b[i])).toBe(true)));
    }
    // On new data: what the fitted state says (RobustScaler: (x - center) / scale).
    const fresh = sampleFrame(5, 99);
    const applied = transformer.transform(fresh);
    const fitted = job.fitted as unknown as { center_: number[]; scale_: number[] };
    const x2 = column(fresh, "x2") as number[];
    (column(applied, "x2") as number[]).forEach((v, i) =>
      expect(v).toBe((x2[i]! - fitted.center_[1]!) / fitted.scale_[1]!),
    );
  });

  it("transformer.inverseTransform() maps the service's output back to the input's units", async () => {
    const df = sampleFrame(200, 4);
    const job = await session.preprocess(df, { type: "StandardScaler" });
    const transformer = await job.transformer();
    const back = transformer.inverseTransform(await job.dataframe());
    expect(back.columns).toEqual(df.columns);
    expect(back.dtypes).toEqual(df.dtypes);
    for (const name of df.columns) {
      const want = column(df, name);
      const got = column(back, name);
      if (!["x1", "x2"].includes(name)) {
        expect(got).toEqual(want); // passthrough columns as they were
        continue;
      }
      (want as number[]).forEach((w, i) =>
        isMissing(w)
          ? expect(isMissing(got[i])).toBe(true)
          : expect(Math.abs((got[i] as number) - w)).toBeLessThanOrEqual(1e-9 * Math.abs(w)),
      );
    }
    const binarized = await session.preprocess(df, { type: "Binarizer", columns: ["x2"] });
    const binarizer = await binarized.transformer();
    expect(() => binarizer.inverseTransform(df)).toThrow(/Binarizer has no inverse_transform/);
  });

  it("preprocesses a CSV file path, and reports logs", async () => {
    const path = join(files.path, "input.csv");
    writeFileSync(path, "a,b,name\n1,10,x\n2,20,y\n3,30,z\n4,,w\n");
    const job = await session.preprocess(path, { type: "MinMaxScaler", params: { feature_range: [-1, 1] } });
    expect(job.input?.recordType).toBe("csv");
    const out = await job.dataframe();
    expect(out.columns).toEqual(["a", "b", "name"]);
    const a = column(out, "a") as number[];
    [-1, -1 / 3, 1 / 3, 1].forEach((e, i) => expect(a[i]).toBeCloseTo(e, 12));
    expect(column(out, "name")).toEqual(["x", "y", "z", "w"]);
    expect(isMissing(column(out, "b")[3])).toBe(true);
    const logs = await job.logs();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]!.container?.hostname).toBeTypeOf("string");
    const followed = [];
    for await (const m of job.followLogs()) followed.push(m.message);
    expect(followed).toEqual(logs.map((m) => m.message));
  });

  it("validates params before sending, naming the field the caller wrote", async () => {
    const before = session.blobs().length;
    const err = await session
      // @ts-expect-error -- "l3" is not a norm: a compile-time error too
      .preprocess(sampleFrame(5), { type: "Normalizer", params: { norm: "l3" } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toHaveProperty(["params.norm"]);
    expect((err as Error).message).toContain("params.norm");
    expect((err as ValidationError).requestId).toBeUndefined();
    // Nothing was uploaded.
    expect(session.blobs().length).toBe(before);

    const unknownKey = await session
      // @ts-expect-error -- an unknown parameter of StandardScaler
      .preprocess(sampleFrame(5), { type: "StandardScaler", params: { with_meen: true } })
      .catch((e: unknown) => e);
    expect((unknownKey as ValidationError).message).toContain("with_meen");

    const badTimeout = await session
      .preprocess(sampleFrame(5), { type: "Binarizer", jobTimeoutMs: 0 })
      .catch((e: unknown) => e);
    expect(Object.keys((badTimeout as ValidationError).errors ?? {})).toEqual(["jobTimeoutMs"]);
  });

  it("a job that fails at run time throws JobFailedError with the job's error", async () => {
    // An uploaded blob is not read here, so the service's own check is what fails the job
    // (a DataFrame would be refused before the upload: see preflight.test.ts).
    const input = await session.upload(sampleFrame(20));
    const job = await session.preprocess(input, {
      type: "PowerTransformer",
      params: { method: "box-cox" },
      columns: ["x1"],
    });
    const err = await job.wait().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    expect((err as JobFailedError).status).toBe("failed");
    expect((err as JobFailedError).code).toBe("job_failed");
    expect((err as JobFailedError).detail).toMatch(/positive/);
    expect((err as Error).message).toContain(job.id);
    await expect(job.result()).rejects.toBeInstanceOf(JobFailedError);
    await expect(session.client.jobs.result(job.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it("sendJob with a chosen id is idempotent; another body under that id is a conflict", async () => {
    const blob = await session.upload(sampleFrame(10));
    const jobId = "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f50";
    const payload = { input_blob_id: blob.id, preprocessing_type: "MaxAbsScaler" as const, output: [{ name: "out" }] };
    const first = await session.sendJob({ jobId, type: "preprocessing", payload });
    const again = await session.sendJob({ jobId, type: "preprocessing", payload });
    expect(first.id).toBe(jobId);
    expect(again.id).toBe(jobId);
    expect((await again.wait()).status).toBe("succeeded");
    const err = await session
      .sendJob({ jobId, type: "preprocessing", payload: { ...payload, preprocessing_type: "MinMaxScaler" } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
  });

  it("updates a blob with If-Match, refuses a stale handle, deletes", async () => {
    const blob = await session.upload(Buffer.from("a,b\n1,2\n"), { name: "small.csv" });
    expect(blob.recordType).toBe("csv");
    const firstEtag = blob.etag;
    await blob.update(Buffer.from("a,b\n3,4\n"));
    expect(blob.etag).not.toBe(firstEtag);
    expect(Buffer.from(await blob.bytes()).toString()).toBe("a,b\n3,4\n");
    const err = await session.client.blobs
      .update(blob.id, { name: "x", recordType: "csv" }, Buffer.from("a\n1\n"), { ifMatch: firstEtag })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreconditionFailedError);
    // Someone else changes it: this handle's etag is now stale.
    await session.client.blobs.update(blob.id, { name: "x", recordType: "csv" }, Buffer.from("a\n5\n"));
    await expect(blob.update(Buffer.from("a,b\n6,7\n"))).rejects.toBeInstanceOf(PreconditionFailedError);
    await blob.delete();
    expect(session.blobs()).not.toContain(blob);
    await expect(blob.bytes()).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reports health and never shows the secret", async () => {
    const health = await session.health();
    expect(health.region).toBe("local");
    expect(session.region).toBe("local");
    const secret = session.client.config.clientSecret.reveal();
    for (const text of [
      String(session),
      inspect(session, { depth: 10 }),
      JSON.stringify(session),
      inspect(session.client, { depth: 10 }),
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
