/**
 * scikit-learn's messages end in a period; joined into mdps's sentences they must not read
 * "maximum.." or "maximum.;". Checked on the errors a caller meets: the checks before
 * sending (a real local Session) and a service's 400 with field errors.
 */
import { DataFrame } from "danfojs-node";
import { describe, expect, it } from "vitest";
import { PreflightError, ValidationError } from "../../src/index.js";
import { makeAPIError, withoutFinalPeriod } from "../../src/client/error-factory.js";
import { useLocalSession } from "./session-fixture.js";

const session = useLocalSession();
const frame = () => new DataFrame({ a: [1, 2, 3], b: [4, 5, 7] });

describe("messages joined into a sentence", () => {
  it.each([
    [
      { type: "MinMaxScaler", params: { feature_range: [1, 0] } },
      "Minimum of desired feature range must be smaller than maximum.",
    ],
    [
      { type: "RobustScaler", params: { quantile_range: [80, 20] } },
      "Invalid quantile range: need 0 <= q_min <= q_max <= 100.",
    ],
    [
      { type: "QuantileTransformer", params: { n_quantiles: 5, subsample: 1 } },
      "The number of quantiles cannot be greater than the number of samples used (subsample).",
    ],
  ] as const)("%j: scikit-learn's words, one period", async (options, words) => {
    const err = await session()
      .preprocess(frame(), options as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreflightError);
    const message = (err as Error).message;
    expect(message).toContain(words);
    expect(message).not.toMatch(/\.\.|\.;/);
  });

  it("two problems at once: each keeps its words, no period before the semicolon", async () => {
    const err = await session()
      .preprocess(frame(), { type: "MinMaxScaler", params: { feature_range: [1, 0] }, columns: ["a", "zz"] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreflightError);
    expect((err as Error).message).not.toMatch(/\.\.|\.;/);
  });

  it("a service's 400 whose field messages end in periods", () => {
    const err = makeAPIError({
      status: 400,
      body: {
        type: "about:blank",
        title: "One or more validation errors occurred.",
        status: 400,
        errors: {
          "preprocessing_params.feature_range": ["Minimum of desired feature range must be smaller than maximum."],
          x: ["a.", "b."],
        },
      },
      headers: {},
      call: "POST /api/model/m/ml/preprocessing/send",
    });
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain("must be smaller than maximum; x: a; b.");
    expect(err.message).not.toMatch(/\.\.|\.;/);
  });

  it("withoutFinalPeriod keeps an ellipsis, a question and text without a period", () => {
    expect(withoutFinalPeriod("maximum.")).toBe("maximum");
    expect(withoutFinalPeriod("maximum. ")).toBe("maximum");
    expect(withoutFinalPeriod("wait...")).toBe("wait...");
    expect(withoutFinalPeriod("did you mean `l1`?")).toBe("did you mean `l1`?");
    expect(withoutFinalPeriod("(subsample)")).toBe("(subsample)");
  });
});
