import { describe, expect, it } from "vitest";
import { preflightHtml } from "../../src/display/render/preflight.js";
import { preflight } from "../../src/session/preflight/preflight.js";

describe("preflightHtml", () => {
  it("shows one row per column, then the warnings and problems, escaped", () => {
    const report = preflight(
      {
        rowCount: 3,
        columns: [
          { name: "id", kind: "number", values: Float64Array.from([1, 2, 3]) },
          { name: "<x>", kind: "number", values: Float64Array.from([1, NaN, -2]) },
        ],
      },
      { type: "Normalizer" },
    );
    const html = preflightHtml(report);
    expect(html).toContain("Pre-flight check: 3 rows, Normalizer; nothing was uploaded");
    expect(html).toContain("&lt;x&gt;");
    expect(html.match(/<tr>/g)).toHaveLength(3);
    expect(html).toMatch(/⚠ column &quot;id&quot; looks like a row id/);
    expect(html).toMatch(/✖ Normalizer refuses missing values, and column &quot;&lt;x&gt;&quot; has 1/);
  });
});
