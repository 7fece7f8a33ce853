/**
 * The format of a job's outputs against the real local service, which declares Arrow: data
 * read here (a CSV file) gets its outputs in Arrow on the wire, and job.download(path) still
 * writes the format the path names; a format the caller named is kept, with a notice when it
 * costs them; a blob the caller hands in keeps its own format.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LARGE_CSV_CELLS } from "../../src/session/preprocess/output-format.js";
import { column, isMissing, tempDir, useLocalSession } from "./session-fixture.js";

const session = useLocalSession();
const files = tempDir("mdps-output-format-");
afterAll(() => files.remove());
// Notices are asserted where they matter; elsewhere they are kept off stderr.
let quiet: () => void = () => undefined;
beforeAll(() => {
  quiet = session().onNotice(() => undefined);
});
afterAll(() => quiet());

const CSV = "a,b,name\n1,10,x\n2,20,y\n3,30,z\n4,NA,w\n";

function csvFile(name: string, text = CSV): string {
  const path = join(files.path, name);
  writeFileSync(path, text);
  return path;
}

describe("a job's output format", () => {
  it("a CSV file read here: the output is Arrow on the wire, the frame is right, download(path.csv) writes CSV", async () => {
    const s = session();
    expect(s.wireFormat).toBe("arrow");
    const notices: string[] = [];
    const stop = s.onNotice((m) => notices.push(m));
    const job = await s.preprocess(csvFile("input.csv"), { type: "MinMaxScaler", params: { feature_range: [-1, 1] } });
    stop();
    expect(job.input?.recordType).toBe("csv"); // the input is stored as the user gave it
    const [output] = await job.outputs();
    expect(output!.recordType).toBe("arrow");
    expect(output!.record.record_type).toBe("arrow"); // the service's own record
    expect(
      Buffer.from(await output!.bytes())
        .subarray(0, 6)
        .toString(),
    ).toBe("ARROW1");
    expect(notices.filter((n) => /You chose/.test(n))).toEqual([]); // no choice made: nothing to regret
    const frame = await job.dataframe();
    expect(frame.columns).toEqual(["a", "b", "name"]);
    [-1, -1 / 3, 1 / 3, 1].forEach((e, i) => expect(column(frame, "a")[i]).toBeCloseTo(e, 12));
    expect(isMissing(column(frame, "b")[3])).toBe(true);
    expect(column(frame, "name")).toEqual(["x", "y", "z", "w"]);
    const written = await job.download(join(files.path, "out.csv"));
    expect(written).toMatchObject({ recordType: "csv", copied: false });
    const lines = readFileSync(written.path, "utf8").trimEnd().split("\n");
    expect(lines[0]).toBe("a,b,name");
    expect(lines.map((l) => l.split(",")[2])).toEqual(["name", "x", "y", "z", "w"]);
    lines[1]!
      .split(",")
      .slice(0, 2)
      .map(Number)
      .forEach((v) => expect(v).toBeCloseTo(-1, 12));
    expect(lines[4]).toBe("1.0,,w"); // a float as pandas writes it; missing stays an empty field
    expect(await job.download(join(files.path, "out.arrow"))).toMatchObject({ recordType: "arrow", copied: true });
  });

  it("an explicit CSV output stays CSV; a blob handed in keeps its own format", async () => {
    const s = session();
    const chosen = await s.preprocess(csvFile("chosen.csv"), {
      type: "StandardScaler",
      outputs: { recordType: "csv" },
    });
    const [csvOut] = await chosen.outputs();
    expect(csvOut!.recordType).toBe("csv");
    expect(
      Buffer.from(await csvOut!.bytes())
        .toString()
        .split("\n")[0],
    ).toBe("a,b,name");
    expect(await chosen.download(join(files.path, "chosen-out.csv"))).toMatchObject({
      recordType: "csv",
      copied: true,
    });
    const blob = await s.upload(csvFile("stored.csv"));
    expect(blob.recordType).toBe("csv");
    const fromBlob = await s.preprocess(blob, { type: "StandardScaler" });
    expect((await fromBlob.outputs())[0]!.recordType).toBe("csv");
  });

  it("a large input with an explicit text format: a notice names the cost and the way out, before anything is sent", async () => {
    const s = session();
    const rows = LARGE_CSV_CELLS / 4;
    const text = `w,x,y,z\n${"1,2,3,4\n".repeat(rows)}`;
    const path = csvFile("large.csv", text);
    const notices: string[] = [];
    const stopped = new AbortController();
    const stop = s.onNotice((m) => {
      notices.push(m);
      stopped.abort(new Error("seen the notice; no need to send"));
    });
    await expect(
      s.preprocess(path, { type: "StandardScaler", upload: { recordType: "csv" }, signal: stopped.signal }),
    ).rejects.toThrow();
    stop();
    expect(notices).toEqual([
      `You chose CSV for large.csv's job (${rows} rows x 4 columns), so the service writes its output as CSV and ` +
        "job.dataframe() parses it again. Without a recordType in outputs (and upload) the job writes arrow, which " +
        'this service declares and which reads several times faster into a frame; job.download("out.csv") still writes CSV.',
    ]);
  });
});
