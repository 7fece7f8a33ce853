/**
 * How a postgres:// URL becomes pool settings: percent-encoded parts decoded, a socket
 * folder or TLS asked for in the query, and errors that never repeat the URL. No database.
 */
import { describe, expect, it } from "vitest";
import { pgConfigOf } from "../../src/server/store/postgres/connection.js";
import { redact, storeError } from "../../src/server/store/postgres/errors.js";

describe("the PostgreSQL URL", () => {
  it("decodes user, password and database, and keeps the password among the secrets in both forms", () => {
    const { config, secrets } = pgConfigOf("postgresql://us%40er:p%40ss%2Fw%3Ard@db.example:6543/my%20db");
    expect(config).toMatchObject({
      host: "db.example",
      port: 6543,
      user: "us@er",
      password: "p@ss/w:rd",
      database: "my db",
      ssl: false,
    });
    expect(secrets).toEqual(["p@ss/w:rd"]);
    expect(redact("a p@ss/w:rd b p%40ss%2Fw%3Ard c", secrets)).toBe("a *** b *** c");
  });

  it("takes a socket folder from ?host= and TLS from ?sslmode=, verifying the server only when asked to", () => {
    expect(pgConfigOf("postgres:///db?host=/run/postgresql").config).toMatchObject({
      host: "/run/postgresql",
      port: 5432,
      database: "db",
    });
    expect(pgConfigOf("postgres://u@localhost/db?host=/run/postgresql").config).toMatchObject({
      host: "/run/postgresql",
      user: "u",
    });
    expect(pgConfigOf("postgres://u:p@h/db?sslmode=require").config.ssl).toEqual({ rejectUnauthorized: false });
    expect(pgConfigOf("postgres://u:p@h/db?sslmode=verify-full").config.ssl).toEqual({ rejectUnauthorized: true });
    expect(pgConfigOf("postgres://u@h/db").config).toMatchObject({ password: "", ssl: false });
    expect(pgConfigOf("postgres://u@h/db").secrets).toEqual([]);
  });

  it("refuses another scheme or a malformed URL without repeating it", () => {
    const password = "hunter2-secret";
    for (const url of [`mysql://u:${password}@h/db`, `postgres://u:${password}@h:port/db`]) {
      let message = "";
      try {
        pgConfigOf(url);
      } catch (err) {
        message = `${String(err)} ${(err as Error).stack ?? ""}`;
      }
      expect(message).toMatch(/PostgreSQL URL/);
      expect(message).not.toContain(password);
    }
  });

  it("redacts a password that a driver message might quote, in a fault and in any other error", () => {
    const fault = storeError(Object.assign(new Error("connect to u:pw-123@h failed"), { code: "ECONNREFUSED" }), [
      "pw-123",
    ]);
    expect(fault).toMatchObject({ kind: "unavailable", code: "storage_unavailable" });
    expect(String(fault)).not.toContain("pw-123");
    const other = storeError(Object.assign(new Error("syntax near pw-123"), { code: "42601" }), ["pw-123"]) as Error;
    expect(other.message).toBe("syntax near ***");
    expect(other.stack).not.toContain("pw-123");
  });
});
