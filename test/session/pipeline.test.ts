/**
 * session.pipeline() as a user meets it, against the real reference service
 * (Session.local(), real files): steps checked before any upload, a failing middle step,
 * cancel mid-chain, the saved JSON read back (and refused when damaged), fitTransform,
 * a Blob as input, and the live card a notebook shows.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  JobFailedError,
  Pipeline,
  PipelineStepError,
  PreflightError,
  Session,
  setNotebookKernel,
  ValidationError,
  type NotebookDisplay,
  type PipelineStepView,
} from "../../src/index.js";
import { PipelineCard } from "../../src/display/notebook/pipeline-card.js";
import { column, isMissing, sampleFrame, tempDir, writeSlowJobCsv } from "./session-fixture.js";

const dir = tempDir("mdps-pipeline-");
let session: Session;
let bigCsv: string;

beforeAll(async () => {
  session = await Session.local({ dataDir: join(dir.path, "data"), service: { jobWorkers: 1 } });
  bigCsv = writeSlowJobCsv(dir.path);
});

afterAll(async () => {
  setNotebookKernel(undefined);
  await session.close();
  dir.remove();
});

describe("steps are checked before anything is uploaded", () => {
  it("a misspelt transform or parameter fails when the pipeline is made, with did-you-mean", () => {
    const error = (() => {
      try {
        session.pipeline([
          { type: "StandardScaler" },
          { type: "StandardScalar" as "StandardScaler" },
          { type: "QuantileTransformer", params: { n_quantile: 10 } as never },
        ]);
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PreflightError);
    const problems = (error as PreflightError).problems;
    expect(problems.map((p) => p.field)).toEqual(["steps[2].type", "steps[3].params.n_quantile"]);
    expect(problems[0]!.message).toMatch(/step 2: unknown transform "StandardScalar".*did you mean `StandardScaler`/);
    expect(problems[1]!.message).toMatch(/did you mean `n_quantiles`/);
    expect(() => session.pipeline([])).toThrow(/at least one step/);
  });

  it("an unknown column of a later step, or a data rule the input breaks, fails before the upload", async () => {
    const before = session.blobs().length;
    const df = sampleFrame(20);
    const pipeline = session.pipeline([
      { type: "StandardScaler", columns: ["x1"] },
      { type: "MinMaxScaler", columns: ["X2"] },
      // x1 was transformed by step 1 and keeps its missing cell: Normalizer refuses it.
      { type: "Normalizer", columns: ["x1"] },
    ]);
    const error = await pipeline.fit(df, { progress: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreflightError);
    const messages = (error as PreflightError).problems.map((p) => `${p.field}: ${p.message}`);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^steps\[2\]\.columns: step 2: there is no column "X2".*did you mean `x2`/);
    expect(messages[1]).toMatch(/^steps\[3\]\.data: step 3: Normalizer refuses missing values/);
    expect(session.blobs().length).toBe(before);
  });
});

describe("the chain on the service", () => {
  it("a failing middle step stops the chain with that job's error and its step number", async () => {
    const pipeline = session.pipeline([
      { type: "StandardScaler", columns: ["x1", "x2"] },
      // Standardised data has negative values: box-cox refuses them on the service.
      { type: "PowerTransformer", params: { method: "box-cox" }, columns: ["x1", "x2"] },
      { type: "MinMaxScaler", columns: ["x1"] },
    ]);
    const run = pipeline.start(sampleFrame(40));
    const error = await run.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PipelineStepError);
    expect(error).toBeInstanceOf(JobFailedError);
    const failed = error as PipelineStepError;
    expect([failed.step, failed.steps, failed.stepType, failed.status, failed.code]).toEqual([
      2,
      3,
      "PowerTransformer",
      "failed",
      "job_failed",
    ]);
    expect(failed.detail).toMatch(/strictly positive/);
    expect(failed.message).toMatch(/^Pipeline step 2 of 3, PowerTransformer\(x1, x2\) method=box-cox: Job .* failed/);
    expect(failed.message).toMatch(/Step 1 had succeeded; step 3 was not started\.$/);
    expect(failed.jobId).toBe(run.jobs[1]!.id);
    expect(run.jobs).toHaveLength(2);
    expect(run.state.map((s) => s.status)).toEqual(["succeeded", "failed", "pending"]);
  });

  it("cancel mid-chain cancels the running job and starts no more", async () => {
    const pipeline = session.pipeline([
      { type: "StandardScaler", columns: ["a"] },
      { type: "PowerTransformer", columns: ["a", "b"] },
      { type: "MinMaxScaler", columns: ["b"] },
    ]);
    const run = pipeline.start(bigCsv);
    await new Promise<void>((resolve, reject) => {
      const stop = run.subscribe((state) => {
        if (state[1]?.status === "running" && state[1].phase !== "reading") {
          stop();
          resolve();
        }
      });
      run.done.then(() => reject(new Error("the run ended before step 2 ran")), reject);
    });
    // The cancel reaches the running job: had it waited for the job, step 2 would have succeeded.
    await run.cancel();
    const error = await run.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PipelineStepError);
    expect([(error as PipelineStepError).step, (error as PipelineStepError).status]).toEqual([2, "cancelled"]);
    expect((error as PipelineStepError).message).toMatch(/step 3 was not started/);
    expect(run.jobs).toHaveLength(2);
    expect((await run.jobs[1]!.status()).status).toBe("cancelled");
    expect(run.state.map((s) => s.status)).toEqual(["succeeded", "cancelled", "pending"]);
  }, 120_000);

  it("an aborted signal cancels the running job the same way", async () => {
    const controller = new AbortController();
    const pipeline = session.pipeline([{ type: "PowerTransformer" }, { type: "StandardScaler" }]);
    const run = pipeline.start(bigCsv, { signal: controller.signal });
    await new Promise<void>((resolve) => {
      const stop = run.subscribe((state) => {
        if (state[0]?.status === "running" && state[0].phase !== "reading") {
          stop();
          resolve();
        }
      });
    });
    controller.abort();
    const error = await run.done.catch((e: unknown) => e);
    expect([(error as PipelineStepError).step, (error as PipelineStepError).status]).toEqual([1, "cancelled"]);
    expect((await run.jobs[0]!.status()).status).toBe("cancelled");
    expect(run.jobs).toHaveLength(1);
  }, 120_000);
  it("in a notebook, the kernel's stop button cancels the running step too (a chain cannot go on without its cell)", async () => {
    const display: NotebookDisplay = { html: () => undefined, text: () => undefined };
    setNotebookKernel({ newDisplay: () => display, display });
    try {
      const pipeline = session.pipeline([{ type: "PowerTransformer" }, { type: "StandardScaler" }]);
      const run = pipeline.start(bigCsv);
      await new Promise<void>((resolve) => {
        const stop = run.subscribe((state) => {
          if (state[0]?.status === "running" && state[0].phase !== "reading") {
            stop();
            resolve();
          }
        });
      });
      // What Jupyter's stop button sends the kernel process.
      process.emit("SIGINT");
      const error = await run.done.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PipelineStepError);
      expect([(error as PipelineStepError).step, (error as PipelineStepError).status]).toEqual([1, "cancelled"]);
      expect((error as PipelineStepError).message).toMatch(/the pipeline was stopped while this step ran/);
      expect((await run.jobs[0]!.status()).status).toBe("cancelled");
      expect(run.jobs).toHaveLength(1);
    } finally {
      setNotebookKernel(undefined);
    }
  }, 120_000);
});

describe("the fitted pipeline", () => {
  it("fitTransform gives the last job's output; a Blob input is used as it is", async () => {
    const df = sampleFrame(30);
    const pipeline = session.pipeline([
      { type: "RobustScaler", columns: ["x1"] },
      { type: "QuantileTransformer", params: { n_quantiles: 10 }, columns: ["x2"] },
    ]);
    const out = await pipeline.fitTransform(df, { progress: false });
    expect(out.columns).toEqual(["x1", "label", "x2", "flag"]);
    expect(column(out, "label")).toEqual(column(df, "label"));
    expect(isMissing(column(out, "x1")[3])).toBe(true);
    const blob = await session.upload(df);
    const fromBlob = await pipeline.fit(blob, { progress: false });
    expect(fromBlob.jobs[0]!.input?.id).toBe(blob.id);
    expect(fromBlob.transform(df).values).toEqual(out.values);
  });

  it("toJSON / Pipeline.fromJSON round-trips exactly, and a damaged file is refused naming the field", async () => {
    const train = sampleFrame(60, 3);
    const test = sampleFrame(25, 4);
    const fitted = await session
      .pipeline([
        { type: "PowerTransformer", columns: ["x1", "x2"] },
        { type: "StandardScaler", columns: ["x1", "x2"] },
      ])
      .fit(train, { progress: false });
    const text = JSON.stringify(fitted);
    const loaded = await Pipeline.fromJSON(text);
    expect(loaded.toJSON()).toEqual(fitted.toJSON());
    expect(JSON.stringify(loaded)).toBe(text);
    expect(loaded.jobIds).toEqual(fitted.jobs.map((j) => j.id));
    const here = fitted.transform(test);
    const there = loaded.transform(test);
    for (const name of ["x1", "x2"]) {
      const a = column(here, name) as number[];
      const b = column(there, name) as number[];
      expect(a.every((v, i) => Object.is(v, b[i]))).toBe(true);
    }
    expect(loaded.inverseTransform(there).columns).toEqual(test.columns);

    const json = fitted.toJSON();
    const refusals: Array<[unknown, RegExp]> = [
      ["{not json", /The pipeline JSON is invalid, so nothing was applied: .*is not JSON/],
      [{ ...json, format: "sklearn" }, /format: must be "mdps-pipeline"/],
      [{ ...json, version: 2 }, /version: must be 1/],
      [
        { ...json, steps: [{ ...json.steps[0]!, fitted: { ...json.steps[0]!.fitted, lambdas_: "x" } }] },
        /steps\.0\.fitted\.lambdas_/,
      ],
      [{ ...json, steps: [{ ...json.steps[0]!, columns: ["x2", "x1"] }] }, /steps\.0\.columns: are \[x2, x1\] but/],
      [{ ...json, steps: [{ ...json.steps[1]!, type: "MinMaxScaler" }] }, /steps\.0\.type: is MinMaxScaler but/],
    ];
    for (const [input, message] of refusals) {
      const error = await Pipeline.fromJSON(input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it("encrypts the input and every step's output when asked; the service stores no plaintext", async () => {
    const df = sampleFrame(30, 5);
    const fitted = await session
      .pipeline([
        { type: "StandardScaler", columns: ["x1"] },
        { type: "MinMaxScaler", columns: ["x1", "x2"] },
      ])
      .fit(df, { encrypt: true, progress: false });
    const blobs = [
      fitted.jobs[0]!.input!,
      ...(await Promise.all(fitted.jobs.map(async (j) => (await j.outputs())[0]!))),
    ];
    expect(blobs.map((b) => b.encrypted)).toEqual([true, true, true]);
    // The same data stored without encryption shows its text: the check below can fail.
    const plain = await session.upload(df);
    const stored = readdirSync(join(session.dataDir!, "blobs"));
    const plainFile = stored.find((f) => f.startsWith(plain.id))!;
    expect(readFileSync(join(session.dataDir!, "blobs", plainFile)).includes(Buffer.from("row-1"))).toBe(true);
    for (const blob of blobs) {
      const files = stored.filter((f) => f.startsWith(blob.id));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        expect(readFileSync(join(session.dataDir!, "blobs", file)).includes(Buffer.from("row-1"))).toBe(false);
      }
    }
    const out = await fitted.output!.download();
    expect(column(out, "label")).toEqual(column(df, "label"));
    expect(column(fitted.transform(df), "x2")).toEqual(column(out, "x2"));
  });

  it("writes a line per change of a step in text mode", async () => {
    const lines: string[] = [];
    const card = new PipelineCard({ mode: "text", stream: { write: (line: string) => lines.push(line) } });
    const steps: PipelineStepView[] = [
      { type: "StandardScaler", columns: ["a"], status: "running", phase: "fitting", progress: 0.31 },
      { type: "MinMaxScaler", columns: [], status: "pending" },
    ];
    card.update(steps);
    card.update([{ ...steps[0]!, progress: 0.35 }, steps[1]!]);
    await card.finish([
      { ...steps[0]!, status: "succeeded", phase: "done", progress: 1 },
      { ...steps[1]!, status: "queued" },
    ]);
    expect(lines).toEqual([
      "[mdps] pipeline 1/2 StandardScaler(a) running fitting 30%\n",
      "[mdps] pipeline 1/2 StandardScaler(a) succeeded 100%\n",
      "[mdps] pipeline 2/2 MinMaxScaler(every numeric column) queued\n",
    ]);
  });

  it("shows a live card with a row per step in a notebook, left in its final state", async () => {
    const shown: string[] = [];
    const display: NotebookDisplay = { html: (html) => shown.push(html), text: () => undefined };
    setNotebookKernel({ newDisplay: () => display, display });
    try {
      await session
        .pipeline([
          { type: "MaxAbsScaler", columns: ["x1"] },
          { type: "MinMaxScaler", columns: ["x2"] },
        ])
        .fit(sampleFrame(20));
    } finally {
      setNotebookKernel(undefined);
    }
    expect(shown.length).toBeGreaterThan(2);
    expect(shown[0]).toMatch(/pending/);
    const last = shown[shown.length - 1]!;
    expect(last).toMatch(/2 of 2 steps succeeded/);
    expect(last.match(/<tr>/g)).toHaveLength(3);
    expect(last).toMatch(/MaxAbsScaler.*x1.*succeeded.*MinMaxScaler.*x2.*succeeded/s);
  });
});
