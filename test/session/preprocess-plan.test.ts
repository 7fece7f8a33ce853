/** `planPreprocess`: options resolved and checked once, before anything is read or sent; the request made from the plan. */
import { describe, expect, it } from "vitest";
import { ConfigError, PreflightError, ValidationError } from "../../src/index.js";
import { planPreprocess, requestFor } from "../../src/session/preprocess/plan.js";
import { ServiceProfile } from "../../src/client/vendor/service-profile.js";

const MODEL_ID = "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f51";
const BLOB_ID = "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f52";
const reference = ServiceProfile.reference();
const context = { modelId: MODEL_ID, profile: reference, baseUrl: "http://127.0.0.1:1" };
const input = { blobId: BLOB_ID, name: "wine.csv", recordType: "csv" as const };

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("planPreprocess", () => {
  it("makes each key once: the request carries the plan's keys, an output without its own gets the input's", () => {
    const plan = planPreprocess(
      { type: "StandardScaler", encrypt: true, outputs: [{}, { encrypt: true }, { encrypt: false }] },
      context,
    );
    const { request } = requestFor(plan, input, reference);
    expect(plan.inputKey).toBeDefined();
    expect(request.input_encryption_key).toBe(plan.inputKey?.reveal());
    expect(request.output[0]?.encryption_key).toBe(plan.inputKey?.reveal());
    expect(request.output[1]?.encryption_key).toBe(plan.outputKeys[1]?.reveal());
    expect(request.output[1]?.encryption_key).not.toBe(plan.inputKey?.reveal());
    expect(request.output[2]?.encryption_key).toBeUndefined();
    // The same plan asked again: the same keys, not new ones.
    expect(requestFor(plan, input, reference).request.output[1]?.encryption_key).toBe(
      request.output[1]?.encryption_key,
    );
  });

  it("a stored blob's key is the input key; encrypt then only asks for the envelope", () => {
    const plan = planPreprocess({ type: "MaxAbsScaler" }, { ...context, blobKey: { key: undefined } });
    expect(plan.inputKey).toBeUndefined();
    expect(requestFor(plan, input, reference).request.output[0]?.encryption_key).toBeUndefined();
  });

  it("names a param typo with its nearest name, before anything else", () => {
    const error = thrown(() => planPreprocess({ type: "Normalizer", params: { nrom: "l1" } as never }, context));
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as PreflightError).problems[0]?.message).toMatch(/no parameter "nrom".*did you mean `norm`/);
  });

  it("names a bad field in the caller's words (outputs.0.name, jobId)", () => {
    const long = thrown(() => planPreprocess({ type: "Binarizer", outputs: { name: "x".repeat(257) } }, context));
    expect(long).toBeInstanceOf(ValidationError);
    expect(Object.keys((long as ValidationError).errors ?? {})).toEqual(["outputs.0.name"]);
    const id = thrown(() => planPreprocess({ type: "Binarizer", jobId: "job-1" }, context));
    expect((id as ValidationError).errors).toEqual({ jobId: ["must be a lower-case UUID"] });
  });

  it("refuses encryption where the service does not declare the envelope", () => {
    const bare = new ServiceProfile({ declared: [], settings: {} });
    const error = thrown(() =>
      planPreprocess({ type: "Binarizer", outputs: { encrypt: true } }, { ...context, profile: bare }),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("envelope-v1");
    expect(() => planPreprocess({ type: "Binarizer" }, { ...context, profile: bare })).not.toThrow();
  });

  it("a default output name is never too long: the input's part is cut, the suffix kept", () => {
    const plan = planPreprocess({ type: "QuantileTransformer", outputs: [{}, {}] }, context);
    const { request } = requestFor(plan, { ...input, name: `${"n".repeat(300)}.csv` }, reference);
    expect(request.output.map((o) => o.name.length)).toEqual([256, 256]);
    expect(request.output[1]?.name.endsWith("-QuantileTransformer-2")).toBe(true);
    // Cut by whole characters: no emoji split into a lone surrogate.
    const emoji = requestFor(plan, { ...input, name: "📊".repeat(200) }, reference).request.output[0]!.name;
    expect(emoji.length).toBeLessThanOrEqual(256);
    expect(emoji).toBe(`${"📊".repeat(117)}-QuantileTransformer-1`);
    expect(requestFor(plan, input, reference).request.output.map((o) => o.name)).toEqual([
      "wine-QuantileTransformer-1",
      "wine-QuantileTransformer-2",
    ]);
  });

  it("sends record types and access tiers in the service's words, checked in mdps's", () => {
    const vendor = new ServiceProfile({
      declared: [],
      settings: { recordTypes: { csv: "Csv" }, accessTiers: { hot: "Hot" } },
    });
    const plan = planPreprocess({ type: "Binarizer" }, { ...context, profile: vendor });
    expect(requestFor(plan, input, vendor).request.output[0]).toMatchObject({ record_type: "Csv", access_tier: "Hot" });
  });
});

describe("ServiceProfile.offers: one answer to 'does the service offer X'", () => {
  it("health as read at connect, plus the settings; health read later only where it was not read", async () => {
    const asked: string[] = [];
    const ask = (capability: string) => (asked.push(capability), Promise.resolve(capability === "wait"));
    const read = new ServiceProfile({ declared: ["job-list"], settings: { capabilities: ["envelope-v1"] }, ask });
    expect([await read.offers("job-list"), await read.offers("envelope-v1"), await read.offers("wait")]).toEqual([
      true,
      true,
      false,
    ]);
    expect(asked).toEqual([]);
    const unread = new ServiceProfile({ declared: undefined, settings: { capabilities: ["envelope-v1"] }, ask });
    expect([await unread.offers("envelope-v1"), await unread.offers("wait"), await unread.offers("cancel")]).toEqual([
      true,
      true,
      false,
    ]);
    expect(asked).toEqual(["wait", "cancel"]);
  });
});
