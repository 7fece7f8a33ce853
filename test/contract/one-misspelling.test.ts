/**
 * One explainer of zod issues: a misspelt parameter or a wrong word reads the same in the
 * client's check, the engine's error and the service's 400, and no explanation echoes a
 * submitted value it was not asked to quote.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { blobRecord } from "../../src/core/contract/index.js";
import { checkParams } from "../../src/core/contract/param-issues.js";
import { fitTransform } from "../../src/core/engine/index.js";
import { explainIssues, explanationText, fieldErrorsOf, fieldPath } from "../../src/core/errors/zod-issues.js";
import { Api, expectProblem, Harness, json, preprocessingBody, tokenFor } from "../service/service-harness.js";

const MEANT = 'StandardScaler has no parameter "with_means" (did you mean `with_mean`?)';
const WORD = '"L2" is not one of "l1", "l2", "max" (did you mean `l2`?)';

describe("explainIssues", () => {
  const schema = z.strictObject({
    name: z.string(),
    output: z.array(z.strictObject({ tier: z.enum(["hot", "cool"]) })),
  });

  it("names each unknown key at its own path, a missing field as required, and a path in brackets", () => {
    const input = { output: [{ tier: "cold", secret: "hunter2" }] };
    const issues = schema.safeParse(input).error!.issues;
    const explained = explainIssues(issues);
    expect(fieldErrorsOf(explained)).toEqual({
      name: ["is required (string)"],
      "output[0].tier": [expect.stringContaining("hot")],
      "output[0].secret": ["is not a known field; remove it"],
    });
    expect(JSON.stringify(explained)).not.toContain("hunter2");
    expect(JSON.stringify(explained)).not.toContain("cold");
  });

  it("quotes a wrong word, with the nearest one, only when given the input", () => {
    const issues = schema.safeParse({ name: "n", output: [{ tier: "coll" }] }).error!.issues;
    const near = (): string => " (near)";
    expect(explainIssues(issues, { input: { output: [{ tier: "coll" }] }, nearest: near })[0]?.message).toBe(
      '"coll" is not one of "hot", "cool" (near)',
    );
    expect(explainIssues(issues)[0]?.message).not.toContain("coll");
  });

  it("writes one sentence, a problem of the whole value without a field", () => {
    const issues = z.strictObject({ a: z.number() }).safeParse({ b: 1 }).error!.issues;
    expect(explanationText(explainIssues(issues))).toBe("a: is required (number); b: is not a known field; remove it");
    expect(fieldPath([])).toBe("$");
    expect(fieldPath(["output", 0, "name"], "payload")).toBe("payload.output[0].name");
  });

  it("keeps a key named like Object.prototype's members a field of its own", () => {
    const issues = z.strictObject({}).safeParse(JSON.parse('{"constructor": 1, "toString": 2}')).error!.issues;
    expect(fieldErrorsOf(explainIssues(issues))).toEqual({
      constructor: ["is not a known field; remove it"],
      toString: ["is not a known field; remove it"],
    });
  });
});

describe("a misspelt parameter", () => {
  const h = new Harness();
  let api: Api;
  let blobId: string;

  beforeAll(async () => {
    const service = await h.inject();
    const app = h.app(service.dataDir);
    api = new Api(service, await tokenFor(service, app), app.modelId);
    blobId = json(
      blobRecord,
      await api.upload("x\n1\n2\n", { Name: "x.csv", RecordType: "csv", AccessTier: "hot" }),
    ).id;
  });
  afterAll(() => h.cleanup());

  it("reads the same in the client's check, the engine and the service's 400", async () => {
    expect(checkParams("StandardScaler", { with_means: false }).map((p) => p.message)).toEqual([
      expect.stringContaining(MEANT),
    ]);
    const features = { names: ["x"], columns: [Float64Array.of(1, 2)] };
    expect(() => fitTransform("StandardScaler", { with_means: false } as never, features)).toThrow(MEANT);
    const reply = await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(api.modelId, blobId, { preprocessing_params: { with_means: false } }),
    );
    expect(expectProblem(reply, 400).errors?.["preprocessing_params.with_means"]).toEqual([
      expect.stringContaining(MEANT),
    ]);
  });

  it("and a wrong word with its nearest valid one, everywhere", async () => {
    expect(checkParams("Normalizer", { norm: "L2" })[0]?.message).toBe(WORD);
    const features = { names: ["x"], columns: [Float64Array.of(1, 2)] };
    expect(() => fitTransform("Normalizer", { norm: "L2" } as never, features)).toThrow(WORD);
    const reply = await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(api.modelId, blobId, {
        preprocessing_type: "Normalizer",
        preprocessing_params: { norm: "L2" },
      }),
    );
    expect(expectProblem(reply, 400).errors?.["preprocessing_params.norm"]).toEqual([WORD]);
  });
});
