/** The file name a blob is saved under, at the edges: known endings, case, encryption, odd types. */
import { describe, expect, it } from "vitest";
import { attachment, downloadName } from "../../src/server/blob-bytes/download-name.js";

const plain = (name: string, record_type: string) => downloadName({ name, record_type, encrypted: false });
const sealed = (name: string, record_type: string) => downloadName({ name, record_type, encrypted: true });

describe("downloadName", () => {
  it("adds the record type's extension to a name without one", () => {
    expect(plain("iris-StandardScaler", "arrow")).toBe("iris-StandardScaler.arrow");
    expect(plain("iris-StandardScaler", "parquet")).toBe("iris-StandardScaler.parquet");
    expect(plain("iris-StandardScaler", "json")).toBe("iris-StandardScaler.json");
    expect(plain("iris-StandardScaler", "csv")).toBe("iris-StandardScaler.csv");
  });

  it("keeps a known ending in any case, and adds one after an ending of another type", () => {
    expect(plain("iris.CSV", "csv")).toBe("iris.CSV");
    expect(plain("iris.tsv", "csv")).toBe("iris.tsv");
    expect(plain("iris.feather", "arrow")).toBe("iris.feather");
    expect(plain("iris.csv", "arrow")).toBe("iris.csv.arrow");
    expect(plain("iris.csv-MinMaxScaler", "csv")).toBe("iris.csv-MinMaxScaler.csv");
    expect(plain("", "json")).toBe(".json");
  });

  it("marks encrypted bytes with .enc after the record type's extension, once", () => {
    expect(sealed("iris-StandardScaler", "csv")).toBe("iris-StandardScaler.csv.enc");
    expect(sealed("iris.csv", "csv")).toBe("iris.csv.enc");
    expect(sealed("iris.csv.enc", "csv")).toBe("iris.csv.enc");
    expect(sealed("iris.enc", "parquet")).toBe("iris.parquet.enc");
    expect(plain("iris.enc", "csv")).toBe("iris.enc.csv");
  });

  it("leaves a name alone when the record type is none it knows", () => {
    expect(plain("notes", "xlsx")).toBe("notes");
    expect(plain("notes", "toString")).toBe("notes");
  });
});

describe("attachment", () => {
  it("keeps any name in filename* and an ASCII fallback in filename", () => {
    expect(attachment('a "b"\\é.csv')).toBe(
      `attachment; filename="a _b___.csv"; filename*=UTF-8''a%20%22b%22%5C%C3%A9.csv`,
    );
  });
});
