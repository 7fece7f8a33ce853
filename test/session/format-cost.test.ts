/** The notice for a large CSV job whose output the service could write as Arrow. */
import { describe, expect, it } from "vitest";
import { csvOutputNotice, LARGE_CSV_CELLS } from "../../src/session/format-cost.js";

const large = {
  inputRecordType: "csv",
  wireFormat: "arrow",
  outputsGiven: false,
  rows: LARGE_CSV_CELLS / 10,
  columns: 10,
  name: "big.csv",
} as const;

describe("csvOutputNotice", () => {
  it("names the file, its size, the option and that download(path) still writes CSV", () => {
    expect(csvOutputNotice(large)).toBe(
      'big.csv is CSV (100000 rows x 10 columns), so the job writes its output as CSV too, and job.dataframe() parses it again. For a frame, pass outputs: { recordType: "arrow" }: this service writes Arrow, which reads several times faster, and job.download("out.csv") still writes CSV.',
    );
  });

  it("says nothing when the choice is made, the input is not CSV, the service has no Arrow, or the data is small", () => {
    expect(csvOutputNotice({ ...large, outputsGiven: true })).toBeUndefined();
    expect(csvOutputNotice({ ...large, inputRecordType: "parquet" })).toBeUndefined();
    expect(csvOutputNotice({ ...large, wireFormat: "csv" })).toBeUndefined();
    expect(csvOutputNotice({ ...large, rows: large.rows - 1 })).toBeUndefined();
  });
});
