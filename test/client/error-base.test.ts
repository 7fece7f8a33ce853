/**
 * Every error class mdps exports is an MdpsError with a stable code and its class name,
 * so one `catch (e) { if (e instanceof MdpsError) switch (e.code) … }` covers them all,
 * also the ones raised by the engine, the file formats and the crypto code.
 */
import { describe, expect, it } from "vitest";
import {
  DecryptionError,
  EngineError,
  FormatError,
  InvalidEncryptionKeyError,
  MdpsError,
  ValidationError,
} from "../../src/index.js";
import { AdminError } from "../../src/server/domain/admin-error.js";

describe("MdpsError", () => {
  const cases: Array<[MdpsError, string, string]> = [
    [new EngineError("column x holds NaN", { column: "x", row: 2 }), "EngineError", "invalid_data"],
    [new FormatError("row 3 is short", { row: 3 }), "FormatError", "format_error"],
    [new DecryptionError(), "DecryptionError", "decryption_failed"],
    [new DecryptionError("not an mdps envelope", "not_an_envelope"), "DecryptionError", "not_an_envelope"],
    [new InvalidEncryptionKeyError("invalid encryption key"), "InvalidEncryptionKeyError", "invalid_encryption_key"],
    [new AdminError("no model abc"), "AdminError", "admin_error"],
  ];
  it.each(cases)("%s is an MdpsError named %s with code %s", (error, name, code) => {
    expect(error).toBeInstanceOf(MdpsError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(String(error)).toBe(`${name}: ${error.message}`);
  });

  it("keeps the fields an engine or format error carries about the cell", () => {
    const engine = new EngineError("m", { column: "x", row: 2 });
    expect([engine.column, engine.row]).toEqual(["x", 2]);
    const format = new FormatError("m", { column: "a", row: 1, value: "NA" });
    expect([format.column, format.row, format.value]).toEqual(["a", 1, "NA"]);
    expect(new ValidationError({ status: 400, code: "validation_failed", message: "m" })).toBeInstanceOf(MdpsError);
  });
});
