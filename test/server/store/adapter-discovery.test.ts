/**
 * A store adapter is found by its folder: src/server/store/<name>/adapter.ts exporting a
 * `storeAdapter`. Checked in the sources, then on the built dist/ in real child processes:
 * choosing a store loads no database driver, and a copy of dist/ with one more folder
 * (a throwaway adapter written here) runs the service on it with no other file edited.
 * Needs dist/ (`npm run build`).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_ADAPTERS } from "../../../src/server/store/adapters.js";
import { chooseStore } from "../../../src/server/store/choice.js";
import { ROOT } from "../../code-health/import-graph.js";

const run = promisify(execFile);
const STORE_SRC = join(ROOT, "src/server/store");

/** Runs `code` as an ES module in a new Node process in `cwd`; answers its stdout as JSON. */
async function inNode(cwd: string, code: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], { cwd });
  return JSON.parse(stdout) as unknown;
}

/** Which database drivers a process has loaded, as a line of its code prints them. */
const LOADED_DRIVERS = `(await import("node:module")).createRequire(import.meta.url).cache`;
/**
 * The SQLite driver the runtime running the tests can open: its own node:sqlite where it
 * has one (better-sqlite3's native build is for one Node version only), else better-sqlite3;
 * and the packages opening it loads (node:sqlite is no package).
 */
const BUILTIN_SQLITE = await import(/* not in Node 20 */ "node:" + "sqlite").then(
  () => true,
  () => false,
);
const SQLITE_DRIVER = BUILTIN_SQLITE ? "node-sqlite" : "better-sqlite3";
const SQLITE_PACKAGES = BUILTIN_SQLITE ? [] : ["better-sqlite3"];
const driversOf = `[...new Set(Object.keys(${LOADED_DRIVERS}).map((f) => f.match(/node_modules\\/(pg|better-sqlite3)\\//)?.[1]).filter(Boolean))]`;

describe("the store adapters", () => {
  it("are the folders of src/server/store that hold an adapter.ts, each self-describing", () => {
    const folders = readdirSync(STORE_SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(STORE_SRC, e.name, "adapter.ts")))
      .map((e) => e.name);
    expect(folders).toEqual(expect.arrayContaining(["postgres", "sqlite"]));
    expect(STORE_ADAPTERS.map((a) => a.kind)).toEqual(folders.sort());
    expect(STORE_ADAPTERS.filter((a) => a.dataDirDefault).map((a) => a.kind)).toEqual(["sqlite"]);
    for (const adapter of STORE_ADAPTERS) expect(adapter.forms.length).toBeGreaterThan(0);
  });

  it("refuse a named store none of them knows, listing every adapter's form", () => {
    const attempt = () => chooseStore({ store: "postgres", env: {} });
    expect(attempt).toThrow(/is named by its URL: write postgres:\/\/user:password@host:5432\/database/);
    expect(() => chooseStore({ store: "redis://:pw@h", env: {} })).toThrow(
      /^the store must be a postgres:\/\/ URL \(.*\) or "sqlite", got redis:\/\/:\*\*\*@h$/,
    );
  });
});

describe("the built store adapters", () => {
  const dist = join(ROOT, "dist/src/server/store");
  let copy: string;

  beforeAll(() => {
    if (!existsSync(join(dist, "adapters.js"))) throw new Error("dist/ is missing or old: run `npm run build`");
    copy = mkdtempSync(join(tmpdir(), "mdps-adapters-"));
  });
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it("load no database driver to choose a store, and only the chosen one's to open it", async () => {
    const choose = `
      const { chooseStore, describeStore } = await import("./dist/src/server/store/choice.js");
      const choice = chooseStore({ store: "postgres://u:secret@127.0.0.1:1/db", env: {} });
      console.log(JSON.stringify({ shown: describeStore(choice), drivers: ${driversOf} }));`;
    expect(await inNode(ROOT, choose)).toEqual({ shown: "postgres://u:***@127.0.0.1:1/db", drivers: [] });
    const dataDir = join(copy, "sqlite-data");
    const open = `
      const { chooseStore } = await import("./dist/src/server/store/choice.js");
      const { openChosenStores } = await import("./dist/src/server/store/open.js");
      const choice = chooseStore({ store: "sqlite", sqliteDriver: "${SQLITE_DRIVER}", env: {} });
      const stores = await openChosenStores({ choice, dataDir: ${JSON.stringify(dataDir)}, region: "local" });
      await stores.apps.createModel("m");
      await stores.close();
      console.log(JSON.stringify({ drivers: ${driversOf} }));`;
    expect(await inNode(ROOT, open)).toEqual({ drivers: SQLITE_PACKAGES });
  });

  it("find a third adapter by its folder alone: the service runs on it", async () => {
    // A copy of the built package beside the repository's node_modules, plus one folder.
    const pkg = join(copy, "pkg");
    cpSync(join(ROOT, "dist/src"), join(pkg, "dist/src"), { recursive: true });
    cpSync(join(ROOT, "package.json"), join(pkg, "package.json"));
    symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"));
    mkdirSync(join(pkg, "dist/src/server/store/mirror"));
    // The whole adapter: "mirror:<label>" keeps the records in the data dir's SQLite.
    writeFileSync(
      join(pkg, "dist/src/server/store/mirror/adapter.js"),
      `export const storeAdapter = {
        kind: "mirror",
        forms: ['a mirror: label (mirror:name)'],
        recognises: (value) => value.startsWith("mirror:"),
        choose: ({ value }) => ({ kind: "mirror", label: value?.slice("mirror:".length) ?? "default" }),
        describe: (choice) => "mirror (" + choice.label + ")",
        async open({ dataDir, region }) {
          const { openStores } = await import("../sqlite/index.js");
          return openStores({ dataDir, region });
        },
      };`,
    );
    const dataDir = join(copy, "mirror-data");
    const serve = `
      const { startService, openStoreAdmin } = await import("./dist/src/server/index.js");
      const { chooseStore } = await import("./dist/src/server/store/choice.js");
      const service = await startService({ dataDir: ${JSON.stringify(dataDir)}, store: "mirror:class-a" });
      const login = await service.portalLoginLink();
      const page = await fetch(login, { redirect: "manual" });
      await service.close();
      const admin = await openStoreAdmin({ dataDir: ${JSON.stringify(dataDir)}, store: "MIRROR" });
      const model = await admin.createModel("m");
      const models = (await admin.listModels()).map((m) => m.model_id);
      await admin.close();
      let refused = "";
      try { chooseStore({ store: "mysql://u:pw@h/db", env: {} }); } catch (err) { refused = err.message; }
      console.log(JSON.stringify({ store: service.store, admin: admin.store, login: page.status, kept: models.includes(model.model_id), refused }));`;
    expect(await inNode(pkg, serve)).toEqual({
      store: "mirror (class-a)",
      admin: "mirror (default)",
      login: 303,
      kept: true,
      refused: `the store must be a mirror: label (mirror:name) or a postgres:// URL (postgres://user:password@host:5432/database) or "sqlite", got mysql://u:***@h/db`,
    });
  });
});
