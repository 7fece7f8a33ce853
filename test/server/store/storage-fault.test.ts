/**
 * A storage fault is answered by what its adapter says of it (src/server/store/<name>/
 * adapter.ts, `faultOf`): a database server's in its own words with its retry, a data
 * dir's (SQLite, the blob files) in the data dir's; any other error is no fault.
 */
import { describe, expect, it } from "vitest";
import { PgStorageFault } from "../../../src/server/store/postgres/errors.js";
import { isTransientStorageFault, storageFaultOf, storageProblem } from "../../../src/server/store/storage-fault.js";

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("storage faults", () => {
  it("answers a PostgreSQL fault in the database's words, with its retry", () => {
    const busy = new PgStorageFault("busy", "lock timeout", "55P03");
    expect(storageFaultOf(busy)).toBe("busy");
    expect(isTransientStorageFault(busy)).toBe(true);
    const problem = storageProblem(busy)!;
    expect(problem.status).toBe(503);
    expect(problem.detail).toMatch(/locked by another replica .* Retry after 5 s\.$/);
    expect(problem.extra).toMatchObject({ headers: { "retry-after": "5" }, body: { code: "storage_busy" } });
    const full = storageProblem(new PgStorageFault("full", "disk full", "53100"))!;
    expect([full.status, full.detail]).toEqual([507, expect.stringMatching(/database's disk is full.*after 60 s\.$/)]);
  });

  it("answers SQLite's and the blob files' faults in the data dir's words", () => {
    const full = sqliteError("SQLITE_FULL", "database or disk is full");
    expect(storageFaultOf(full)).toBe("full");
    expect(storageProblem(full)).toMatchObject({ status: 507, extra: { body: { code: "storage_full" } } });
    expect(storageProblem(full)!.detail).toMatch(/data dir's disk/);
    const locked = sqliteError("SQLITE_BUSY", "database is locked");
    expect(storageProblem(locked)).toMatchObject({ status: 503, extra: { body: { code: "storage_busy" } } });
    const enospc = Object.assign(new Error("write failed"), { code: "ENOSPC" });
    expect(storageProblem(enospc)).toMatchObject({ status: 507 });
    const readOnly = Object.assign(new Error("open failed"), { code: "EROFS" });
    expect(storageProblem(readOnly)).toMatchObject({ status: 503, extra: { body: { code: "storage_read_only" } } });
  });

  it("is no fault for any other error", () => {
    expect(storageFaultOf(new Error("boom"))).toBeUndefined();
    expect(storageProblem(Object.assign(new Error("no such file"), { code: "ENOENT" }))).toBeUndefined();
    expect(isTransientStorageFault(new TypeError("x"))).toBe(false);
  });
});
