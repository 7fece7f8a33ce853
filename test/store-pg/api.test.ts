/**
 * The PostgreSQL store answers the SQLite store's calls: every public method of each SQLite
 * record class exists on its PostgreSQL class with the same parameters and the same result,
 * as a Promise (checked by the compiler below), and `openPgStores` has the members of
 * `Stores`. What lets the service move to it by adding `await`s. No database needed.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { AppStore } from "../../src/server/store/sqlite/apps.js";
import type { Async } from "../../src/server/store/async-port.js";
import { BlobStore } from "../../src/server/store/sqlite/blobs.js";
import { DamageStore } from "../../src/server/store/sqlite/damage.js";
import type { Stores } from "../../src/server/store/port.js";
import { JobStore } from "../../src/server/store/sqlite/jobs.js";
import {
  PgAppStore,
  PgBlobStore,
  PgDamageStore,
  PgJobStore,
  PgPortalStore,
  PgProcessRegistry,
  PgTokenStore,
  type PgStores,
} from "../../src/server/store/postgres/index.js";
import { openPgPort } from "../../src/server/store/postgres/port.js";
import { PortalStore } from "../../src/server/store/sqlite/portal.js";
import { ProcessRegistry } from "../../src/server/store/sqlite/processes.js";
import { TokenStore } from "../../src/server/store/sqlite/tokens.js";

/** Registering a listener stays synchronous on both stores. */
type AsyncJobs = Omit<Async<JobStore>, "onChange"> & Pick<JobStore, "onChange">;

// Assignability: a PostgreSQL class may accept more (optional extras) but never less, nor answer otherwise.
expectTypeOf<PgAppStore>().toExtend<Async<AppStore>>();
expectTypeOf<PgTokenStore>().toExtend<Async<TokenStore>>();
expectTypeOf<PgBlobStore>().toExtend<Async<BlobStore>>();
expectTypeOf<PgJobStore>().toExtend<AsyncJobs>();
expectTypeOf<PgProcessRegistry>().toExtend<Async<ProcessRegistry>>();
expectTypeOf<PgPortalStore>().toExtend<Async<PortalStore>>();
expectTypeOf<PgDamageStore>().toExtend<Async<DamageStore>>();

/** The SQLite classes' private helpers: on the prototype at run time, not part of the surface. */
const PRIVATE = new Set(["constructor", "event"]);

function methods(prototype: object): string[] {
  return Object.getOwnPropertyNames(prototype)
    .filter((name) => !PRIVATE.has(name))
    .sort();
}

describe("the PostgreSQL store's surface", () => {
  it.each([
    [AppStore, PgAppStore],
    [TokenStore, PgTokenStore],
    [BlobStore, PgBlobStore],
    [JobStore, PgJobStore],
    [ProcessRegistry, PgProcessRegistry],
    [PortalStore, PgPortalStore],
    [DamageStore, PgDamageStore],
  ] as Array<[{ name: string; prototype: object }, { prototype: object }]>)(
    "%o: every method of the SQLite class is there",
    (sqlite, postgres) => {
      const missing = methods(sqlite.prototype).filter((m) => !methods(postgres.prototype).includes(m));
      expect(missing, sqlite.name).toEqual([]);
    },
  );

  it("openPgPort answers the service's store port, Stores", () => {
    expectTypeOf<Awaited<ReturnType<typeof openPgPort>>>().toEqualTypeOf<Stores>();
    expectTypeOf<PgStores["transaction"]>().toEqualTypeOf<<T>(fn: () => Promise<T>) => Promise<T>>();
  });
});
