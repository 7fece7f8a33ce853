/**
 * A frame read by danfo's readCSV from a file that spells missing values "NA": its numeric
 * columns arrive as text. session.check warns and names the word, the job says it leaves
 * them out, job.dataframe() still restores the frame, and naming such a column names "NA".
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DataFrame, readCSV } from "danfojs-node";
import { afterAll, describe, expect, it } from "vitest";
import { readCsv } from "../../src/danfo/index.js";
import { tempDir, useLocalSession } from "./session-fixture.js";

const dir = tempDir("mdps-numeric-text-");
afterAll(() => dir.remove());
const session = useLocalSession();

function wineCsv(): string {
  const path = join(dir.path, "wine.csv");
  const rows = ["alcohol,hue,label"];
  for (let i = 0; i < 30; i++)
    rows.push(`${i === 26 ? "NA" : (12 + i / 10).toFixed(2)},${(0.5 + i / 50).toFixed(2)},c${i % 3}`);
  writeFileSync(path, rows.join("\n") + "\n");
  return path;
}

/** danfo's own reader, as the notebooks used it; it returns danfo's base frame class. */
async function danfoRead(path: string): Promise<DataFrame> {
  // danfo's readCSV builds its frame through danfo's base class; mdps reads frames by their shape.
  return readCSV(path);
}

describe("text columns that are numbers but for NA words", () => {
  it("check warns, naming the word, its row and readCsv", async () => {
    const raw = await danfoRead(wineCsv());
    const report = await session().check(raw, { type: "StandardScaler" });
    expect(report.features).toEqual(["hue"]);
    expect(report.warnings).toMatchObject([{ code: "numeric_text_column", column: "alcohol" }]);
    expect(report.warnings[0]?.message).toMatch(
      /^column "alcohol" is text only because of "NA" \(1 cell, the first in data row 27\); every other value is a number, so the job, which transforms every numeric column, would leave it out\. Read the file with readCsv from "mdps\/danfo"/,
    );
    expect(report.columns.find((c) => c.name === "alcohol")?.notes).toEqual(['numbers but for "NA"']);
    // A plain text column is not flagged.
    expect(report.columns.find((c) => c.name === "label")?.notes).toEqual([]);
  });

  it("the job says so, and its frame comes back with the text column as it was", async () => {
    const raw = await danfoRead(wineCsv());
    const notices: string[] = [];
    const stop = session().onNotice((message) => notices.push(message));
    try {
      const job = await session().preprocess(raw, { type: "StandardScaler" });
      const df = await job.dataframe();
      expect(df.columns).toEqual(["alcohol", "hue", "label"]);
      expect(df.column("alcohol").values[26]).toBe("NA");
      expect(notices.some((n) => n.startsWith('column "alcohol" is text only because of "NA"'))).toBe(true);
    } finally {
      stop();
    }
  });

  it("naming the column as a feature names the NA word, not a number beside it", async () => {
    const raw = await danfoRead(wineCsv());
    await expect(session().preprocess(raw, { type: "StandardScaler", columns: ["alcohol"] })).rejects.toThrow(
      /column "alcohol" is not numeric: it holds text such as "NA" \(data row 27\), a missing value to pandas: read the file with readCsv from "mdps\/danfo"/,
    );
  });

  it("a frame read with readCsv is uploaded under its file's name, a frame made in code under the time", async () => {
    const frame = await readCsv(wineCsv());
    const blob = await session().upload(frame);
    expect(blob.name).toBe(`wine.${blob.recordType}`);
    const job = await session().preprocess(frame, { type: "StandardScaler" });
    expect(job.input?.name).toBe(`wine.${blob.recordType}`);
    const made = new DataFrame({ x: [1, 2] });
    expect((await session().upload(made)).name).toMatch(/^dataframe-\d{4}-/);
  });

  it("read with readCsv, every numeric column is a feature and nothing is warned", async () => {
    const report = await session().check(await readCsv(wineCsv()), { type: "StandardScaler" });
    expect(report.features).toEqual(["alcohol", "hue"]);
    expect(report.warnings).toEqual([]);
  });
});
