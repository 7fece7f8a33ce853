/**
 * Which store the service uses: the data dir's SQLite unless a postgres:// URL is named
 * (option, then MDPS_STORE); a wrong value is an error that shows the accepted forms and
 * never the password it may hold.
 */
import { describe, expect, it } from "vitest";
import { chooseStore, describeStore, redactedUrl } from "../../src/server/store/choice.js";

describe("chooseStore", () => {
  it("is the data dir's SQLite by default, and for an empty or `sqlite` value", () => {
    for (const store of [undefined, "", "  ", "sqlite", "SQLite"]) {
      expect(chooseStore({ store, env: {} }).kind).toBe("sqlite");
    }
  });

  it("takes a postgres:// or postgresql:// URL from the option, else from MDPS_STORE", () => {
    const url = "postgres://mdps:pw@127.0.0.1:5432/mdps";
    expect(chooseStore({ store: url, env: {} })).toEqual({ kind: "postgres", url });
    expect(chooseStore({ env: { MDPS_STORE: "postgresql://h/db" } })).toEqual({
      kind: "postgres",
      url: "postgresql://h/db",
    });
    expect(chooseStore({ store: "sqlite", env: { MDPS_STORE: url } }).kind).toBe("sqlite");
  });

  it("refuses anything else naming the accepted forms, without repeating a password", () => {
    const attempt = () => chooseStore({ store: "mysql://root:hunter2@db/mdps", env: {} });
    expect(attempt).toThrow(/postgres:\/\/ URL .* or "sqlite", got mysql:\/\/root:\*\*\*@db\/mdps/);
    expect(attempt).not.toThrow(/hunter2/);
  });

  it("shows a store without its password, a raw @ in it included", () => {
    expect(redactedUrl("postgres://u:p@ss@h:5432/db")).toBe("postgres://u:***@h:5432/db");
    expect(redactedUrl("postgres://u@h/db")).toBe("postgres://u@h/db");
    expect(describeStore({ kind: "postgres", url: "postgres://u:secret@h/db?sslmode=require" })).toBe(
      "postgres://u:***@h/db?sslmode=require",
    );
    expect(describeStore({ kind: "sqlite", driver: "better-sqlite3" })).toBe("sqlite (better-sqlite3)");
  });
});
