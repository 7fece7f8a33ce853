/** The outputs' format of a job on data read here, and the notice when the caller's own choice costs them. */
import { describe, expect, it } from "vitest";
import { LARGE_CSV_CELLS, outputFormat } from "../../src/session/preprocess/output-format.js";

const large = {
  inputRecordType: "csv",
  wireFormat: "arrow",
  chosen: undefined,
  rows: LARGE_CSV_CELLS / 10,
  columns: 10,
  name: "big.csv",
} as const;

describe("outputFormat", () => {
  it("asks for the service's faster format when the caller named none, quietly, whatever the size", () => {
    expect(outputFormat(large)).toEqual({ recordType: "arrow", notice: undefined });
    expect(outputFormat({ ...large, rows: 1 })).toEqual({ recordType: "arrow", notice: undefined });
    expect(outputFormat({ ...large, inputRecordType: "json" })).toEqual({ recordType: "arrow", notice: undefined });
    expect(outputFormat({ ...large, wireFormat: "parquet" })).toEqual({ recordType: "parquet", notice: undefined });
  });

  it("keeps the input's format where the service declares nothing faster or the input is columnar already", () => {
    expect(outputFormat({ ...large, wireFormat: "csv" })).toEqual({ recordType: undefined, notice: undefined });
    expect(outputFormat({ ...large, wireFormat: "json" })).toEqual({ recordType: undefined, notice: undefined });
    expect(outputFormat({ ...large, inputRecordType: "parquet" })).toEqual({
      recordType: undefined,
      notice: undefined,
    });
  });

  it("keeps an explicit choice, and says what a large text output costs, naming the file, its size and the way out", () => {
    const csv = outputFormat({ ...large, chosen: "csv" });
    expect(csv.recordType).toBeUndefined();
    expect(csv.notice).toBe(
      "You chose CSV for big.csv's job (100000 rows x 10 columns), so the service writes its output as CSV and " +
        "job.dataframe() parses it again. Without a recordType in outputs (and upload) the job writes arrow, which " +
        'this service declares and which reads several times faster into a frame; job.download("out.csv") still writes CSV.',
    );
    expect(outputFormat({ ...large, chosen: "json" }).notice).toContain("You chose JSON");
  });

  it("says nothing of an explicit choice that costs nothing: small, columnar, or no faster format to offer", () => {
    expect(outputFormat({ ...large, chosen: "csv", rows: large.rows - 1 })).toEqual({
      recordType: undefined,
      notice: undefined,
    });
    expect(outputFormat({ ...large, chosen: "arrow" })).toEqual({ recordType: undefined, notice: undefined });
    expect(outputFormat({ ...large, chosen: "csv", wireFormat: "csv" })).toEqual({
      recordType: undefined,
      notice: undefined,
    });
  });
});
