/**
 * session.job(prefix) and job.rerun({ params }) against the real local service: a
 * unique id prefix names a job, an ambiguous or unknown one is refused here saying why,
 * and a rerun sends the same input and columns with one parameter changed; what a rerun
 * sends, and what it refuses, read from the original job alone (rerunRequest).
 */
import { DataFrame } from "danfojs-node";
import { describe, expect, it } from "vitest";
import { Blob, MdpsError, type Job, type JobRecord } from "../../src/index.js";
import { blobRecord } from "../../src/core/contract/blob.js";
import { resolveJobId } from "../../src/session/job/lookup.js";
import { rerunRequest, type RerunOrigin } from "../../src/session/job/rerun.js";
import type { SessionContext } from "../../src/session/session-context.js";
import { useLocalSession } from "./session-fixture.js";

const session = useLocalSession();

/** a has an outlier; b is passed through unchanged (not a feature). */
const frame = () => new DataFrame({ a: [1, 2, 3, 100], b: ["w", "x", "y", "z"], c: [4, 0, 7, 5] });

describe("resolveJobId", () => {
  const known = [
    { id: "3f2a9c00-0000-4000-8000-000000000001", type: "RobustScaler" },
    { id: "3f2b1111-0000-4000-8000-000000000002", type: "StandardScaler" },
  ];

  it("takes a whole id, a unique prefix (any case), and passes an id nobody here knows", () => {
    expect(resolveJobId(known[0]!.id, known)).toBe(known[0]!.id);
    expect(resolveJobId("3F2A", known)).toBe(known[0]!.id);
    expect(resolveJobId(" 3f2b11 ", known)).toBe(known[1]!.id);
    const elsewhere = "9d3e0c2a-1b7f-4c55-8e1a-0b2c3d4e5f60";
    expect(resolveJobId(elsewhere, known)).toBe(elsewhere);
    // Another service's ids need not be UUIDs: they go to the service as typed.
    expect(resolveJobId("job-42", known)).toBe("job-42");
  });

  it("refuses an ambiguous, too short or unknown prefix, naming the candidates", () => {
    expect(() => resolveJobId("3f2", known)).toThrow(
      /starts the ids of 2 jobs .*RobustScaler.*StandardScaler.*more characters/,
    );
    expect(() => resolveJobId("3f2a9", [...known, known[0]!])).not.toThrow();
    expect(() => resolveJobId("3f2b", known.slice(0, 1))).toThrow(/No job .* starting "3f2b"/);
    let short: unknown;
    try {
      resolveJobId("3f", known.slice(0, 1));
    } catch (error) {
      short = error;
    }
    expect(short).toBeInstanceOf(MdpsError);
    expect((short as MdpsError).code).toBe("job_id_prefix_too_short");
    expect((short as MdpsError).message).toContain("at least 4 characters");
  });
});

describe("session.job(prefix) and job.rerun", () => {
  let first: Job<"RobustScaler">;

  it("names a job of this session by a prefix of its id", async () => {
    first = await session().preprocess(frame(), { type: "RobustScaler", params: { quantile_range: [10, 90] } });
    await first.wait({ progress: false });
    const handle = session().job(first.id.slice(0, 8).toUpperCase());
    expect(handle.id).toBe(first.id);
    expect((await handle.status()).status).toBe("succeeded");
    expect(() => session().job("0000")).toThrow(/No job this session sent or its journal remembers/);
  });

  it("reruns the same input and columns with one parameter changed", async () => {
    const reported: string[] = [];
    const stop = session().onJob((job) => reported.push(job.id));
    const again = await first.rerun({ params: { quantile_range: [25, 75] } });
    stop();
    expect(reported).toEqual([again.id]);
    expect(again.id).not.toBe(first.id);
    expect(again.input?.id).toBe(first.input?.id);
    const fitted = (await again.result({ progress: false })).fitted!;
    // numpy's linear percentiles of [1, 2, 3, 100]: q25 1.75, q75 27.25 (a); [0, 4, 5, 7]: 3, 5.5 (c).
    expect(fitted.feature_names_in_).toEqual(["a", "c"]);
    expect(fitted["scale_"]).toEqual([25.5, 2.5]);
    expect(fitted.params).toMatchObject({ quantile_range: [25, 75], with_centering: true });
    // The original's 10, 90: q10 1.3, q90 70.9.
    const before = (await first.result({ progress: false })).fitted!["scale_"] as number[];
    expect(before[0]).toBeCloseTo(69.6, 12);
    expect(before[1]).toBeCloseTo(5.2, 12);
    const out = await again.dataframe({ progress: false });
    expect(out.column("b").values).toEqual(["w", "x", "y", "z"]);
  });

  it("reruns a handle read back by prefix (its request read from the record)", async () => {
    const handle = session().job(first.id.slice(0, 6));
    const again = await handle.rerun({ params: { with_centering: false } });
    const fitted = (await again.result({ progress: false })).fitted!;
    expect(fitted.params).toMatchObject({ with_centering: false, quantile_range: [10, 90] });
    expect(fitted["center_"] ?? null).toBeNull();
  });

  it("refuses a wrong parameter before anything is sent", async () => {
    const reported: string[] = [];
    const stop = session().onJob((job) => reported.push(job.id));
    await expect(first.rerun({ params: { quantile_rang: [1, 2] } as never })).rejects.toThrow(
      /nothing was sent.*did you mean `quantile_range`/,
    );
    await expect(first.rerun({ params: { quantile_range: [90, 10] } })).rejects.toThrow(/quantile_range/);
    stop();
    expect(reported).toEqual([]);
  });

  it("reruns an encrypted job with the key its input handle holds", async () => {
    const sealed = await session().preprocess(frame(), { type: "StandardScaler", encrypt: true, columns: ["a"] });
    const again = await sealed.rerun({ params: { with_mean: false } });
    const out = await again.dataframe({ progress: false });
    const a = out.column("a").values as number[];
    // std of [1, 2, 3, 100] (population) is 42.29..., mean kept.
    const std = Math.sqrt([1, 2, 3, 100].reduce((sum, x) => sum + (x - 26.5) ** 2, 0) / 4);
    expect(a[3]).toBeCloseTo(100 / std, 12);
  });
});

describe("rerunRequest: what a rerun sends, read from the original job", () => {
  /** A handle on a blob as the session's list holds it; its record is all a rerun reads. */
  const blob = (id: string, encrypted = false) =>
    new Blob({} as SessionContext, blobRecord.parse({ id, name: `${id}.csv`, encrypted }));
  const record = (request: Record<string, unknown>) =>
    ({ id: "j-1", status: "succeeded", request }) as unknown as JobRecord;
  const origin = (request: Record<string, unknown>, type?: "RobustScaler"): RerunOrigin<"RobustScaler"> => ({
    job: {
      id: "j-1",
      type,
      input: undefined,
      record: record(request),
      status: () => Promise.reject(new Error("the record is known: not read again")),
    },
    params: {},
    featureColumns: [],
  });
  const codeOf = async (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => (error instanceof MdpsError ? error.code : String(error)),
    );

  it("finds the input among the session's blobs and keeps the sent parameters and columns", async () => {
    const sent = { input_blob_id: "b-2", preprocessing_type: "RobustScaler", feature_columns: ["a"] };
    const again = await rerunRequest(
      origin({ ...sent, preprocessing_params: { quantile_range: [10, 90], with_scaling: false } }),
      { params: { quantile_range: [25, 75] } },
      () => [blob("b-1"), blob("b-2")],
    );
    expect(again.input.id).toBe("b-2");
    expect(again.options).toMatchObject({
      type: "RobustScaler",
      params: { quantile_range: [25, 75], with_scaling: false },
      columns: ["a"],
    });
  });

  it("refuses an input the session does not know, a job of no known transform, and an input without its key", async () => {
    const known = () => [blob("b-1"), blob("sealed", true)];
    const unknownInput = origin({ input_blob_id: "elsewhere", preprocessing_type: "RobustScaler" });
    expect(await codeOf(rerunRequest(unknownInput, {}, known))).toBe("rerun_unknown_input");
    expect(await codeOf(rerunRequest(origin({ input_blob_id: "b-1" }), {}, known))).toBe("rerun_unknown_type");
    const sealed = origin({ input_blob_id: "sealed" }, "RobustScaler");
    expect(await codeOf(rerunRequest(sealed, {}, known))).toBe("rerun_needs_key");
  });
});
