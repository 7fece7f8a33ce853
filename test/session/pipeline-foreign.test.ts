/**
 * A pipeline against another implementation of the interface (test/foreign-service): one
 * that declares no extension, so the Session sends CSV, names every feature column and has
 * no cancel, and whose results carry no fitted state. The chain still runs job after job
 * on the previous output, a step without columns transforms every numeric column (named by
 * the Session), `fitTransform` gives the chain's output, and `fit` says why it cannot give
 * a fitted pipeline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MdpsError, type Session } from "../../src/index.js";
import { connectTo } from "../foreign/foreign-helpers.js";
import { startForeignService, type ForeignService } from "../foreign-service/index.js";
import { column, sampleFrame } from "./session-fixture.js";

let foreign: ForeignService;
let session: Session;

beforeAll(async () => {
  foreign = await startForeignService();
  session = await connectTo(foreign);
});
afterAll(async () => {
  await session.close();
  await foreign.close();
});

describe("a pipeline on a service that declares nothing and returns no fitted state", () => {
  it("chains the jobs on each output, names every numeric column; fitTransform gives the output, fit says why it cannot", async () => {
    const df = sampleFrame(30, 7);
    const pipeline = session.pipeline([{ type: "StandardScaler", columns: ["x1"] }, { type: "MinMaxScaler" }]);
    const out = await pipeline.fitTransform(df, { progress: false });
    const jobs = foreign.jobs();
    expect(jobs).toHaveLength(2);
    expect(jobs[1]!.inputBlobId).toBe(jobs[0]!.outputBlobIds[0]);
    expect(out.columns).toEqual(df.columns);
    expect(column(out, "label")).toEqual(column(df, "label"));
    // MinMaxScaler on every numeric column, x1 (standardised by step 1) included: both span [0, 1].
    for (const name of ["x1", "x2"]) {
      const values = (column(out, name) as Array<number | null>).filter(
        (v): v is number => typeof v === "number" && !Number.isNaN(v),
      );
      expect([Math.min(...values), Math.max(...values)]).toEqual([0, 1]);
    }
    const error = await pipeline.fit(df, { progress: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MdpsError);
    expect(error).toMatchObject({ code: "no_fitted_state" });
    expect((error as Error).message).toMatch(/^Pipeline step 1: job .*'s result has no fitted state/);
  });
});
